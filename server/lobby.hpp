// Lobby: every connection, player and game of the server. It answers Hello,
// lists, creates and matches games, routes in-game requests to their room,
// and keeps a disconnected player's identity while their seat is held.
//
// All methods run on one executor (the "logic" strand); nothing here blocks.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>

#include "server/game_room.hpp"
#include "server/participant.hpp"
#include "server/rate_limiter.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class BotPlayer;

struct LobbyConfig {
  std::chrono::milliseconds move_timeout{60'000};     // 0 = no move clock
  std::chrono::milliseconds reconnect_grace{30'000};
  std::chrono::milliseconds bot_fallback{0};          // quick match; 0 = never
  Level fallback_level = Level::Hard;                 // the level of a fallback bot
  std::chrono::milliseconds bot_budget{200};          // thinking time per bot move
  double chat_per_second = 1.0;                       // chat rate limit per player...
  double chat_burst = 5.0;                            // ...and the burst it allows
  std::string server_version = "0.1.0";
};

// Counts for tests, logs and the load tool.
struct LobbyStats {
  std::size_t connections = 0;  // open connections, with or without Hello
  std::size_t players = 0;      // player identities, including away ones and bots
  std::size_t rooms = 0;
  std::size_t queued = 0;       // players waiting in quick match
  std::size_t bots = 0;
  std::uint64_t games_finished = 0;
};

class Lobby : public RoomObserver {
 public:
  // logic: where every lobby and room call runs. compute: where bots search.
  Lobby(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
        LobbyConfig config);
  ~Lobby() override;

  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // A new connection, before its Hello.
  void connected(const std::shared_ptr<Participant>& conn);

  // A message from a connection (Hello first; the session enforces that).
  void receive(const std::shared_ptr<Participant>& conn, const wire::ClientMessage& message);

  // The connection is gone. Its player's seat in a game in progress is held
  // for the reconnect grace period; everything else it had is released.
  void disconnected(Participant* conn);

  // Server shutdown: games end without result, everyone gets Goodbye.
  void shutdown(const std::string& reason);

  LobbyStats stats() const;

  // RoomObserver
  void left_room(GameId room, PlayerId player) override;
  void room_closed(GameId room) override;
  void game_ended(GameId room, const GameResult& result) override;

 private:
  struct PlayerRecord {
    PlayerId id = 0;
    std::string name;
    std::string token;
    bool is_bot = false;
    std::weak_ptr<Participant> conn;  // expired while away
    GameId room = 0;                  // the room it sits in or watches
    int queued_size = 0;              // quick-match board size, 0 = not queued
    RateLimiter chat_limiter{1.0, 5.0};
  };
  struct Connection {
    std::weak_ptr<Participant> conn;
    PlayerId player = 0;  // 0 until Hello
  };

  void hello(const std::shared_ptr<Participant>& conn, Connection& record,
             const wire::Hello& hello, std::uint32_t request_id);
  void dispatch(PlayerRecord& player, const wire::ClientMessage& message);
  void list_games(PlayerRecord& player, std::uint32_t request_id);
  void send_stats(PlayerRecord& player, std::uint32_t request_id);
  void create_game(PlayerRecord& player, const wire::CreateGame& create, std::uint32_t request_id);
  void join_game(PlayerRecord& player, const wire::JoinGame& join, std::uint32_t request_id);
  void quick_match(PlayerRecord& player, const wire::QuickMatch& quick, std::uint32_t request_id);
  void spectate(PlayerRecord& player, const wire::Spectate& spectate, std::uint32_t request_id);
  void leave(PlayerRecord& player, std::uint32_t request_id);
  void in_room(PlayerRecord& player, const wire::ClientMessage& message);
  void chat(PlayerRecord& player, const wire::Chat& chat, std::uint32_t request_id);

  // Checks a player can enter a room; replies an Error and returns false if not.
  bool can_enter(PlayerRecord& player, std::uint32_t request_id);
  bool valid_size(PlayerRecord& player, int size, std::uint32_t request_id);
  std::shared_ptr<GameRoom> new_room(RoomSettings settings);
  std::shared_ptr<GameRoom> room_of(const PlayerRecord& player) const;
  PlayerRef ref(const PlayerRecord& player) const;
  void add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side);
  void unqueue(PlayerRecord& player);
  void on_fallback_timer(PlayerId player, int size);
  void forget(PlayerId player);

  void reply(const PlayerRecord& player, wire::ServerMessage message);
  void error(const PlayerRecord& player, wire::ErrorCode code, std::string text,
             std::uint32_t request_id);
  std::string random_token(std::size_t hex_digits);
  std::string random_invite_code();

  boost::asio::any_io_executor logic_;
  boost::asio::any_io_executor compute_;
  LobbyConfig config_;
  std::mt19937_64 rng_;

  std::unordered_map<Participant*, Connection> connections_;
  std::unordered_map<PlayerId, PlayerRecord> players_;
  std::unordered_map<std::string, PlayerId> tokens_;
  std::map<GameId, std::shared_ptr<GameRoom>> rooms_;
  std::unordered_map<std::string, GameId> invites_;
  std::map<int, std::deque<PlayerId>> queues_;
  std::unordered_map<PlayerId, std::unique_ptr<boost::asio::steady_timer>> fallback_timers_;
  std::unordered_map<PlayerId, std::shared_ptr<BotPlayer>> bots_;
  PlayerId next_player_id_ = 1;
  GameId next_game_id_ = 1;
  std::uint64_t games_finished_ = 0;
  bool shutting_down_ = false;
};

}  // namespace ttt::server
