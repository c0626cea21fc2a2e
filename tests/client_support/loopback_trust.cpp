#include "client_support/loopback_trust.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace ttt::testing {
namespace {

std::mutex mutex;
// By port, the servers registered on it, the newest last (a server restarted
// on its port registers before the old object is gone).
std::map<std::uint16_t, std::vector<std::string>>& servers() {
  static std::map<std::uint16_t, std::vector<std::string>> by_port;
  return by_port;
}

}  // namespace

void register_server(std::uint16_t port, const std::string& fingerprint) {
  const std::lock_guard lock(mutex);
  servers()[port].push_back(fingerprint);
}

void forget_server(std::uint16_t port, const std::string& fingerprint) {
  const std::lock_guard lock(mutex);
  const auto found = servers().find(port);
  if (found == servers().end()) return;
  auto& registered = found->second;
  const auto it = std::find(registered.begin(), registered.end(), fingerprint);
  if (it != registered.end()) registered.erase(it);
  if (registered.empty()) servers().erase(found);
}

std::vector<std::string> trust_args(std::uint16_t port) {
  const std::lock_guard lock(mutex);
  const auto found = servers().find(port);
  if (found == servers().end()) return {};
  const std::string& fingerprint = found->second.back();
  if (fingerprint.empty()) return {"--no-tls"};
  return {"--fingerprint", fingerprint};
}

}  // namespace ttt::testing
