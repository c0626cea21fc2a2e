// ALPN: which protocol a TLS connection speaks on the server's one port.
// ttt's own programs ask for `ttt/1`; browsers ask for `http/1.1` (and h2,
// which the server does not speak). A client that names none (an older ttt
// program) is told apart by its first bytes (server/net/transport.hpp).
#pragma once

#include <string_view>

#include "ttt/tls/stream.hpp"

namespace ttt::tls {

inline constexpr std::string_view kTttProtocol = "ttt/1";
inline constexpr std::string_view kHttpProtocol = "http/1.1";

// A client context: offer ttt/1 in every handshake.
void offer_ttt_protocol(boost::asio::ssl::context& context);

// A server context: agree to ttt/1, and to http/1.1 when `http` (the web
// client is served); a client offering neither gets no ALPN answer (the
// handshake goes on).
void accept_protocols(boost::asio::ssl::context& context, bool http);

// The protocol the handshake agreed on; empty when none (or not TLS).
std::string_view agreed_protocol(Stream& stream) noexcept;

}  // namespace ttt::tls
