// WebServer: the web client on the game port (--web on). A session that
// finds its connection is a browser's hands it here (WebEntrance); each
// becomes an HttpConnection, which serves the page and upgrades /ws into a
// WebSession. It holds what they all share: the lobby's Gate, the limits
// and commons of every connection, the site's files and which origins may
// open the WebSocket.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/address.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/session.hpp"
#include "net/web_entrance.hpp"
#include "web/web_site.hpp"

namespace ttt::server {

struct WebSettings {
  // Origins besides the page's own (the Host it was asked for) that may
  // open /ws, e.g. "https://ttt.example.org" behind a proxy (--web-origin).
  std::vector<std::string> origins;
  // Reverse proxies whose X-Forwarded-For is believed (--web-trusted-proxy):
  // a WebSocket they forward counts, for the lobby's limits per address,
  // as the browser's address, not the proxy's.
  std::vector<boost::asio::ip::address> trusted_proxies;
};

class WebServer : public WebEntrance {
 public:
  WebServer(Gate& gate, boost::asio::any_io_executor logic, const SessionLimits& limits,
            SessionCommons commons, WebSettings settings);

  void enter(tls::Stream stream, std::string received, std::shared_ptr<void> slot) override;

  // Whether a WebSocket upgrade with this Origin may go on: none (not a
  // browser: a browser always sends one), the page's own (scheme, and the
  // Host header the request names), or one of --web-origin. Anything else
  // is another site's page trying to play as its visitor (cross-site
  // WebSocket hijacking).
  bool origin_allowed(std::string_view origin, std::string_view host, bool tls) const;

  // The address key a WebSocket from peer counts by: the peer's, or, when
  // the peer is a trusted proxy, the last address of its X-Forwarded-For
  // (the one the proxy itself saw). nullopt: a trusted proxy's header that
  // names no address (the upgrade is refused).
  std::optional<std::string> client_address(const boost::asio::ip::address& peer,
                                            std::string_view forwarded_for) const;

  Gate& gate() noexcept { return gate_; }
  const boost::asio::any_io_executor& logic() const noexcept { return logic_; }
  const SessionLimits& limits() const noexcept { return limits_; }
  const SessionCommons& commons() const noexcept { return commons_; }
  const web::WebSite& site() const noexcept { return site_; }

 private:
  Gate& gate_;
  boost::asio::any_io_executor logic_;
  const SessionLimits& limits_;
  SessionCommons commons_;
  WebSettings settings_;
  web::WebSite site_;
};

}  // namespace ttt::server
