// The name a client expects on its peer's certificate: the clients' links
// to a lobby and a node's link to Redis (rediss://) check it alike.
#pragma once

#include <openssl/ssl.h>

#include <string>

namespace ttt::tls {

// Before the handshake: the peer's certificate must name host (an IP
// address or a DNS name); a DNS name is also sent as SNI.
void expect_host(SSL* ssl, const std::string& host);

}  // namespace ttt::tls
