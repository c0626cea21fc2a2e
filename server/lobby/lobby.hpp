// Lobby: every connection, player and game of the server. It answers Hello
// (names are owned through a secret), lists, creates and matches games,
// routes in-game requests to their room, keeps a disconnected player's
// identity while their seat is held, and journals games, ratings and resume
// tokens to the database when there is one.
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

#include "game/game_room.hpp"
#include "net/participant.hpp"
#include "net/rate_limiter.hpp"
#include "store/store.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot;
class StoreWriter;

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
  std::size_t players = 0;      // player identities online or away, bots included
  std::size_t rooms = 0;
  std::size_t queued = 0;       // players waiting in quick match
  std::size_t bots = 0;
  std::uint64_t games_finished = 0;
  std::size_t accounts = 0;     // names known (registered players and bot levels)
};

// What the database held at startup.
struct StoredState {
  std::vector<StoredPlayer> players;
  std::vector<GameRecord> unfinished_games;  // with moves
  std::vector<std::pair<std::int64_t, std::string>> tokens;
  std::int64_t max_game_id = 0;
  std::int64_t max_room_id = 0;
};

class Lobby : public RoomObserver {
 public:
  // logic: where every lobby and room call runs. compute: where bots search.
  // store: the journal, or null to keep nothing (--db none).
  Lobby(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
        LobbyConfig config, StoreWriter* store = nullptr);
  ~Lobby() override;

  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // Before serving: the players, games in progress and tokens of a previous
  // run. Its games come back with their players away until they reconnect.
  void restore(const StoredState& state);

  // A new connection, before its Hello.
  void connected(const std::shared_ptr<Participant>& conn);

  // A message from a connection (Hello first; the session enforces that).
  void receive(const std::shared_ptr<Participant>& conn, const wire::ClientMessage& message);

  // The connection is gone. Its player's seat in a game in progress is held
  // for the reconnect grace period; everything else it had is released.
  void disconnected(Participant* conn);

  // Server shutdown: everyone gets Goodbye. Without a database the games end
  // without result; with one they stay in progress, to resume after a restart.
  void shutdown(const std::string& reason);

  LobbyStats stats() const;

  // RoomObserver
  void left_room(GameId room, PlayerId player) override;
  void room_closed(GameId room) override;
  std::int64_t record_start(const GameRoom& room, Done done) override;
  void record_move(const GameRoom& room, int ply, Move move, const std::optional<GameResult>& end,
                   Done done) override;
  void record_end(const GameRoom& room, const GameResult& result, Done done) override;
  double rating(PlayerId account) const override;

 private:
  struct PlayerRecord {
    PlayerId id = 0;
    PlayerId account_id = 0;
    std::string name;
    std::string token_hash;           // of the current resume token
    bool is_bot = false;
    std::weak_ptr<Participant> conn;  // expired while away
    GameId room = 0;                  // the room it sits in or watches
    int queued_size = 0;              // quick-match board size, 0 = not queued
    wire::Rated queued_rated = wire::RATED_DEFAULT;  // its quick match's choice
    bool program = false;             // said Hello as a bot (ttt-bot)
    RateLimiter chat_limiter{1.0, 5.0};
  };
  struct Connection {
    std::weak_ptr<Participant> conn;
    PlayerId player = 0;  // 0 until Hello
  };

  void hello(const std::shared_ptr<Participant>& conn, Connection& record,
             const wire::Hello& hello, std::uint32_t request_id);
  // Attaches conn, which said hello, to a player who is online elsewhere or
  // away, with a new token.
  void take_back(const std::shared_ptr<Participant>& conn, Connection& record,
                 PlayerRecord& player, const wire::Hello& hello, std::uint32_t request_id);
  void welcome(PlayerRecord& player, std::uint32_t request_id, bool resumed,
               const std::string& secret);
  StoredPlayer& register_account(const std::string& name, std::string& secret);

