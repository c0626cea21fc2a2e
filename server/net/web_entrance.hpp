// WebEntrance: where a connection on the game port goes once it turns out
// to be a browser's (ALPN http/1.1, or an HTTP request as its first bytes):
// the session that accepted it hands over its stream, the bytes it read
// already and its connection slot, and ends quietly (net/transport.hpp says
// how it is told apart).
#pragma once

#include <memory>
#include <string>

#include "ttt/tls/stream.hpp"

namespace ttt::server {

class WebEntrance {
 public:
  virtual ~WebEntrance() = default;
  // Runs on the stream's executor. `received`: bytes read from the
  // connection already (the start of its first request).
  virtual void enter(tls::Stream stream, std::string received, std::shared_ptr<void> slot) = 0;
};

}  // namespace ttt::server
