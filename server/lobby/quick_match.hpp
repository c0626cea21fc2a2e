// QuickMatch: the players waiting for a quick match, each with its wish (a
// board size, win length, clock and rating wish), paired through the
// Matchmaker: with a player waiting here (a room for both), or with one
// waiting at another node (a seat kept there, the player sent to it). A
// player who waited the fallback time plays the server's bot instead. One
// path for one node or several: the Matchmaker and the Cluster answer the
// same calls either way. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "ids.hpp"
#include "lobby/cluster.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/player_replies.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// What quick match asks of the lobby around it (the Lobby, or a test's fake).
class QuickMatchHost : public virtual PlayerReplies {
 public:
  // A room for a pairing by the rules of `rules`: `waiting` (who asked
  // `waiting_rated`) sits as X; `player`, when given, as O (null: it comes
  // later, to a seat kept for it). Returns the room.
  virtual std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                              LobbyPlayer* player, const MatchRequest& rules,
                                              std::uint32_t request_id) = 0;
  // Sends the player to `node`, where a seat is kept for it (`reservation`).
  virtual void send_to_seat(LobbyPlayer& player, const NodeInfo& node,
                            const std::string& reservation, GameId game,
                            const std::string& reason) = 0;
  // Whether the server's bot may play the player now (its address plays few
  // enough bot games, the bots' searches have room).
  virtual bool bot_free_for(const LobbyPlayer& player) = 0;
  // The player plays the server's bot by the rules it waited for.
  virtual void play_bot(LobbyPlayer& player, const MatchRequest& rules) = 0;
};

class QuickMatch {
 public:
  // fallback: how long a player waits before the bot steps in (0: never).
  QuickMatch(boost::asio::any_io_executor logic, Matchmaker& matchmaker, Cluster& cluster,
             QuickMatchHost& host, std::chrono::milliseconds fallback);

  QuickMatch(const QuickMatch&) = delete;
  QuickMatch& operator=(const QuickMatch&) = delete;

  // The player (checked by the lobby: free, within its quotas) asks to be
  // paired: a game at once, Queued, or an error. Asking again replaces the
  // wish.
  void ask(LobbyPlayer& player, const MatchRequest& request, std::uint32_t request_id);
  // The player's wish, if it waits; null otherwise.
  const MatchRequest* wish_of(SeatId who) const;
  // The player stops waiting (it left, went into a game, or away); nothing
  // is said to it.
  void withdraw(SeatId who);
  // The player is gone for good: withdrawn, and its last wish forgotten.
  void forget(SeatId who);
  // Another node paired a newcomer with `request.waiting`, who waits here by
  // the same rules: the waiting player sits in a new room, its wish taken.
  // Null (nothing changed) if it no longer waits by those rules.
  std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest& request);
  // The newcomer paired with `waiting` never came to the room kept for it:
  // the waiting player (out of that room) waits again, at the back.
  void wait_again(SeatId waiting, const SeatRequest& request);
  // The shared queues forgot everyone: whoever waits here asks again.
  void ask_again_all();
  // Server shutdown: no bot steps in any more.
  void stop();

 private:
  struct Waiting {
    MatchRequest request;
    std::unique_ptr<boost::asio::steady_timer> fallback;
    std::uint64_t generation = 0;  // tells this wish's timer from an earlier one's
    // Another node paired it (the queues no longer held it) and its seat
    // request has not come yet: when the timer fires, it asks them again.
    bool paired_elsewhere = false;
  };
  // The tries of one request so far: seats refused at other nodes, and
  // players paired with here who turned out gone.
  struct Tries {
    int refused = 0;
    int gone = 0;
  };
  // One try of the matchmaker (several when the one paired turns out gone
  // or another node refuses the seat).
  void try_match(SeatId id, MatchRequest request, std::uint32_t request_id, Tries tries);
  // Paired with a player waiting at another node: a seat is asked there.
  void pair_elsewhere(LobbyPlayer& player, const MatchRequest& paired, const MatchRequest& request,
                      std::uint32_t request_id, Tries tries);
  void now_waiting(LobbyPlayer& player, const MatchRequest& request, std::uint32_t request_id);
  void arm_fallback(SeatId id, Waiting& waiting);
  void fallback_due(SeatId id);
  // The player's wish goes (its fallback timer stopped); the queues are
  // not asked.
  void drop_wish(SeatId who);
  // The wish of a player waiting by exactly these rules, or null.
  Waiting* waiting_by(SeatId id, int size, int win_length, std::uint32_t clock_initial_ms,
                      std::uint32_t clock_increment_ms);

  boost::asio::any_io_executor logic_;
  Matchmaker& matchmaker_;
  Cluster& cluster_;
  QuickMatchHost& host_;
  std::chrono::milliseconds fallback_;
  bool stopped_ = false;
  std::uint64_t generations_ = 0;
  std::unordered_map<SeatId, Waiting> waiting_;
  // The rating wish of each player's last quick match, kept after a pairing
  // (a newcomer who never comes puts the player back in the queue with it).
  std::unordered_map<SeatId, wire::Rated> last_rated_;
};

}  // namespace ttt::server
