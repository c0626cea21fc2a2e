#include "cluster/node_signer.hpp"

#include <openssl/hmac.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "lobby/secrets.hpp"

namespace ttt::server::cluster {
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

}  // namespace

std::string NodeSigner::mac(std::string_view context, std::string_view value) const {
  // The context and the value, each with its length first: no two pairs
  // make the same input.
  std::string input = std::to_string(context.size()) + ":";
  input.append(context);
  input += std::to_string(value.size()) + ":";
  input.append(value);
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), out, &length);
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

}  // namespace ttt::server::cluster
