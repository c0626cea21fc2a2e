// What a failed TLS read, write or handshake means, in words for people.
#pragma once

#include <boost/system/error_code.hpp>
#include <string>
#include <type_traits>

namespace ttt::tls {

namespace error {
// What a Stream itself refuses of its peer.
enum StreamError {
  // More handshake messages after the handshake than kMaxPostHandshakeMessages.
  post_handshake_flood = 1,
};
const boost::system::error_category& stream_category() noexcept;
inline boost::system::error_code make_error_code(StreamError e) noexcept {
  return {static_cast<int>(e), stream_category()};
}
}  // namespace error

}  // namespace ttt::tls

template <>
struct boost::system::is_error_code_enum<ttt::tls::error::StreamError> : std::true_type {};

namespace ttt::tls {

// The peer answered with something that is not TLS (a plain ttt server, or
// another protocol).
bool peer_not_tls(const boost::system::error_code& ec);

// The peer closed the TCP connection without TLS's close_notify. ttt frames
// say their own length, so a cut is seen anyway: treat it as a close.
bool closed_without_notify(const boost::system::error_code& ec);

// A one-line reason: OpenSSL's own words for TLS errors (e.g. "certificate
// verify failed"), else the error's message.
std::string describe(const boost::system::error_code& ec);

}  // namespace ttt::tls
