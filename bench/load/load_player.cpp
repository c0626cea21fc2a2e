#include "load/load_player.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <google/protobuf/arena.h>

#include <cstddef>
#include <tuple>

#include "ttt/tls/tls_errors.hpp"

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

bool is_over(const wire::GameState& s) {
  return s.status() == wire::GAME_STATUS_X_WON || s.status() == wire::GAME_STATUS_O_WON ||
         s.status() == wire::GAME_STATUS_DRAW;
}

}  // namespace

LoadPlayer::LoadPlayer(asio::io_context& io, PlayerOptions options, LoadCounters& counters,
                       std::string name)
    : io_(io),
      options_(options),
      counters_(counters),
      name_(std::move(name)),
      rng_(options.seed),
      stream_(tcp::socket(io)),
      reader_(1 << 20),
      relay_game_(options.size) {}

void LoadPlayer::stop() {
  stopping_ = true;
  if (web_wake_ != nullptr) web_wake_->cancel();
  if (pace_) pace_->cancel();
  boost::system::error_code ignored;
  socket().close(ignored);
}

asio::awaitable<bool> LoadPlayer::connect() {
  ws_.reset();
  web_out_.clear();
  stream_ = tls::Stream(tcp::socket(io_));
  unsent_.clear();
  reader_ = wire::FrameReader(1 << 20);
  if (!options_.source.is_unspecified()) {
    boost::system::error_code bind_ec;
    socket().open(options_.endpoint.protocol(), bind_ec);
    if (!bind_ec) socket().bind(tcp::endpoint(options_.source, 0), bind_ec);
    if (bind_ec) {
      counters_.error("bind: " + bind_ec.message());
      co_return false;
    }
  }
  auto [ec] = co_await socket().async_connect(options_.endpoint, use_tuple);
  if (ec) {
    counters_.error("connect: " + ec.message());
    co_return false;
  }
  socket().set_option(tcp::no_delay(true));
  socket().non_blocking(true);  // sends and reads never wait: see send() and read_loop()
  if (options_.tls) {
    stream_.start_tls(options_.tls);
    if (const auto failed = co_await stream_.handshake(asio::ssl::stream_base::client)) {
      counters_.error("TLS handshake: " + tls::describe(failed));
      co_return false;
    }
  }
  if (options_.web) {
    // No Origin: a program, not a browser's page.
    ws_ = std::make_unique<boost::beast::websocket::stream<tls::AsyncStream>>(
        tls::AsyncStream(std::move(stream_)));
    ws_->binary(true);
    auto [hec] = co_await ws_->async_handshake(
        options_.endpoint.address().to_string() + ":" + std::to_string(options_.endpoint.port()),
        "/ws", use_tuple);
    if (hec) {
      counters_.error("WebSocket handshake: " + hec.message());
      co_return false;
    }
    asio::co_spawn(io_, web_write_loop(), asio::detached);
  }
  co_return true;
}

asio::awaitable<void> LoadPlayer::run() {
  auto self = shared_from_this();
  if (!co_await connect()) co_return;
  ++counters_.connected;
  if (options_.target == Target::Server) {
    wire::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_name(name_);
    hello.mutable_hello()->set_client("ttt-bench");
    if (options_.secret) hello.mutable_hello()->set_secret(*options_.secret);
    send(hello);
    if (!options_.idle) {
      wire::ClientMessage quick;
      quick.mutable_quick_match()->set_size(options_.size);
      send(quick);
    }
    co_await finish_sends();
  }
  co_await read_loop();
  if (!dropped_ || stopping_) co_return;
  // Churn: vanish mid-game, come back a little later with the token.
  asio::steady_timer pause(io_, std::chrono::milliseconds(5 + rng_() % 50));
  co_await pause.async_wait(use_tuple);
  if (stopping_ || !co_await connect()) co_return;
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token_);
  send(hello);
  co_await finish_sends();
  co_await read_loop();
}

asio::awaitable<void> LoadPlayer::web_write_loop() {
  auto self = shared_from_this();
  auto* ws = ws_.get();
  asio::steady_timer wake(io_);
  while (ws_.get() == ws && !stopping_) {
    if (web_out_.empty()) {
      // send() posts a wake-up through the timer's cancel.
      web_writing_ = false;
      wake.expires_at(std::chrono::steady_clock::time_point::max());
      web_wake_ = &wake;
      co_await wake.async_wait(use_tuple);
      web_wake_ = nullptr;
      continue;
    }
    web_writing_ = true;
    std::string message = std::move(web_out_.front());
    web_out_.pop_front();
    auto [ec, n] = co_await ws->async_write(asio::buffer(message), use_tuple);
    if (ec) {
      if (!stopping_ && !dropped_) counters_.error("write: " + ec.message());
      break;
    }
  }
  web_writing_ = false;
}

