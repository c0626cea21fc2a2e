// LoadPlayer: one connection of the load tool. Against the server it says
// Hello, quick-matches, plays a random legal move the moment it sees its turn
// and asks for a rematch when a game ends; against the relay it plays the same
// game from the relayed move frames. It records the round trip of each of its
// moves: from sending it to seeing it come back.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "load/latency_recorder.hpp"
#include "ttt.pb.h"
#include "ttt/game.hpp"
#include "ttt/tls/async_stream.hpp"
#include "ttt/tls/stream.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include "ttt/wire/frame.hpp"

namespace ttt::bench {

enum class Target { Server, Relay };

// Counters shared by every player of a run (one thread).
struct LoadCounters {
  bool measuring = false;
  std::uint64_t moves = 0;
  std::uint64_t games = 0;
  std::uint64_t errors = 0;
  std::uint64_t started = 0;  // players that reached their first game
  std::uint64_t connected = 0;
  LatencyRecorder latency;
  std::map<std::string, std::uint64_t> error_kinds;  // what the errors were

  void error(const std::string& kind) {
    ++errors;
    ++error_kinds[kind];
  }
};

struct PlayerOptions {
  Target target = Target::Server;
  boost::asio::ip::tcp::endpoint endpoint;
  int size = 3;
  std::uint64_t seed = 0;
  // Churn: drop the connection after this many own moves and come back with
  // the resume token (0 = never).
  int drop_after_moves = 0;
  // Idle: say Hello, then only answer pings.
  bool idle = false;
  // Where the name's secret is kept between connections (churn reuses names).
  std::shared_ptr<std::string> secret;
  // TLS (--tls): the client context; null speaks plain TCP. The bench
  // trusts whatever certificate the server shows (it measures, on loopback).
  std::shared_ptr<boost::asio::ssl::context> tls;
  // --web: speak to the server's web side, as a browser's page does: a
  // WebSocket to /ws, one binary protobuf message per WebSocket message.
  bool web = false;
  // Each move waits this long first (0: none): an offered load the same
  // for every run, whatever the client's own speed (--web compares so).
  std::chrono::microseconds move_delay{0};
  // The local address to connect from (e.g. 127.0.2.7, so that a server's
  // limits per address see many machines); unspecified: any.
  boost::asio::ip::address source;
};

class LoadPlayer : public std::enable_shared_from_this<LoadPlayer> {
 public:
  LoadPlayer(boost::asio::io_context& io, PlayerOptions options, LoadCounters& counters,
             std::string name);

  // Plays until stop() or until the churn cycle ends (drop, resume, finish).
  boost::asio::awaitable<void> run();
  void stop();

 private:
  boost::asio::awaitable<bool> connect();
  // Sends a message, as far as the socket takes it now; finish_sends() waits
  // for the rest.
  void send(const wire::ClientMessage& message);
  boost::asio::awaitable<void> finish_sends();
  boost::asio::awaitable<void> read_loop();
  // Handles the complete frames read so far; false when the connection ends.
  bool handle_frames();
  void on_server_message(const wire::ServerMessage& message);
  void on_state(const wire::GameState& state);
  void on_relayed_frame(std::string_view body);
  void play_random_move(const std::string& cells, int size);
  void send_random_move(const std::string& cells, int size);

  boost::asio::io_context& io_;
  PlayerOptions options_;
  LoadCounters& counters_;
  std::string name_;
  std::mt19937_64 rng_;
  tls::Stream stream_;
  // --web: the WebSocket (it owns the stream once connected), the messages
  // waiting for its one write in flight, and the writer's wake-up.
  std::unique_ptr<boost::beast::websocket::stream<tls::AsyncStream>> ws_;
  std::deque<std::string> web_out_;
  bool web_writing_ = false;
  boost::asio::steady_timer* web_wake_ = nullptr;    // the writer's, while it waits
  std::unique_ptr<boost::asio::steady_timer> pace_;  // move_delay's
  boost::beast::flat_buffer web_in_;
  boost::asio::ip::tcp::socket& socket() noexcept {
    return ws_ ? ws_->next_layer().socket() : stream_.socket();
  }
  boost::asio::awaitable<void> web_write_loop();
  boost::asio::awaitable<void> web_read_loop();
  wire::FrameReader reader_;
  std::string out_;
  std::string unsent_;  // plain TCP: bytes of frames the socket hasn't taken yet

  std::uint64_t player_id_ = 0;
  std::uint64_t game_id_ = 1;  // the relay has no ids: a small one, as a server's would be
  std::string token_;
  bool started_ = false;
  bool stopping_ = false;
  bool dropped_ = false;
  int own_moves_ = 0;
  std::uint32_t rematch_round_ = 0;
  // The move in flight: the count it must raise and when it was sent.
  std::optional<std::uint32_t> pending_count_;
  std::chrono::steady_clock::time_point sent_at_;
  // Relay mode: the local game and our side in it.
  Game relay_game_{3};
  Player relay_side_ = Player::X;
  bool relay_first_ = false;
  // Rematch frames seen since the relayed game ended (its own echoed and the
  // opponent's): the next game starts at two, as a server's does.
  int relay_rematches_ = 0;
};

}  // namespace ttt::bench
