// RareWarning: a warning whose cause another party controls (whoever can
// publish on the lobby's Redis), said at most once a minute, with "(and any
// more within a minute)": they decide how often it could happen, not how
// often the log says so. Runs on the logic executor, as its owner does.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <string_view>

namespace ttt::server::redis {

class RareWarning {
 public:
  void operator()(std::string_view what) {
    const auto now = std::chrono::steady_clock::now();
    if (last_ && now - *last_ < std::chrono::minutes(1)) return;
    last_ = now;
    spdlog::warn("{} (and any more within a minute)", what);
  }

 private:
  std::optional<std::chrono::steady_clock::time_point> last_;  // the last said
};

}  // namespace ttt::server::redis
