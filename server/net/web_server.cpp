#include "net/web_server.hpp"

#include <algorithm>
#include <cctype>

#include "net/http_connection.hpp"
#include "net/peer_address.hpp"

namespace ttt::server {
namespace {

bool same_text_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

WebServer::WebServer(Gate& gate, boost::asio::any_io_executor logic, const SessionLimits& limits,
                     SessionCommons commons, WebSettings settings)
    : gate_(gate),
      logic_(std::move(logic)),
      limits_(limits),
      commons_(commons),
      settings_(std::move(settings)) {
  for (auto& origin : settings_.origins) {
    while (!origin.empty() && origin.back() == '/') origin.pop_back();
  }
}

void WebServer::enter(tls::Stream stream, std::string received, std::shared_ptr<void> slot) {
  std::make_shared<HttpConnection>(std::move(stream), std::move(received), std::move(slot), *this)
      ->start();
}

bool WebServer::origin_allowed(std::string_view origin, std::string_view host, bool tls) const {
  if (origin.empty()) return true;
  if (!host.empty()) {
    const std::string own = std::string(tls ? "https://" : "http://") + std::string(host);
    if (same_text_ignoring_case(origin, own)) return true;
  }
  return std::any_of(
      settings_.origins.begin(), settings_.origins.end(),
      [&](const std::string& allowed) { return same_text_ignoring_case(origin, allowed); });
}

std::optional<std::string> WebServer::client_address(const boost::asio::ip::address& peer,
                                                     std::string_view forwarded_for) const {
  const bool trusted = std::find(settings_.trusted_proxies.begin(), settings_.trusted_proxies.end(),
                                 peer) != settings_.trusted_proxies.end();
  if (!trusted || forwarded_for.empty()) return address_key(peer);
  std::string_view last = forwarded_for.substr(forwarded_for.rfind(',') + 1);
  while (!last.empty() && last.front() == ' ') last.remove_prefix(1);
  while (!last.empty() && last.back() == ' ') last.remove_suffix(1);
  if (last.size() > 2 && last.front() == '[' && last.back() == ']')
    last = last.substr(1, last.size() - 2);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(last), ec);
  if (ec) return std::nullopt;
  return address_key(address);
}

}  // namespace ttt::server
