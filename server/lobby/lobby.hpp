// Lobby: connections <-> players. It answers Hello (a name is owned through
// its secret; a resume token takes a held seat back), dispatches each
// player's requests (lists, creating, joining and matching games, in-game
// requests to the player's room), keeps a disconnected player's identity
// while their seat is held, and seats the server's bots.
//
// Its parts talk to it through interfaces: accounts and ratings
// (AccountStore), the game list (GameDirectory), quick-match queues
// (Matchmaker) and the journal rooms write to (GameJournal). Everything runs
// on the logic executor (docs/architecture.md); nothing here blocks.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "game/game_room.hpp"
#include "ids.hpp"
#include "lobby/account_store.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/resume_tokens.hpp"
#include "net/inbox.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot;

struct LobbyConfig {
  std::chrono::milliseconds move_timeout{60'000};     // 0 = no move clock
  std::chrono::milliseconds reconnect_grace{30'000};
  std::chrono::milliseconds bot_fallback{0};          // quick match; 0 = never
  Level fallback_level = Level::Hard;                 // the level of a fallback bot
  std::chrono::milliseconds bot_budget{200};          // thinking time per bot move
  double chat_per_second = 1.0;                       // chat rate limit per player...
  double chat_burst = 5.0;                            // ...and the burst it allows
  std::string server_version = "0.1.0";
  // Test seam: runs before each message is handled; an exception it throws
  // is handled as any failure of a handler is (the connection ends).
  std::function<void(const wire::ClientMessage&)> before_message;
};

// Counts for tests, logs and the load tool.
struct LobbyStats {
  std::size_t connections = 0;  // open connections, with or without Hello
  std::size_t players = 0;      // player identities online or away, bots included
  std::size_t rooms = 0;
  std::size_t queued = 0;       // players waiting in quick match
  std::size_t bots = 0;
  std::uint64_t games_finished = 0;
  std::size_t accounts = 0;     // names known (registered players and bot levels)
};

// What the database held at startup, beyond the accounts.
struct StoredState {
  std::vector<GameRecord> unfinished_games;  // with moves
  std::vector<std::pair<std::int64_t, std::string>> tokens;  // account -> token hash
  std::int64_t max_room_id = 0;
};

// Where the lobby runs and what it talks to; all outlive it.
struct LobbyLinks {
  boost::asio::any_io_executor logic;    // every lobby and room call
  boost::asio::any_io_executor compute;  // the bots' searches
  AccountStore& accounts;
  GameJournal& journal;
  GameDirectory& directory;
  Matchmaker& matchmaker;
};

class Lobby final : public Gate, public RoomOwner {
 public:
  Lobby(LobbyLinks links, LobbyConfig config);
  ~Lobby() override;

  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // Before serving: the games in progress and tokens of a previous run. Its
  // games come back with their players away until they reconnect.
  void restore(const StoredState& state);

  // Gate: a new connection, before its Hello.
  std::shared_ptr<Inbox> open(const std::shared_ptr<Participant>& conn) override;

  // Server shutdown: everyone gets Goodbye. Without a journal that keeps
  // games they end without result; with one they stay in progress, to
  // resume after a restart.
  void shutdown(const std::string& reason);

  LobbyStats stats() const;

  // RoomOwner
  void left_room(GameRoom& room, SeatId who) override;
  void room_changed(GameRoom& room) override;
  void game_recorded(GameRoom& room) override;
  void room_closed(GameRoom& room) override;

 private:
  class Connection;
  friend class Connection;

  // --- connections and identity (lobby.cpp)
  void receive(Connection& connection, const wire::ClientMessage& message);
  void closed(Connection& connection);
  // Handling a message threw: the connection ends as if it had dropped.
  void fault(Connection& connection, const char* what);
  void hello(Connection& connection, const wire::Hello& hello, std::uint32_t request_id);
  // Attaches the connection, which said Hello, to a player who is online
  // elsewhere or away, with a new token.
  void take_back(Connection& connection, LobbyPlayer& player, const wire::Hello& hello,
                 std::uint32_t request_id);
  // A player of the account, not online, enters the lobby on the connection.
  void enter(Connection& connection, const StoredPlayer& account, const wire::Hello& hello,
             std::uint32_t request_id, bool resumed, const std::string& secret);
  void welcome(LobbyPlayer& player, std::uint32_t request_id, bool resumed,
               const std::string& secret);
  const StoredPlayer& register_account(const std::string& name, std::string& secret);
  void forget(SeatId player);
  void dispatch(LobbyPlayer& player, const wire::ClientMessage& message);
  void send_stats(LobbyPlayer& player, std::uint32_t request_id);

  // --- games (lobby_games.cpp)
  void list_games(LobbyPlayer& player, std::uint32_t request_id);
  void create_game(LobbyPlayer& player, const wire::CreateGame& create, std::uint32_t request_id);
  void join_game(LobbyPlayer& player, const wire::JoinGame& join, std::uint32_t request_id);
  void quick_match(LobbyPlayer& player, const wire::QuickMatch& quick, std::uint32_t request_id);
  void spectate(LobbyPlayer& player, const wire::Spectate& spectate, std::uint32_t request_id);
  void leave(LobbyPlayer& player, std::uint32_t request_id);
  void in_room(LobbyPlayer& player, const wire::ClientMessage& message);
  void chat(LobbyPlayer& player, const wire::Chat& chat, std::uint32_t request_id);
  // Checks a player can enter a room; replies an Error and returns false if not.
  bool can_enter(LobbyPlayer& player, std::uint32_t request_id);
  bool valid_size(LobbyPlayer& player, int size, std::uint32_t request_id);
  // Whether a player's side of a game lets it be rated: a human's does unless
  // it says no, a program's only when it asks.
  static bool allows_rating(const LobbyPlayer& player, wire::Rated asked);
  std::shared_ptr<GameRoom> new_room(RoomSettings settings, GameId id = 0);
  std::shared_ptr<GameRoom> find_room(GameId id) const;
  void unqueue(LobbyPlayer& player);
  void on_fallback_timer(SeatId player, int size);
  LobbyPlayer& add_bot_player(Level level, const std::shared_ptr<GameRoom>& room);
  void add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side);
  const StoredPlayer& bot_account(Level level);
  std::string random_invite_code();

  // --- records (lobby_records.cpp)
  bool has_records(LobbyPlayer& player, std::uint32_t request_id);
  void leaderboard(LobbyPlayer& player, const wire::GetLeaderboard& request,
                   std::uint32_t request_id);
  void history(LobbyPlayer& player, const wire::GetHistory& request, std::uint32_t request_id);
  void replay(LobbyPlayer& player, const wire::GetReplay& request, std::uint32_t request_id);

  // --- replies
  void reply(const LobbyPlayer& player, wire::ServerMessage message);
  void error(const LobbyPlayer& player, wire::ErrorCode code, std::string text,
             std::uint32_t request_id);
  // The player, if still known (for answers that arrive later).
  LobbyPlayer* player_of(SeatId id);

  LobbyLinks links_;
  LobbyConfig config_;
  ResumeTokens tokens_;

  std::unordered_set<Connection*> connections_;
  std::unordered_map<SeatId, std::unique_ptr<LobbyPlayer>> players_;
  std::map<GameId, std::shared_ptr<GameRoom>> rooms_;  // the rooms this process holds
  std::unordered_map<std::string, GameId> invites_;
  std::unordered_map<SeatId, std::shared_ptr<HouseBot>> bots_;
  std::uint64_t next_bot_id_ = std::uint64_t{1} << 48;  // bots' seat ids, apart from accounts'
  GameId next_game_id_ = 1;
  std::uint64_t games_finished_ = 0;
  bool shutting_down_ = false;
  const std::string instance_;  // this process's start, as Welcome tells it
};

}  // namespace ttt::server
