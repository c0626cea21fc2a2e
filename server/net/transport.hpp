// How a new connection to a TLS server begins: the peer's first byte says
// whether it opens a TLS handshake (then made here) or speaks plain TCP (a
// client run with --no-tls, which the caller tells, in plain framing, that
// TLS is required). Sessions and the listener's "server full" refusal both
// start this way, on the one port.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/system/error_code.hpp>
#include <functional>
#include <memory>
#include <string_view>

#include "ttt/tls/stream.hpp"

namespace ttt::server {

struct TransportOpening {
  enum class Kind { kTls, kPlain, kFailed };
  Kind kind = Kind::kFailed;
  boost::system::error_code error;  // kFailed: why (the socket, or the handshake)
};

// Waits for the first byte (without taking it), then makes the TLS
// handshake if it opens one, once may_start (if given) agrees: false from
// it ends the opening, failed, before any TLS. Not bounded in time: the
// caller's deadline closes the socket.
boost::asio::awaitable<TransportOpening> open_tls_server_side(
    tls::Stream& stream, std::shared_ptr<boost::asio::ssl::context> context,
    std::function<bool()> may_start = {});

// On a plain server: whether the first bytes a peer sent open a TLS
// handshake (a client that wants TLS, told in plain framing that there is
// none).
bool opens_tls_handshake(std::string_view first_bytes) noexcept;

// Whether the first bytes a peer sent (plain, or inside TLS) start an HTTP
// request: a method's capital letter. A ttt frame starts with the top byte
// of its length (0x00 or 0x01), a TLS record with 0x16.
bool looks_like_http(std::string_view first_bytes) noexcept;

}  // namespace ttt::server
