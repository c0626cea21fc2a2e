#include "load/lobby_probe.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <span>

#include "ttt/tls/tls_errors.hpp"

// GCC 12 takes Asio's recycling allocator for a coroutine frame's, inlined
// into the frame of a coroutine this large, for mismatched new and delete:
// a false positive (the frame is freed by the allocator that made it).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

}  // namespace

LobbyProbe::Link::Link(asio::io_context& io) : stream(tcp::socket(io)) {}

LobbyProbe::LobbyProbe(asio::io_context& io, tcp::endpoint endpoint,
                       std::shared_ptr<asio::ssl::context> tls, std::string name_prefix)
    : io_(io), endpoint_(endpoint), tls_(std::move(tls)), prefix_(std::move(name_prefix)) {}

asio::awaitable<std::unique_ptr<LobbyProbe::Link>> LobbyProbe::open() {
  auto link = std::make_unique<Link>(io_);
  auto [ec] = co_await link->stream.socket().async_connect(endpoint_, use_tuple);
  if (ec) co_return nullptr;
  link->stream.socket().set_option(tcp::no_delay(true));
  if (tls_) {
    link->stream.start_tls(tls_);
    if (co_await link->stream.handshake(asio::ssl::stream_base::client)) co_return nullptr;
  }
  co_return link;
}

wire::ClientMessage LobbyProbe::hello(const std::string& name) const {
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_client("ttt-bench --lobby");
  return m;
}

asio::awaitable<std::optional<wire::ServerMessage>> LobbyProbe::ask(Link& link,
                                                                    wire::ClientMessage message) {
  const std::uint32_t id = next_request_++;
  message.set_request_id(id);
  const std::string frame = wire::encode_frame(message);
  const asio::const_buffer out = asio::buffer(frame);
  auto [write_ec, written] =
      co_await link.stream.write(std::span<const asio::const_buffer>(&out, 1));
  if (write_ec) co_return std::nullopt;
  for (;;) {
    std::string_view body;
    while (link.reader.next(body) == wire::FrameReader::Status::kFrame) {
      wire::ServerMessage reply;
      if (!wire::parse_body(body, reply)) co_return std::nullopt;
      if (reply.has_ping()) {
        wire::ClientMessage pong;
        pong.mutable_pong()->set_nonce(reply.ping().nonce());
        const std::string pong_frame = wire::encode_frame(pong);
        const asio::const_buffer buffer = asio::buffer(pong_frame);
        co_await link.stream.write(std::span<const asio::const_buffer>(&buffer, 1));
        continue;
      }
      if (reply.in_reply_to() == id) co_return reply;
    }
    const std::span<char> space = link.reader.prepare();
    auto [ec, n] = co_await link.stream.read_some(asio::buffer(space.data(), space.size()));
    if (ec) co_return std::nullopt;
    link.reader.commit(n);
  }
}

void LobbyProbe::failed(LobbyFigures& figures, const std::string& what) const {
  if (figures.errors++ == 0) figures.first_error = what;
}

asio::awaitable<LobbyFigures> LobbyProbe::run(int rounds, std::uint32_t online,
                                              std::chrono::seconds patience) {
  LobbyFigures figures;
  auto main = co_await open();
  if (!main) {
    failed(figures, "could not connect");
    co_return figures;
  }
  auto welcome = co_await ask(*main, hello(prefix_ + "probe"));
  if (!welcome || !welcome->has_welcome()) {
    failed(figures, "no Welcome for the probe");
    co_return figures;
  }
  // Everyone online first (the probe itself among them).
  const auto give_up = steady_clock::now() + patience;
  asio::steady_timer pause(io_);
  for (;;) {
    wire::ClientMessage who;
    who.mutable_list_players()->set_page_size(1);
    const auto answer = co_await ask(*main, who);
    if (answer && answer->has_player_list() && answer->player_list().total() > online) break;
    if (!answer || steady_clock::now() >= give_up) {
      failed(figures, "the players never were all online");
      co_return figures;
    }
    pause.expires_after(std::chrono::milliseconds(200));
    co_await pause.async_wait(use_tuple);
  }
  for (int round = 0; round < rounds; ++round) {
    // Hello on a fresh connection, with a name nobody has yet.
    if (auto fresh = co_await open()) {
      const auto sent = steady_clock::now();
      auto answer = co_await ask(*fresh, hello(prefix_ + "h" + std::to_string(round)));
      if (answer && answer->has_welcome()) {
        figures.hello.record(steady_clock::now() - sent);
      } else {
        failed(figures, answer && answer->has_error() ? "Hello: " + answer->error().text()
                                                      : "Hello: no answer");
      }
      boost::system::error_code ignored;
      fresh->stream.socket().close(ignored);
    } else {
      failed(figures, "could not connect for a Hello");
    }
    wire::ClientMessage list;
    list.mutable_list_games();
    wire::ClientMessage who;
    who.mutable_list_players();
    wire::ClientMessage challenge;
    challenge.mutable_challenge()->set_name(prefix_ + "nobody" + std::to_string(round));
    const std::pair<LatencyRecorder*, const wire::ClientMessage*> asks[] = {
        {&figures.list, &list}, {&figures.who, &who}, {&figures.challenge, &challenge}};
    for (const auto& [recorder, message] : asks) {
      const auto sent = steady_clock::now();
      const auto answer = co_await ask(*main, *message);
      if (!answer) {
        failed(figures, "the probe's connection ended");
        co_return figures;
      }
      // A challenge to nobody is answered NO_RECORD: that is its answer.
      const bool expected =
          !answer->has_error() || answer->error().code() == wire::ERROR_CODE_NO_RECORD;
      if (expected) {
        recorder->record(steady_clock::now() - sent);
      } else {
        failed(figures, answer->error().text());
      }
    }
  }
  co_return figures;
}

}  // namespace ttt::bench
