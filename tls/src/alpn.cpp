#include "ttt/tls/alpn.hpp"

#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>

namespace ttt::tls {
namespace {

// ALPN's wire form: each name after its length byte.
constexpr unsigned char kTttOnly[] = {5, 't', 't', 't', '/', '1'};
constexpr unsigned char kTttAndHttp[] = {5,   't', 't', 't', '/', '1', 8,  'h',
                                         't', 't', 'p', '/', '1', '.', '1'};

int select_protocol(SSL*, const unsigned char** out, unsigned char* out_length,
                    const unsigned char* offered, unsigned int offered_length, void* http) {
  const unsigned char* ours = http != nullptr ? kTttAndHttp : kTttOnly;
  const unsigned int ours_length = http != nullptr ? sizeof kTttAndHttp : sizeof kTttOnly;
  unsigned char* chosen = nullptr;
  // The server's order decides: ttt/1 before http/1.1.
  if (SSL_select_next_proto(&chosen, out_length, ours, ours_length, offered, offered_length) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

}  // namespace

void offer_ttt_protocol(boost::asio::ssl::context& context) {
  SSL_CTX_set_alpn_protos(context.native_handle(), kTttOnly, sizeof kTttOnly);
}

void accept_protocols(boost::asio::ssl::context& context, bool http) {
  // Any non-null pointer says "http too"; the callback reads nothing from it.
  static int http_marker = 0;
  SSL_CTX_set_alpn_select_cb(context.native_handle(), select_protocol,
                             http ? &http_marker : nullptr);
}

std::string_view agreed_protocol(Stream& stream) noexcept {
  SSL* ssl = stream.native_handle();
  if (ssl == nullptr) return {};
  const unsigned char* name = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(ssl, &name, &length);
  if (name == nullptr) return {};
  return {reinterpret_cast<const char*>(name), length};
}

}  // namespace ttt::tls
