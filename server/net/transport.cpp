#include "net/transport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace ttt::server {

namespace asio = boost::asio;

asio::awaitable<TransportOpening> open_tls_server_side(tls::Stream& stream,
                                                       std::shared_ptr<asio::ssl::context> context,
                                                       std::function<bool()> may_start) {
  auto& socket = stream.socket();
  auto [wait_ec] = co_await socket.async_wait(asio::ip::tcp::socket::wait_read,
                                              asio::as_tuple(asio::use_awaitable));
  if (wait_ec) co_return TransportOpening{TransportOpening::Kind::kFailed, wait_ec};
  unsigned char first = 0;
  boost::system::error_code ec;
  const std::size_t n =
      socket.receive(asio::buffer(&first, 1), asio::socket_base::message_peek, ec);
  if (!ec && n == 0) ec = asio::error::eof;
  if (ec) co_return TransportOpening{TransportOpening::Kind::kFailed, ec};
  if (first != tls::kHandshakeRecord)
    co_return TransportOpening{TransportOpening::Kind::kPlain, {}};
  if (may_start && !may_start()) {
    co_return TransportOpening{TransportOpening::Kind::kFailed, asio::error::no_buffer_space};
  }
  stream.start_tls(std::move(context));
  ec = co_await stream.handshake(asio::ssl::stream_base::server);
  if (ec) co_return TransportOpening{TransportOpening::Kind::kFailed, ec};
  co_return TransportOpening{TransportOpening::Kind::kTls, {}};
}

bool opens_tls_handshake(std::string_view first_bytes) noexcept {
  return !first_bytes.empty() &&
         static_cast<unsigned char>(first_bytes[0]) == tls::kHandshakeRecord;
}

bool looks_like_http(std::string_view first_bytes) noexcept {
  return !first_bytes.empty() && first_bytes[0] >= 'A' && first_bytes[0] <= 'Z';
}

}  // namespace ttt::server
