// http_get: one HTTP/1.1 request to 127.0.0.1:port over a plain socket, for
// the tests of the metrics port. Bounded: a reply must come within 5 s.
#pragma once

#include <cstdint>
#include <string>

namespace ttt::testing {

struct HttpReply {
  int status = 0;       // 0: no reply
  std::string headers;  // the status line and headers
  std::string body;
};

HttpReply http_get(std::uint16_t port, const std::string& path, const std::string& method = "GET");

}  // namespace ttt::testing
