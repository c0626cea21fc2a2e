#include "trust/tls_client.hpp"

#include <openssl/ssl.h>

#include "ttt/tls/alpn.hpp"
#include "ttt/tls/fingerprint.hpp"
#include "ttt/tls/stream.hpp"

namespace ttt::client {

namespace asio = boost::asio;

std::shared_ptr<asio::ssl::context> client_tls_context() {
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  tls::harden(*context);
  // ALPN ttt/1: the server's port serves browsers too (docs/web.md).
  tls::offer_ttt_protocol(*context);
  boost::system::error_code ignored;
  context->set_default_verify_paths(ignored);
  context->set_verify_mode(asio::ssl::verify_none);
  return context;
}

PresentedCertificate presented_certificate(SSL* ssl) {
  PresentedCertificate presented;
  X509* certificate = SSL_get1_peer_certificate(ssl);
  presented.fingerprint = tls::fingerprint(certificate);
  X509_free(certificate);
  presented.ca_verified = SSL_get_verify_result(ssl) == X509_V_OK;
  return presented;
}

}  // namespace ttt::client
