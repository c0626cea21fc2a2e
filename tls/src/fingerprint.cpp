#include "ttt/tls/fingerprint.hpp"

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <array>
#include <cctype>

namespace ttt::tls {
namespace {

constexpr std::size_t kDigestBytes = 32;

std::string base64_unpadded(const unsigned char* bytes, std::size_t n) {
  std::string out(4 * ((n + 2) / 3) + 1, '\0');
  const int written =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, static_cast<int>(n));
  out.resize(static_cast<std::size_t>(written));
  while (!out.empty() && out.back() == '=') out.pop_back();
  return out;
}

std::string canonical(const std::array<unsigned char, kDigestBytes>& digest) {
  return "SHA256:" + base64_unpadded(digest.data(), digest.size());
}

std::optional<std::array<unsigned char, kDigestBytes>> from_hex(std::string_view text) {
  std::array<unsigned char, kDigestBytes> digest{};
  std::size_t nibbles = 0;
  for (const char c : text) {
    if (c == ':') continue;
    const int value = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                  : -1;
    if (value < 0 || nibbles >= 2 * kDigestBytes) return std::nullopt;
    digest[nibbles / 2] = static_cast<unsigned char>(digest[nibbles / 2] << 4 | value);
    ++nibbles;
  }
  if (nibbles != 2 * kDigestBytes) return std::nullopt;
  return digest;
}

std::optional<std::array<unsigned char, kDigestBytes>> from_base64(std::string_view text) {
  std::string padded(text);
  while (padded.size() % 4 != 0) padded.push_back('=');
  if (padded.size() != 44) return std::nullopt;
  for (const char c : padded) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/' && c != '=') {
      return std::nullopt;
    }
  }
  std::array<unsigned char, 33> out{};
  if (EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(padded.data()),
                      static_cast<int>(padded.size())) != 33) {
    return std::nullopt;
  }
  std::array<unsigned char, kDigestBytes> digest{};
  for (std::size_t i = 0; i < kDigestBytes; ++i) digest[i] = out[i];
  // The one padding byte EVP_DecodeBlock counts must decode to zero bits.
  if (out[32] != 0) return std::nullopt;
  return digest;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

std::string fingerprint(X509* certificate) {
  std::array<unsigned char, kDigestBytes> digest{};
  unsigned int length = 0;
  if (certificate == nullptr ||
      X509_digest(certificate, EVP_sha256(), digest.data(), &length) != 1 ||
      length != kDigestBytes) {
    return {};
  }
  return canonical(digest);
}

std::optional<std::string> parse_fingerprint(std::string_view text) {
  text = trim(text);
  constexpr std::string_view kOpensslPrefix = "SHA256 Fingerprint=";
  if (text.substr(0, kOpensslPrefix.size()) == kOpensslPrefix) {
    text.remove_prefix(kOpensslPrefix.size());
  }
  if (text.substr(0, 7) == "SHA256:") {
    if (auto digest = from_base64(text.substr(7))) return canonical(*digest);
    return std::nullopt;
  }
  if (auto digest = from_hex(text)) return canonical(*digest);
  return std::nullopt;
}

}  // namespace ttt::tls
