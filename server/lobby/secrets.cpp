#include "lobby/secrets.hpp"

#include <openssl/evp.h>

#include <random>
#include <stdexcept>

namespace ttt::server {

std::string random_hex(std::size_t hex_digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device device;
  std::string out;
  out.reserve(hex_digits);
  while (out.size() < hex_digits) {
    std::uint32_t bits = device();
    for (int i = 0; i < 8 && out.size() < hex_digits; ++i, bits >>= 4) out += kHex[bits & 15];
  }
  return out;
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

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace ttt::server
