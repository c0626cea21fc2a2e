#include "link/redirect.hpp"

#include "text/safe_text.hpp"
#include "ttt/tls/fingerprint.hpp"

namespace ttt::client {

std::optional<RedirectTarget> check_redirect(const wire::Redirect& redirect, std::string& why) {
  std::string_view host = redirect.host();
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (const std::string problem = host_problem(host); !problem.empty()) {
    // host_problem quotes only printable ASCII of it.
    why = "its host " + problem;
    return std::nullopt;
  }
  if (redirect.port() == 0 || redirect.port() > 65535) {
    why = "its port " + std::to_string(redirect.port()) + " is not a port (1 to 65535)";
    return std::nullopt;
  }
  if (!redirect.fingerprint().empty() &&
      tls::parse_fingerprint(redirect.fingerprint()) != redirect.fingerprint()) {
    why = "its fingerprint '" + safe_text(redirect.fingerprint(), field_width::kShort) +
          "' is not a SHA-256 fingerprint (SHA256: and 43 base64 characters)";
    return std::nullopt;
  }
  if (redirect.reservation().size() > kMaxReservation) {
    why = "its reservation is " + std::to_string(redirect.reservation().size()) +
          " bytes long (at most " + std::to_string(kMaxReservation) + ")";
    return std::nullopt;
  }
  RedirectTarget target;
  target.address = {std::string(host), static_cast<std::uint16_t>(redirect.port())};
  target.fingerprint = redirect.fingerprint();
  target.reservation = redirect.reservation();
  return target;
}

bool RedirectLimit::allow(std::chrono::steady_clock::time_point now) {
  while (!times_.empty() && now - times_.front() >= window_) times_.pop_front();
  times_.push_back(now);
  return times_.size() <= most_;
}

}  // namespace ttt::client
