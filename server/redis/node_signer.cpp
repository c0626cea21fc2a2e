#include "redis/node_signer.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <sys/stat.h>

#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>

#include "lobby/secrets.hpp"

namespace ttt::server::redis {
namespace {

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

struct MacFree {
  void operator()(EVP_MAC_CTX* context) const noexcept { EVP_MAC_CTX_free(context); }
};
using MacContext = std::unique_ptr<EVP_MAC_CTX, MacFree>;

bool update(EVP_MAC_CTX* context, std::string_view bytes) {
  return EVP_MAC_update(context, reinterpret_cast<const unsigned char*>(bytes.data()),
                        bytes.size()) == 1;
}

}  // namespace

NodeSigner::NodeSigner(std::string key) : key_(std::move(key)) {
  if (key_.empty()) return;
  EVP_MAC* hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  MacContext context(hmac != nullptr ? EVP_MAC_CTX_new(hmac) : nullptr);
  EVP_MAC_free(hmac);  // the context holds its own reference
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_END};
  if (!context || EVP_MAC_init(context.get(), reinterpret_cast<const unsigned char*>(key_.data()),
                               key_.size(), params) != 1) {
    throw std::runtime_error("cluster: OpenSSL offers no HMAC-SHA256 to sign with");
  }
  keyed_ = std::shared_ptr<const EVP_MAC_CTX>(context.release(), MacFree{});
}

std::string NodeSigner::mac(std::string_view context, std::string_view value) const {
  // HMAC-SHA256 of the context and the value, each with its length first
  // ("7:ttt:who12:..."): no two pairs make the same input.
  MacContext mac(EVP_MAC_CTX_dup(keyed_.get()));
  if (!mac) throw std::bad_alloc();
  const std::string context_length = std::to_string(context.size()) + ":";
  const std::string value_length = std::to_string(value.size()) + ":";
  unsigned char out[EVP_MAX_MD_SIZE];
  std::size_t length = 0;
  // A copy starts where the keyed one stands; init (the same key) says so
  // to OpenSSL versions that ask for it.
  if (EVP_MAC_init(mac.get(), nullptr, 0, nullptr) != 1 || !update(mac.get(), context_length) ||
      !update(mac.get(), context) || !update(mac.get(), value_length) ||
      !update(mac.get(), value) || EVP_MAC_final(mac.get(), out, &length, sizeof out) != 1) {
    throw std::runtime_error("cluster: HMAC-SHA256 failed");
  }
  return std::string(reinterpret_cast<const char*>(out), length);
}

std::string NodeSigner::sign(std::string_view context, std::string_view value) const {
  if (!enabled()) return std::string(value);
  std::string out = mac(context, value);
  out.append(value);
  return out;
}

std::optional<std::string> NodeSigner::open(std::string_view context,
                                            std::string_view signed_value) const {
  if (!enabled()) return std::string(signed_value);
  if (signed_value.size() < kTagBytes) return std::nullopt;
  const std::string_view value = signed_value.substr(kTagBytes);
  if (!equal_constant_time(signed_value.substr(0, kTagBytes), mac(context, value))) {
    return std::nullopt;
  }
  return std::string(value);
}

std::string NodeSigner::text_tag(std::string_view context, std::string_view text) const {
  if (!enabled()) return "-";
  return hex(mac(context, text));
}

bool NodeSigner::text_tag_ok(std::string_view context, std::string_view text,
                             std::string_view tag) const {
  if (!enabled()) return true;
  return equal_constant_time(tag, hex(mac(context, text)));
}

std::optional<std::string> read_cluster_key(const std::string& path, std::string& error) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    error = path + " can't be read (missing?)";
    return std::nullopt;
  }
  if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    error = path +
            " may be read by others: the key the nodes share must be the owner's only "
            "(chmod 600 " +
            path + ")";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    error = path + " can't be read";
    return std::nullopt;
  }
  std::string key = text.str();
  while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) key.pop_back();
  if (key.size() < NodeSigner::kMinKey) {
    error = path + " holds " + std::to_string(key.size()) + " bytes: a key the nodes share is " +
            std::to_string(NodeSigner::kMinKey) + " bytes at least (e.g. openssl rand -hex 32 > " +
            path + ")";
    return std::nullopt;
  }
  return key;
}

}  // namespace ttt::server::redis
