#include "load/relay.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "ttt/wire/frame.hpp"

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// One relayed connection: a reader that forwards frames and a writer that
// drains its queue, one write in flight, like the real server's sessions.
class RelayConnection : public std::enable_shared_from_this<RelayConnection> {
 public:
  explicit RelayConnection(tcp::socket socket)
      : socket_(std::move(socket)), wake_(socket_.get_executor()) {
    socket_.set_option(tcp::no_delay(true));
  }

  void pair_with(const std::shared_ptr<RelayConnection>& partner) { partner_ = partner; }

  void start() {
    asio::co_spawn(socket_.get_executor(), read_loop(shared_from_this()), asio::detached);
    asio::co_spawn(socket_.get_executor(), write_loop(shared_from_this()), asio::detached);
  }

  void send(std::shared_ptr<const std::string> frame) {
    queue_.push_back(std::move(frame));
    wake_.cancel_one();
  }

 private:
  // Reads the way the server's sessions do: wait until readable, then read
  // what is there.
  static asio::awaitable<void> read_loop(std::shared_ptr<RelayConnection> self) {
    wire::FrameReader reader(1 << 20);
    self->socket_.non_blocking(true);
    bool open = true;
    while (open) {
      auto [wait_ec] = co_await self->socket_.async_wait(tcp::socket::wait_read, use_tuple);
      if (wait_ec) break;
      for (;;) {
        auto space = reader.prepare();
        boost::system::error_code ec;
        const std::size_t n = self->socket_.read_some(asio::buffer(space.data(), space.size()), ec);
        if (ec == asio::error::would_block) break;
        if (ec) {
          open = false;
          break;
        }
        reader.commit(n);
        self->relay_frames(reader);
        if (n < space.size()) break;
      }
    }
    self->closed_ = true;
    self->wake_.cancel();
  }

  // Sends every complete frame to both connections of the pair.
  void relay_frames(wire::FrameReader& reader) {
    std::string_view body;
    while (reader.next(body) == wire::FrameReader::Status::kFrame) {
      // A frame of the same size: the same bytes, header included.
      auto frame = std::make_shared<std::string>(wire::kFrameHeaderSize + body.size(), '\0');
      std::memcpy(frame->data(), body.data() - wire::kFrameHeaderSize, frame->size());
      send(frame);
      if (auto partner = partner_.lock()) partner->send(frame);
    }
  }

  static asio::awaitable<void> write_loop(std::shared_ptr<RelayConnection> self) {
    std::vector<std::shared_ptr<const std::string>> batch;
    std::vector<asio::const_buffer> buffers;
    while (!self->closed_) {
      if (self->queue_.empty()) {
        self->wake_.expires_at(std::chrono::steady_clock::time_point::max());
        co_await self->wake_.async_wait(use_tuple);
        continue;
      }
      batch.assign(self->queue_.begin(), self->queue_.end());
      self->queue_.clear();
      buffers.clear();
      for (const auto& f : batch) buffers.push_back(asio::buffer(*f));
      auto [ec, n] = co_await asio::async_write(self->socket_, buffers, use_tuple);
      if (ec) break;
    }
  }

  tcp::socket socket_;
  asio::steady_timer wake_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::weak_ptr<RelayConnection> partner_;
  bool closed_ = false;
};

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor) {
  std::shared_ptr<RelayConnection> waiting;
  // Start frames: empty for the first of a pair (X), one byte for the second.
  const auto start_first = std::make_shared<const std::string>(wire::kFrameHeaderSize, '\0');
  const auto start_second = std::make_shared<const std::string>(std::string("\0\0\0\1\1", 5));
  for (;;) {
    auto [ec, socket] = co_await acceptor.async_accept(use_tuple);
    if (ec) co_return;
    auto conn = std::make_shared<RelayConnection>(std::move(socket));
    conn->start();
    if (!waiting) {
      waiting = conn;
      continue;
    }
    waiting->pair_with(conn);
    conn->pair_with(waiting);
    waiting->send(start_first);
    conn->send(start_second);
    waiting.reset();
  }
}

}  // namespace

Relay::Relay(asio::io_context& io)
    : io_(io), acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
}

void Relay::start() { asio::co_spawn(io_, accept_loop(acceptor_), asio::detached); }

}  // namespace ttt::bench