asio::awaitable<void> LoadPlayer::web_read_loop() {
  auto* ws = ws_.get();
  alignas(std::max_align_t) char block[4096];
  while (!stopping_ && ws_.get() == ws) {
    auto [ec, n] = co_await ws->async_read(web_in_, use_tuple);
    if (ec) {
      if (!stopping_ && !dropped_) counters_.error("read: " + ec.message());
      co_return;
    }
    google::protobuf::Arena arena(block, sizeof block);
    auto* message = google::protobuf::Arena::CreateMessage<wire::ServerMessage>(&arena);
    const auto data = web_in_.data();
    if (!message->ParseFromArray(data.data(), static_cast<int>(data.size()))) {
      counters_.error("unparsable message");
      co_return;
    }
    web_in_.consume(web_in_.size());
    on_server_message(*message);
    if (!socket().is_open()) co_return;
  }
}

void LoadPlayer::send(const wire::ClientMessage& message) {
  if (ws_) {
    web_out_.push_back(message.SerializeAsString());
    if (web_wake_ != nullptr) web_wake_->cancel();
    return;
  }
  // Written at once when the socket takes it (a move's frame nearly always
  // does); the rest waits for finish_sends(), behind which later frames queue.
  out_.clear();
  wire::append_frame(message, out_);
  if (!unsent_.empty()) {
    unsent_ += out_;
    return;
  }
  boost::system::error_code ec;
  const asio::const_buffer buffer = asio::buffer(out_);
  const std::size_t n = stream_.write_now(std::span<const asio::const_buffer>(&buffer, 1), ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    ec.clear();
  } else if (ec) {
    if (!stopping_ && !dropped_) counters_.error("write: " + ec.message());
    return;
  }
  unsent_.append(out_, n, std::string::npos);
}

asio::awaitable<void> LoadPlayer::finish_sends() {
  if (ws_) co_return;  // the WebSocket's writer sends in order
  boost::system::error_code ec;
  if (!unsent_.empty()) {
    std::tie(ec, std::ignore) =
        co_await asio::async_write(socket(), asio::buffer(unsent_), use_tuple);
    unsent_.clear();
  }
  if (!ec && stream_.pending_output() > 0) ec = co_await stream_.flush();
  if (ec && !stopping_ && !dropped_) counters_.error("write: " + ec.message());
}

asio::awaitable<void> LoadPlayer::read_loop() {
  if (ws_) {
    co_await web_read_loop();
    co_return;
  }
  // As the server reads: wait until readable, then read what is there
  // (over TLS, what OpenSSL received already is read without a wait).
  while (!stopping_ && socket().is_open()) {
    if (!stream_.holds_input()) {
      auto [wait_ec] = co_await socket().async_wait(tcp::socket::wait_read, use_tuple);
      if (wait_ec) {
        if (!stopping_ && !dropped_) counters_.error("read: " + wait_ec.message());
        co_return;
      }
    }
    for (;;) {
      auto space = reader_.prepare();
      boost::system::error_code ec;
      const std::size_t n = stream_.read_now(asio::buffer(space.data(), space.size()), ec);
      if (ec == asio::error::would_block) break;
      if (ec) {
        if (!stopping_ && !dropped_) counters_.error("read: " + tls::describe(ec));
        co_return;
      }
      reader_.commit(n);
      const bool more = handle_frames();
      if (!unsent_.empty() || stream_.pending_output() > 0) co_await finish_sends();
      if (!more) co_return;
      if (n < space.size() && !stream_.holds_input()) break;
    }
  }
}

bool LoadPlayer::handle_frames() {
  // The frames of one read parse into one arena, on the stack while they fit.
  alignas(std::max_align_t) char block[4096];
  google::protobuf::Arena arena(block, sizeof block);
  std::string_view body;
  for (;;) {
    const auto status = reader_.next(body);
    if (status == wire::FrameReader::Status::kNeedMore) return true;
    if (status == wire::FrameReader::Status::kTooLarge) {
      counters_.error("oversized frame");
      return false;
    }
    if (options_.target == Target::Relay) {
      on_relayed_frame(body);
      continue;
    }
    auto* message = google::protobuf::Arena::CreateMessage<wire::ServerMessage>(&arena);
    if (!wire::parse_body(body, *message)) {
      counters_.error("unparsable frame");
      return false;
    }
    on_server_message(*message);
    if (!socket().is_open()) return false;
  }
}

void LoadPlayer::on_server_message(const wire::ServerMessage& m) {
  switch (m.body_case()) {
    case wire::ServerMessage::kWelcome:
      player_id_ = m.welcome().player_id();
      token_ = m.welcome().resume_token();
      if (options_.secret && !m.welcome().secret().empty()) *options_.secret = m.welcome().secret();
      break;
    case wire::ServerMessage::kJoined:
      on_state(m.joined().state());
      break;
    case wire::ServerMessage::kState:
      on_state(m.state());
      break;
    case wire::ServerMessage::kPing: {
      wire::ClientMessage pong;
      pong.mutable_pong()->set_nonce(m.ping().nonce());
      send(pong);
      break;
    }
    case wire::ServerMessage::kError:
      counters_.error("server: " + wire::ErrorCode_Name(m.error().code()) + " " + m.error().text());
      break;
    case wire::ServerMessage::kGoodbye:
      stop();
      break;
    default:
      break;
  }
}

