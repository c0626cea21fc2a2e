// The clients' side of a TLS handshake: the context every link uses (TLS 1.2
// at least, the system's CAs loaded, the handshake never failing on the
// certificate itself: server_trust judges it), the host name the
// certificate must carry (and SNI), and what the server presented.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>

#include "trust/server_trust.hpp"

using SSL = struct ssl_st;

namespace ttt::client {

std::shared_ptr<boost::asio::ssl::context> client_tls_context();

// After the handshake: the server certificate's fingerprint, and whether
// the system's CAs vouch for it under the host name.
PresentedCertificate presented_certificate(SSL* ssl);

}  // namespace ttt::client
