#include "ttt/tls/peer_name.hpp"

#include <openssl/x509v3.h>

#include <boost/asio/ip/address.hpp>

namespace ttt::tls {

void expect_host(SSL* ssl, const std::string& host) {
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  if (!ec) {
    X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    return;
  }
  SSL_set_tlsext_host_name(ssl, host.c_str());
  X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
}

}  // namespace ttt::tls
