#include "web/web_site.hpp"

#include <cstdint>
#include <cstdio>

#include "web/web_files.hpp"
#include "web/wire_schema.hpp"

namespace ttt::server::web {
namespace {

std::string_view content_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".txt" || ext == "") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// FNV-1a, 64 bits: enough to tell one build's file from another's.
std::string etag_of(std::string_view body) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : body) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  char text[24];
  std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace

WebSite::WebSite() : schema_(wire_schema_json()) {
  for (std::size_t i = 0; i < kEmbeddedFileCount; ++i) {
    const EmbeddedFile& file = kEmbeddedFiles[i];
    const std::string_view body(reinterpret_cast<const char*>(file.data), file.size);
    assets_.emplace(file.path, WebAsset{content_type(file.path), body, etag_of(body)});
  }
  assets_.emplace("/wire.json", WebAsset{"application/json", schema_, etag_of(schema_)});
  const auto page = assets_.find("/index.html");
  if (page != assets_.end()) page_ = &page->second;
}

const WebAsset* WebSite::find(std::string_view path) const {
  if (path == "/" || is_watch_path(path)) return page_;
  const auto it = assets_.find(path);
  return it == assets_.end() ? nullptr : &it->second;
}

const std::vector<std::pair<std::string_view, std::string_view>>& WebSite::security_headers() {
  // connect-src 'self' covers the page's own WebSocket (ws: and wss: of
  // the same host); nothing else may be loaded, framed or submitted.
  static const std::vector<std::pair<std::string_view, std::string_view>> headers{
      {"Content-Security-Policy",
       "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "no-referrer"},
      {"Cross-Origin-Opener-Policy", "same-origin"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
      {"Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"},
  };
  return headers;
}

bool is_watch_path(std::string_view path) noexcept {
  constexpr std::string_view prefix = "/game/";
  if (path.substr(0, prefix.size()) != prefix) return false;
  const std::string_view id = path.substr(prefix.size());
  if (id.empty() || id.size() > 20) return false;
  for (const char c : id) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace ttt::server::web
