// BotPlayer: one AI player that joins a server through the protocol like any
// client, the coordinator of its parts. It owns the Connection, hands each
// server message to the part it is for, and keeps what spans them: the game
// it sits in, the requests in flight, the errors that end its run. The
// parts: GameEntry (asking for a game in its mode: quick match, a game id,
// a game of its own, a challenge, or the challenges of others), MoveSearch
// (moves from a Brain on the compute pool), GameSeries (the games in a row
// and their tally: rematches, or a new opponent after each), BotChallenges,
// WaitingNotice (a line on stdout every 30 s while it waits) and BotSecret.
// A brain that fails (an engine that crashes, prints garbage, answers a bad
// cell or runs out of time) makes the bot resign the game and stop.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "bot/bot_challenges.hpp"
#include "bot/bot_options.hpp"
#include "bot/bot_secret.hpp"
#include "bot/game_entry.hpp"
#include "bot/game_series.hpp"
#include "bot/move_search.hpp"
#include "bot/waiting_notice.hpp"
#include "link/connection.hpp"
#include "view/dropped_round.hpp"

namespace ttt::client {

class BotPlayer : public ConnectionEvents,
                  public std::enable_shared_from_this<BotPlayer>,
                  private MoveSearch::Owner {
 public:
  // io: where the connection and all bot logic run. compute: where searches
  // run. on_done is called (on io) once the bot has finished.
  BotPlayer(std::string label, boost::asio::any_io_executor io,
            boost::asio::any_io_executor compute, BotOptions options,
            std::function<void()> on_done);

  void start();
  // Stops early (a signal): leaves and closes.
  void stop();

  const BotTally& tally() const noexcept { return series_.tally(); }
  // The brain this bot plays with (for checking it before connecting).
  Brain& brain() noexcept { return moves_.brain(); }

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
  // What a request in flight asked for: its refusal is read accordingly.
  enum class Request { Enter, Move, Resign, Rematch, Leave, Rotate, Answer, Recall };

  // MoveSearch::Owner
  const wire::GameState* game() const override { return game_ ? &*game_ : nullptr; }
  wire::Side side() const override;
  bool finishing() const override { return finishing_; }
  bool connected() const override { return connection_->connected(); }
  std::uint32_t send_move(wire::ClientMessage move) override;
  void error(const std::string& what) override { series_.error(what); }
  void brain_failed(const std::string& why, bool current) override;

  void enter();
  // After a Welcome without a game: the dropped round settled first (its
  // result found, or it is lost), then a new game asked for.
  void back_in_lobby(bool had_game);
  // The history the bot asked for to find a dropped round's end (null: it
  // could not be read); the round is counted or lost, and the bot goes on.
  void recalled(const wire::History* history);
  // A dropped round's result, found: counted as if the bot had seen it.
  void count_dropped(const RoundEnd& end);
  // After a Welcome: the secret settled, and replaced once with
  // --rotate-secret.
  void settle_secret(const wire::Welcome& welcome);
  void on_joined(const wire::Joined& joined);
  void on_state(const wire::GameState& state);
  void on_error(const wire::Error& error, std::uint32_t in_reply_to);
  void on_refused(const wire::Error& error, std::optional<Request> kind);
  void after_game();
  void find_new_opponent();
  void finish();
  std::uint32_t send(wire::ClientMessage message, Request kind);
  // What the request a reply answers asked for (none for an event).
  std::optional<Request> request_of(std::uint32_t in_reply_to) const;
  // Free for a challenge: in no game, not stopping.
  bool available() const noexcept { return !game_ && !finishing_; }

  std::string label_;
  boost::asio::any_io_executor io_;
  BotOptions options_;
  std::function<void()> on_done_;
  std::shared_ptr<Connection> connection_;
  BotSecret secret_;
  GameEntry entry_;
  MoveSearch moves_;
  GameSeries series_;
  BotChallenges challenges_;
  WaitingNotice waiting_;

  std::uint64_t player_id_ = 0;
  std::optional<wire::GameState> game_;
  DroppedRound dropped_;  // a round in progress the link lost, its end looked for
  std::unordered_map<std::uint32_t, Request> requests_;  // in flight, by request id
  bool failure_counted_ = false;  // the error that ends this link is counted already
  bool name_refused_ = false;     // the server said NAME_TAKEN
  bool moving_on_ = false;        // left a game to find another opponent
  bool finishing_ = false;
  bool done_ = false;
};

}  // namespace ttt::client
