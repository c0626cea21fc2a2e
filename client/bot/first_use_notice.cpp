#include "bot/first_use_notice.hpp"

#include <spdlog/spdlog.h>

#include <mutex>
#include <set>

namespace ttt::client {

void log_first_use_trust(const std::string& where, const std::string& fingerprint,
                         const std::string& known_servers) {
  static std::mutex mutex;
  static std::set<std::string> announced;
  {
    const std::lock_guard lock(mutex);
    if (!announced.insert(where + " " + fingerprint).second) return;
  }
  spdlog::warn(
      "trusting the server at {} on first use: its TLS certificate's fingerprint is {} "
      "(compare it with `ttt-server --print-fingerprint` on the server; remembered in {})",
      where, fingerprint, known_servers.empty() ? "nothing" : known_servers);
}

}  // namespace ttt::client
