#include "ttt/tls/tls_errors.hpp"

#include "ttt/tls/stream.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>

namespace ttt::tls {
namespace {

class StreamCategory final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "ttt.tls.stream"; }
  std::string message(int value) const override {
    switch (value) {
      case error::post_handshake_flood:
        return "TLS: the peer sent more than " + std::to_string(kMaxPostHandshakeMessages) +
               " handshake messages (key updates) after the handshake";
      default:
        return "TLS stream error";
    }
  }
};

}  // namespace

const boost::system::error_category& error::stream_category() noexcept {
  static const StreamCategory category;
  return category;
}

bool peer_not_tls(const boost::system::error_code& ec) {
  if (ec.category() != boost::asio::error::get_ssl_category()) return false;
  const int reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
  return reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG ||
         reason == SSL_R_UNKNOWN_PROTOCOL || reason == SSL_R_RECORD_LENGTH_MISMATCH ||
         reason == SSL_R_HTTP_REQUEST || reason == SSL_R_HTTPS_PROXY_REQUEST;
}

bool closed_without_notify(const boost::system::error_code& ec) {
  return ec == boost::asio::ssl::error::stream_truncated;
}

std::string describe(const boost::system::error_code& ec) {
  if (closed_without_notify(ec)) return "closed by peer";
  if (ec.category() == boost::asio::error::get_ssl_category()) {
    const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
    if (reason != nullptr) return std::string("TLS: ") + reason;
  }
  return ec.message();
}

}  // namespace ttt::tls
