#include "console/reconnecting.hpp"

#include "console/session_text.hpp"

namespace ttt::client {

bool Reconnecting::begin(std::chrono::milliseconds left, time_point now) {
  const bool first = !active_;
  if (first) countdown_.start(left);
  deadline_ = now + left;
  active_ = true;
  return first;
}

void Reconnecting::tick(time_point now) {
  const std::chrono::milliseconds time_left = left(now);
  if (countdown_.due(time_left)) {
    terminal_.print(reconnect_countdown_text(Countdown::shown(time_left)) + "\n");
  }
}

std::string Reconnecting::prompt(time_point now) const {
  return reconnecting_prompt(left(now), true);
}

std::chrono::milliseconds Reconnecting::left(time_point now) const {
  return deadline_ > now ? std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now)
                         : std::chrono::milliseconds(0);
}

}  // namespace ttt::client
