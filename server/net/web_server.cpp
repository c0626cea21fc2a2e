#include "net/web_server.hpp"

#include <algorithm>
#include <cctype>

#include "net/http_connection.hpp"

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

}  // namespace ttt::server
