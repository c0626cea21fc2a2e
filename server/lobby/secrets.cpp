#include "lobby/secrets.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace ttt::server {
namespace {

void random_bytes(unsigned char* out, std::size_t n) {
  if (n == 0) return;
  if (RAND_bytes(out, static_cast<int>(n)) != 1) {
    throw std::runtime_error("the cryptographic random generator failed");
  }
}

}  // namespace

std::string random_hex(std::size_t hex_digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::vector<unsigned char> bytes((hex_digits + 1) / 2);
  random_bytes(bytes.data(), bytes.size());
  std::string out;
  out.reserve(hex_digits);
  for (unsigned char b : bytes) {
    if (out.size() < hex_digits) out += kHex[b >> 4];
    if (out.size() < hex_digits) out += kHex[b & 15];
  }
  return out;
}

std::string random_code(std::size_t length, std::string_view alphabet) {
  if (alphabet.empty() || alphabet.size() > 256) {
    throw std::invalid_argument("random_code: an alphabet of 1 to 256 characters");
  }
  // Rejection sampling: bytes past the largest multiple of the alphabet's
  // size are drawn again, so every character is equally likely.
  const unsigned limit = 256 - 256 % static_cast<unsigned>(alphabet.size());
  std::string code;
  code.reserve(length);
  unsigned char pool[64];
  while (code.size() < length) {
    random_bytes(pool, sizeof pool);
    for (unsigned char b : pool) {
      if (code.size() == length) break;
      if (b < limit) code += alphabet[b % alphabet.size()];
    }
  }
  return code;
}

std::string random_invite_code() { return random_code(kInviteLength, kInviteAlphabet); }

std::string normalize_invite_code(std::string_view typed) {
  std::string code;
  code.reserve(typed.size());
  for (char c : typed) {
    if (c == '-' || c == ' ') continue;
    code += c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return code;
}

std::string display_invite_code(std::string_view code) {
  if (code.size() != kInviteLength) return std::string(code);
  std::string shown;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (i > 0 && i % 4 == 0) shown += '-';
    shown += code[i];
  }
  return shown;
}

bool is_valid_secret(std::string_view secret) noexcept {
  if (secret.size() < kMinSecret || secret.size() > kMaxSecret) return false;
  for (char c : secret) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string sha256_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::string hash_secret(std::string_view salt, std::string_view secret) {
  std::string salted(salt);
  salted += ':';
  salted += secret;
  return sha256_hex(salted);
}

std::string invite_key(std::string_view typed) {
  const std::string code = normalize_invite_code(typed);
  return code.empty() ? std::string{} : sha256_hex("ttt invite " + code);
}

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace ttt::server
