// WatchLinks: where a browser watches a game on this server, when the
// server serves its web client (its Welcome says so): under the server's
// --web-url (a proxy in front), or at the address the client connected to
// ("https://HOST:PORT/game/ID", http:// without TLS).
#pragma once

#include <cstdint>
#include <string>

#include "ttt.pb.h"

namespace ttt::client {

class WatchLinks {
 public:
  // The server as the user named it (the first --host entry); tls: it is
  // spoken to over TLS.
  WatchLinks(std::string host, std::uint16_t port, bool tls)
      : host_(std::move(host)), port_(port), tls_(tls) {}

  // The server's word on its web client, from each Welcome.
  void welcomed(const wire::Welcome& welcome);

  // Where a browser watches game_id; "" when the server has no web client.
  std::string game(std::uint64_t game_id) const;

  // The same with the word ID for the game's id (under a game list); "" when
  // the server has no web client.
  std::string any_game() const;

 private:
  std::string base() const;

  std::string host_;
  std::uint16_t port_;
  bool tls_;
  bool web_client_ = false;
  std::string web_url_;  // made safe to show; empty: host and port
};

}  // namespace ttt::client
