// BotPlayer: one AI player that joins a server through the protocol like any
// client (quick match, a game id, or a game of its own), plays a number of
// games in a row (in quick match back to the queue after each game, so that
// whoever waits plays next; taking challenges, free for the next after each
// game; otherwise asking for and accepting rematches,
// finding a new opponent when one leaves) and keeps the tally. While it waits
// for an opponent it says so on stdout every 30 s. Its moves come from a Brain: ttt's AI,
// or an outside engine over the Gomocup protocol (--engine). Searches run on
// a separate executor (a thread pool), one at a time, and their moves are
// posted back, so I/O never waits on them; a move is sent only if the
// position is still the one searched. A brain that fails (an engine that
// crashes, prints garbage, answers a bad cell or runs out of time) makes the
// bot resign the game and stop.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "engine/brain.hpp"
#include "identity/player_secret.hpp"
#include "link/connection.hpp"
#include "ttt/ai.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

// How a bot finds its games: quick match, a game by id, a game of its own,
// a challenge to one player by name, or the challenges others make to it.
enum class BotMode { QuickMatch, Join, Create, Challenge, AcceptChallenges };

struct BotOptions {
  ConnectionOptions connection;
  std::string secret_path;     // where the name's secret is kept; empty = nowhere
  bool rotate_secret = false;  // replace the name's secret once connected
  BotMode mode = BotMode::QuickMatch;
  int size = 3;               // QuickMatch, Create
  int win_length = 0;         // QuickMatch, Create: marks in a row that win; 0 = size
  std::uint64_t game_id = 0;  // Join
  std::string invite_code;    // Join a private game
  std::string opponent;       // Challenge: whom
  // AcceptChallenges: whose challenges it takes (empty: anyone's); the
  // others it declines.
  std::vector<std::string> accept_from;
  // QuickMatch, Create, Challenge: a Fischer clock (initial 0: none).
  std::uint32_t clock_initial_ms = 0;
  std::uint32_t clock_increment_ms = 0;
  int games = 1;  // games to play in a row; 0: no limit (until stopped)
  // Ask for rated games (RATED_YES); otherwise the server's default for a
  // program (Hello.bot): unrated.
  bool rated = false;
  AiOptions ai;  // ai.budget is also an engine's time per move
  // An outside engine's command (shell syntax) to play instead of the AI;
  // empty: the AI at ai.level.
  std::string engine;
  // How long past its time per move an engine may take before it loses.
  std::chrono::milliseconds engine_grace{1000};
  // How long to wait for the opponent to agree to a rematch.
  std::chrono::milliseconds rematch_wait{30'000};
  // After the server could not save a move (STORAGE), the pause before the
  // bot moves again: a failing disk is not hammered.
  std::chrono::milliseconds storage_retry{500};
  // After a node refused to find a game for a while (DRAINING, or
  // CLUSTER_UNAVAILABLE: the lobby's shared state out of reach), the pause
  // before asking again; the bot asks for up to connection.retry, then
  // counts an error and stops.
  std::chrono::milliseconds enter_retry{1000};
  // While it waits for an opponent (a queue, its open game, challenges), a
  // line on stdout this often.
  std::chrono::milliseconds waiting_notice{30'000};
};

// What a bot did. Errors: refused moves, fatal server errors, refused entry,
// lost connections, protocol surprises and a failing brain (its game is
// resigned and counted as lost). A move the server could not save
// (STORAGE) is no error: the bot moves again after a pause.
struct BotTally {
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  int errors = 0;
  bool connect_failed = false;  // never got onto the server
  BotTally& operator+=(const BotTally& other);
};

class BotPlayer : public ConnectionEvents, public std::enable_shared_from_this<BotPlayer> {
 public:
  // io: where the connection and all bot logic run. compute: where searches
  // run. on_done is called (on io) once the bot has finished.
  BotPlayer(std::string label, boost::asio::any_io_executor io,
            boost::asio::any_io_executor compute, BotOptions options,
            std::function<void()> on_done);

  void start();
  // Stops early (a signal): leaves and closes.
  void stop();

  const BotTally& tally() const noexcept { return tally_; }
  // The brain this bot plays with (for checking it before connecting).
  Brain& brain() noexcept { return *brain_; }
  bool done() const noexcept { return done_; }

  // ConnectionEvents
  void on_welcome(const wire::Welcome& welcome) override;
  void on_message(const wire::ServerMessage& message) override;
  void on_reconnecting(const std::string& reason, std::chrono::milliseconds left) override;
  void on_closed(const std::string& reason, bool failed) override;
  // Trusts the server on first use and says so (once per server and run).
  void on_unknown_server(const std::string& where, const std::string& fingerprint,
                         std::function<void(bool)> answer) override;
  // Logged at info ("moved to node HOST:PORT: REASON"): not an error.
  void on_redirected(const std::string& where, const std::string& reason) override;

 private:
  enum class Request { Enter, Move, Resign, Rematch, Leave, Rotate, Answer };
  // One position of one game: a search answers exactly one.
  struct Position {
    RoundKey round;
    std::uint32_t move_count = 0;
    friend bool operator==(const Position&, const Position&) = default;
  };

  void enter();
  // The name's secret after a Welcome: kept if the server made it, settled
  // if the bot made it, replaced once with --rotate-secret.
  void on_welcome_secret(const wire::Welcome& welcome);
  void on_state(const wire::GameState& state);
  void on_error(const wire::Error& error, std::uint32_t in_reply_to);
  void think(const wire::GameState& state, Player me);
  void play(Position position, Move move);
  // The search came back: thinks again if the game moved on meanwhile.
  // Challenges (bot_challenges.cpp): the request that enters a game for the
  // challenge modes, and the challenge messages; false if not one.
  bool on_challenge_message(const wire::ServerMessage& message);
  void search_done(Position searched);
  // The brain could not move: the game is resigned (and counted lost) and
  // the bot stops.
  void brain_failed(Position position, const std::string& why);
  // The server could not save our move and took it back: move again later.
  void retry_move_later();
  void retry_move();
  // A node could not find a game now (draining, or its shared state out of
  // reach): asks again after a pause, for up to the retry period. False when
  // that period is over (the refusal is then the bot's error).
  bool enter_later();
  void count_result(const wire::GameState& state, wire::Side me);
  // Waiting for an opponent (what for, e.g. "an opponent in quick match
  // (3x3)"): a line every options_.waiting_notice until a game starts.
  void start_waiting(std::string what);
  void stop_waiting();
  void schedule_waiting_notice();
  void after_game();
  void find_new_opponent();
  void finish();
  void error(const std::string& what);
  std::uint32_t send(wire::ClientMessage message, Request kind);

  std::string label_;
  boost::asio::any_io_executor io_;
  boost::asio::any_io_executor compute_;
  BotOptions options_;
  std::function<void()> on_done_;
  std::shared_ptr<Connection> connection_;
  std::optional<PlayerSecret> secret_;
  bool rotated_ = false;  // --rotate-secret was acted on
  boost::asio::steady_timer rematch_timer_;
  boost::asio::steady_timer retry_timer_;  // moving again after a STORAGE refusal
  boost::asio::steady_timer enter_timer_;  // asking for a game again after a node refused
  boost::asio::steady_timer waiting_timer_;  // the waiting line
  std::optional<std::chrono::steady_clock::time_point> waiting_since_;
  std::string waiting_for_;  // what it waits for, in words
  // When nodes began refusing to find a game (enter_later); none while they don't.
  std::optional<std::chrono::steady_clock::time_point> enter_refused_since_;

  std::uint64_t player_id_ = 0;
  std::optional<wire::GameState> game_;
  std::unordered_map<std::uint32_t, Request> requests_;  // in flight, by request id
  std::shared_ptr<Brain> brain_;
  std::optional<Position> searching_;  // the position a search is answering
  bool search_running_ = false;        // a brain call is in flight
  std::optional<Position> moved_;      // the last position a move was sent for
  std::optional<RoundKey> counted_;    // the last round whose result is counted
  bool failure_counted_ = false;       // the error that ends this link is counted already
  bool name_refused_ = false;          // the server said NAME_TAKEN
  bool entered_ = false;               // asked the server for a game (this link or before)
  bool moving_on_ = false;             // left a game to find another opponent
  bool finishing_ = false;
  bool done_ = false;
  BotTally tally_;
};

}  // namespace ttt::client
