// SilenceWatch: when a peer past Hello has been silent too long. A peer
// silent for half the idle timeout is pinged, one silent for all of it is
// dropped; while a heartbeat is asked for (a player seated in a game) the
// shorter heartbeat timeout rules: a ping after a third of it, and the link
// counted dead after all of it. Bookkeeping only, on times the caller gives.
#pragma once

#include <chrono>

namespace ttt::server {

class SilenceWatch {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Action {
    kWait,         // nothing to do before `next`
    kPing,         // ping the peer now
    kIdle,         // silent for the idle timeout: tell it and close
    kNoHeartbeat,  // silent for the heartbeat timeout: the link is dead
  };
  struct Verdict {
    Action action = Action::kWait;
    Clock::time_point next = Clock::time_point::max();  // when to look again
    std::chrono::milliseconds timeout{0};               // the timeout that ruled
  };

  // A zero timeout turns that check off.
  SilenceWatch(std::chrono::milliseconds idle_timeout, std::chrono::milliseconds heartbeat_timeout,
               Clock::time_point now) noexcept;

  // A whole message arrived from the peer.
  void heard(Clock::time_point now) noexcept { last_heard_ = now; }
  // Whether a heartbeat is asked for; true if that changed.
  bool set_heartbeat(bool on) noexcept;
  // What to do at `now`; a kPing verdict counts as the ping sent.
  Verdict check(Clock::time_point now) noexcept;

 private:
  const std::chrono::milliseconds idle_timeout_;
  const std::chrono::milliseconds heartbeat_timeout_;
  Clock::time_point last_heard_;
  Clock::time_point last_ping_{};
  bool heartbeat_ = false;
};

}  // namespace ttt::server