void LoadPlayer::on_state(const wire::GameState& s) {
  const wire::Side side = s.x().player_id() == player_id_   ? wire::SIDE_X
                          : s.o().player_id() == player_id_ ? wire::SIDE_O
                                                            : wire::SIDE_NONE;
  if (side == wire::SIDE_NONE || s.status() == wire::GAME_STATUS_WAITING) return;
  game_id_ = s.game_id();
  if (!started_) {
    started_ = true;
    ++counters_.started;
  }
  if (pending_count_ && (s.move_count() > *pending_count_ || s.round() != rematch_round_ + 1)) {
    if (counters_.measuring && s.move_count() > *pending_count_) {
      counters_.latency.record(std::chrono::steady_clock::now() - sent_at_);
      ++counters_.moves;
    }
    pending_count_.reset();
  }
  if (s.status() == wire::GAME_STATUS_IN_PROGRESS) {
    if (s.to_move() == side && !pending_count_) {
      if (options_.drop_after_moves > 0 && !dropped_ && own_moves_ >= options_.drop_after_moves) {
        dropped_ = true;  // vanish without a word
        boost::system::error_code ignored;
        socket().close(ignored);
        return;
      }
      pending_count_ = s.move_count();
      play_random_move(s.cells(), s.size());
    }
    return;
  }
  if (!is_over(s) || s.round() == rematch_round_) return;
  rematch_round_ = s.round();
  if (side == wire::SIDE_X && counters_.measuring) ++counters_.games;
  wire::ClientMessage next;
  if (options_.drop_after_moves > 0) {
    next.mutable_leave();  // churn: one game per cycle
    send(next);
    stop();
    return;
  }
  next.mutable_rematch();
  send(next);
}

void LoadPlayer::play_random_move(const std::string& cells, int size) {
  if (options_.move_delay.count() > 0) {
    if (!pace_) pace_ = std::make_unique<asio::steady_timer>(io_);
    pace_->expires_after(options_.move_delay);
    pace_->async_wait([self = shared_from_this(), cells, size](boost::system::error_code ec) {
      if (ec || self->stopping_) return;
      self->send_random_move(cells, size);
    });
    return;
  }
  send_random_move(cells, size);
}

void LoadPlayer::send_random_move(const std::string& cells, int size) {
  int empty = 0;
  for (char c : cells) empty += c == 'E';
  if (empty == 0) return;
  int pick = static_cast<int>(rng_() % static_cast<std::uint64_t>(empty));
  int index = 0;
  for (; index < static_cast<int>(cells.size()); ++index) {
    if (cells[index] == 'E' && pick-- == 0) break;
  }
  wire::ClientMessage move;
  move.mutable_make_move()->set_game_id(game_id_);
  move.mutable_make_move()->set_row(index / size);
  move.mutable_make_move()->set_col(index % size);
  sent_at_ = std::chrono::steady_clock::now();
  ++own_moves_;
  send(move);
}

void LoadPlayer::on_relayed_frame(std::string_view body) {
  if (!started_) {
    started_ = true;
    ++counters_.started;
    relay_side_ = body.empty() ? Player::X : Player::O;
    relay_first_ = relay_side_ == Player::X;
  } else {
    wire::ClientMessage message;
    if (!wire::parse_body(body, message) || (!message.has_make_move() && !message.has_rematch())) {
      counters_.error("relay: neither a move nor a rematch");
      return;
    }
    if (message.has_rematch()) {
      // The same messages a game ends with at a server: each player asks
      // for a rematch, and the next game (sides swapped) starts once both
      // have.
      if (!relay_game_.over()) {
        counters_.error("relay: a rematch during a game");
        return;
      }
      if (++relay_rematches_ < 2) return;
      relay_rematches_ = 0;
      relay_game_ = Game(options_.size);
      relay_side_ = opponent(relay_side_);
    } else {
      const Player mover = relay_game_.to_move();
      if (relay_game_.over() ||
          relay_game_.play(mover, message.make_move().row(), message.make_move().col())) {
        counters_.error("relay: illegal move");
        return;
      }
      if (mover == relay_side_ && pending_count_) {
        if (counters_.measuring) {
          counters_.latency.record(std::chrono::steady_clock::now() - sent_at_);
          ++counters_.moves;
        }
        pending_count_.reset();
      }
      if (relay_game_.over()) {
        if (relay_first_ && counters_.measuring) ++counters_.games;
        wire::ClientMessage next;
        next.mutable_rematch();
        send(next);
        return;
      }
    }
  }
  if (relay_game_.to_move() == relay_side_ && !pending_count_) {
    pending_count_ = static_cast<std::uint32_t>(relay_game_.moves().size());
    play_random_move(relay_game_.board().to_string(), options_.size);
  }
}

}  // namespace ttt::bench