  void dispatch(PlayerRecord& player, const wire::ClientMessage& message);
  void list_games(PlayerRecord& player, std::uint32_t request_id);
  void send_stats(PlayerRecord& player, std::uint32_t request_id);
  void leaderboard(PlayerRecord& player, const wire::GetLeaderboard& request,
                   std::uint32_t request_id);
  void history(PlayerRecord& player, const wire::GetHistory& request, std::uint32_t request_id);
  void replay(PlayerRecord& player, const wire::GetReplay& request, std::uint32_t request_id);
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
  // Whether a player's side of a game lets it be rated: a human's does unless
  // it says no, a program's only when it asks.
  static bool allows_rating(const PlayerRecord& player, wire::Rated asked);
  bool has_database(PlayerRecord& player, std::uint32_t request_id);
  std::shared_ptr<GameRoom> new_room(RoomSettings settings, GameId id = 0);
  std::shared_ptr<GameRoom> room_of(const PlayerRecord& player) const;
  PlayerRef ref(const PlayerRecord& player) const;
  PlayerRecord& add_bot_player(Level level, GameId room);
  void add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side);
  StoredPlayer& bot_account(Level level);
  void unqueue(PlayerRecord& player);
  void on_fallback_timer(PlayerId player, int size);
  void forget(PlayerId player);
  void set_token(PlayerRecord& player, const std::string& token);
  // A game's start as the journal writes it: its players' rows (in case
  // their own writes failed) and the game's row.
  struct StartRecord {
    GameRecord game;
    StoredPlayer x;
    StoredPlayer o;
    void write(Store& store) const;
  };
  // What a finished game does to both accounts (nothing for an aborted one).
  struct Settlement {
    PlayerResult x;
    PlayerResult o;
  };
  std::optional<Settlement> settle(const GameRoom& room, const GameResult& result) const;
  // The start of `record` if it is not yet known to be committed.
  std::optional<StartRecord> pending_start(std::int64_t record) const;
  // A game's end and, unless aborted, its result for both players.
  static void write_end(Store& store, std::int64_t record, const std::string& status,
                        const std::string& reason, std::int64_t at_ms,
                        const std::optional<Settlement>& settlement);
  // A Done that, once the game's end is committed, applies the settlement to
  // the accounts in memory and counts the game; then calls done.
  Done on_game_recorded(std::int64_t record, std::optional<Settlement> settlement, Done done,
                        bool final);
  void apply(const PlayerResult& result);
  void hold_rating_change(const PlayerResult& result, double sign);
  void journal(std::function<void(Store&)> job, Done done);

  void reply(const PlayerRecord& player, wire::ServerMessage message);
  void error(const PlayerRecord& player, wire::ErrorCode code, std::string text,
             std::uint32_t request_id);
  std::string random_invite_code();

  boost::asio::any_io_executor logic_;
  boost::asio::any_io_executor compute_;
  LobbyConfig config_;
  StoreWriter* store_;
  std::mt19937_64 rng_;

  std::unordered_map<Participant*, Connection> connections_;
  std::unordered_map<PlayerId, PlayerRecord> players_;
  std::unordered_map<std::string, PlayerId> tokens_;  // by token hash
  std::unordered_map<PlayerId, StoredPlayer> accounts_;
  std::unordered_map<std::string, PlayerId> account_names_;  // by lowercase name
  std::map<GameId, std::shared_ptr<GameRoom>> rooms_;
  std::unordered_map<std::string, GameId> invites_;
  std::map<int, std::deque<PlayerId>> queues_;
  std::unordered_map<PlayerId, std::unique_ptr<boost::asio::steady_timer>> fallback_timers_;
  std::unordered_map<PlayerId, std::shared_ptr<HouseBot>> bots_;
  PlayerId next_account_id_ = 1;
  PlayerId next_bot_id_ = PlayerId{1} << 48;  // bots' seat ids, apart from accounts'
  GameId next_game_id_ = 1;
  std::int64_t last_record_id_ = 0;
  // Starts not yet known to be committed, by record id: written again with
  // the game's next write, so a failed start doesn't doom the game.
  std::unordered_map<std::int64_t, StartRecord> pending_starts_;
  // Rating changes written but not yet committed, by account: what players
  // are shown at a game's end is what the database will say.
  std::unordered_map<PlayerId, double> pending_rating_changes_;
  std::uint64_t games_finished_ = 0;
  bool shutting_down_ = false;
};

}  // namespace ttt::server
