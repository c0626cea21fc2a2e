// WebSite: what the game port serves to a browser: the web client's files
// (compiled in), the page itself at "/" and at every watch link
// "/game/ID", and the wire's schema the page encodes and decodes protobuf
// by (/wire.json, made from the server's own descriptors). Each answer
// carries the same strict headers: a Content-Security-Policy that allows
// only the server's own scripts, styles and WebSocket, no sniffing, no
// framing, no referrer.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ttt::server::web {

struct WebAsset {
  std::string_view type;  // Content-Type
  std::string_view body;
  std::string etag;  // a quoted hash of the body
};

class WebSite {
 public:
  WebSite();

  // The asset a GET of path serves, or null (404). path excludes the query.
  const WebAsset* find(std::string_view path) const;

  // Headers every answer carries (name, value).
  static const std::vector<std::pair<std::string_view, std::string_view>>& security_headers();

 private:
  std::map<std::string, WebAsset, std::less<>> assets_;
  std::string schema_;  // /wire.json's body
  const WebAsset* page_ = nullptr;
};

// True for "/game/ID" (ID a whole number): a watch link, served the page.
bool is_watch_path(std::string_view path) noexcept;

}  // namespace ttt::server::web
