// A Redirect from a node (play goes on at another node of the lobby), as the
// connection follows it: the checks that make a hostile one harmless, and
// the bound on how often redirects are followed.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>

#include "link/server_list.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// The longest reservation sent back in Hello (the server's Hello frame is
// small: 4 KiB for everything).
inline constexpr std::size_t kMaxReservation = 512;

// Where a Redirect sends the connection, checked.
struct RedirectTarget {
  ServerAddress address;
  std::string fingerprint;  // canonical "SHA256:..." the node vouches for; empty: none
  std::string reservation;  // for Hello.reservation; empty: none
};

// The target of redirect, or nullopt with why it is refused in why: an
// empty, over-long or malformed host (host_problem), a port that is 0 or
// over 65535, a fingerprint that is not in canonical form ("SHA256:" and 43
// base64 characters), a reservation over kMaxReservation bytes. A bracketed
// IPv6 host ("[::1]") is taken without its brackets. What the reasons quote
// of the server's text is made safe to show.
std::optional<RedirectTarget> check_redirect(const wire::Redirect& redirect, std::string& why);

// How often redirects are followed: more than `most` within `window` means
// nodes that send the client round in circles (or a hostile one), and the
// connection gives up.
class RedirectLimit {
 public:
  RedirectLimit(std::size_t most, std::chrono::milliseconds window)
      : most_(most), window_(window) {}

  // Counts a redirect at now; false when it is one too many.
  bool allow(std::chrono::steady_clock::time_point now);
  // The last redirect counted led nowhere (its node could not be reached:
  // gone since the sender last heard of it): it does not count. A client
  // sent to unreachable nodes over and over waits its backoff each time and
  // gives up with its retry period instead.
  void forgive() {
    if (!times_.empty()) times_.pop_back();
  }

  std::size_t most() const noexcept { return most_; }
  std::chrono::milliseconds window() const noexcept { return window_; }

 private:
  std::size_t most_;
  std::chrono::milliseconds window_;
  std::deque<std::chrono::steady_clock::time_point> times_;  // within the window, oldest first
};

}  // namespace ttt::client
