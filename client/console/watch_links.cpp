#include "console/watch_links.hpp"

#include "text/safe_text.hpp"

namespace ttt::client {

void WatchLinks::welcomed(const wire::Welcome& welcome) {
  constexpr std::size_t kUrlWidth = 200;  // a longer address is cut
  web_client_ = welcome.web_client();
  web_url_ = safe_text(welcome.web_url(), kUrlWidth);
}

std::string WatchLinks::game(std::uint64_t game_id) const {
  return web_client_ ? base() + "/game/" + std::to_string(game_id) : "";
}

std::string WatchLinks::any_game() const { return web_client_ ? base() + "/game/ID" : ""; }

std::string WatchLinks::base() const {
  if (!web_url_.empty()) return web_url_;
  const bool ipv6 = host_.find(':') != std::string::npos;
  return std::string(tls_ ? "https://" : "http://") + (ipv6 ? "[" : "") + host_ +
         (ipv6 ? "]" : "") + ":" + std::to_string(port_);
}

}  // namespace ttt::client
