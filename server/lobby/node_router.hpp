// NodeRouter: the lobby among several nodes, as far as clients move between
// them. A client is sent to another node with a Redirect (a player it speaks
// for is handed over: its token is held there now); a player who joins,
// watches or challenges at another node, or is paired with a player waiting
// there, gets a place kept there (a reservation) and is sent to it; other
// nodes' requests for such places are answered here, each kept for a while
// (SeatReservations), and a client that arrives with one takes it once it
// shows it is the player. A draining node sends newcomers away. One path for
// one node or several: a node alone (SingleNode) keeps no seat elsewhere and
// never has another node to send anyone to. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ids.hpp"
#include "lobby/account_store.hpp"
#include "lobby/cluster.hpp"
#include "lobby/hello_desk.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/seat_reservations.hpp"
#include "net/participant.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// A client's connection as the router and the Admission see it (the Lobby's,
// or a test's fake).
class RoutedConnection {
 public:
  virtual ~RoutedConnection() = default;
  // The peer, or null once it is gone.
  virtual std::shared_ptr<Participant> participant() const = 0;
  // The player it speaks for (null before Hello, or once handed over).
  virtual LobbyPlayer* speaks_for() const = 0;
  // Where it comes from (an address key, net/peer_address.hpp).
  virtual const std::string& peer_address() const = 0;
  // Its Hello waits for an answer: what the peer says meanwhile is held...
  virtual void begin_routing() = 0;
  // ...and handled, in order, once it is answered.
  virtual void end_routing() = 0;
  // A handle to find it again after a wait (host's still_open).
  virtual std::weak_ptr<RoutedConnection> handle() = 0;
  // It speaks for `player` from now on: the player's peer is this
  // connection's.
  virtual void attach(LobbyPlayer& player) = 0;
  // It no longer speaks for its player, if any, who is away (no peer) until
  // a connection attaches it again.
  virtual void detach() = 0;
};

// What the router asks of the lobby around it (the Lobby, or a test's fake).
class RoutingHost : public virtual PlayerReplies {
 public:
  // The connection the player speaks through; null while it is away.
  virtual RoutedConnection* connection_of(const LobbyPlayer& player) = 0;
  // The connection, if it is still open (and the lobby's); null otherwise.
  virtual std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const = 0;
  // The player leaves this node (its token is held by the node it goes to):
  // out of its challenges, its quick match and its room, its token here
  // forgotten, off its connection; gone from here unless a room keeps it.
  virtual void hand_off(LobbyPlayer& player) = 0;
  // The player of `account`, sent here and shown to be it, comes in on the
  // connection: it takes back its player held here, or enters;
  // `place` runs once the player is in (before its Welcome when it enters
  // anew, so that Welcome names the game it was placed in).
  virtual void enter_sent(RoutedConnection& connection, const StoredPlayer& account,
                          const wire::Hello& hello, std::uint32_t request_id,
                          const std::function<void(LobbyPlayer&)>& place) = 0;
  // The player, its room set, sits in it as a player (a seat kept for it):
  // the game is unrated if the player's side won't have it rated (`asked`);
  // its seat counts against its address; its challenges end.
  virtual void took_kept_seat(LobbyPlayer& player, wire::Rated asked) = 0;
  // The player challenges as if it asked here (it came to challenge).
  virtual void challenge_here(LobbyPlayer& player, const wire::Challenge& challenge) = 0;
  // The room of game `id` here, or null.
  virtual std::shared_ptr<GameRoom> find_room(GameId id) const = 0;
  // The player online here with that name, or null.
  virtual LobbyPlayer* online(std::string_view name) = 0;
  // Why `target` takes no challenge from account `from` now, or nullopt.
  virtual std::optional<std::pair<wire::ErrorCode, std::string>> challenge_refusal(
      const LobbyPlayer& target, AccountId from) const = 0;
  // Quick match (QuickMatch::seat_for_newcomer, QuickMatch::wait_again).
  virtual std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest& request) = 0;
  virtual void wait_again(SeatId waiting, const SeatRequest& request) = 0;
  // This node drains (it takes no new players), or shuts down.
  virtual bool draining() const noexcept = 0;
  virtual bool shutting_down() const noexcept = 0;
};

// How long places and tokens live.
struct RoutingLimits {
  std::chrono::milliseconds seat_hold{10'000};  // a place kept for a player sent here
  std::chrono::milliseconds token_lifetime{24LL * 3600 * 1000};  // a token held elsewhere
};

class NodeRouter {
 public:
  // cluster, accounts, desk and host outlive the router.
  NodeRouter(boost::asio::any_io_executor logic, Cluster& cluster, AccountStore& accounts,
             HelloDesk& desk, RoutingHost& host, RoutingLimits limits);

  NodeRouter(const NodeRouter&) = delete;
  NodeRouter& operator=(const NodeRouter&) = delete;

  // Sends the connection to `node` (to the place kept there under
  // `reservation`, if any); if it speaks for a player, hands the player over
  // (its token held there), and the Redirect goes once the records hold
  // that token, what the client says meanwhile held, never answered.
  void redirect(RoutedConnection& connection, const NodeInfo& node, const std::string& reservation,
                GameId game, const std::string& reason);
  // Tells the peer to go to `node` and closes it, at once (its player, if
  // any, already on its way: its games let go, its token held there).
  void send_off(Participant& peer, const NodeInfo& node, const std::string& reason);
  // A Hello while draining (from a player out of a game, `existing` if it is
  // held here): sent to another node, or refused if none takes players.
  // False when not draining (or the player is in a game here).
  bool send_away(RoutedConnection& connection, const LobbyPlayer* existing);

  // A Hello with a reservation: if this node keeps it, the client enters
  // once it shows it is the player, and takes the kept place (true). False
  // if no such reservation is kept.
  bool arrive(RoutedConnection& connection, const wire::Hello& hello, std::uint32_t request_id);
  // Asks node `to` to keep a place for the player (a seat, a place among
  // the spectators, a place to challenge from) and sends it there; an
  // error to the player if refused.
  void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                      std::uint32_t request_id);
  // Another node's request for a place here: kept (its code replied), or
  // refused with why.
  void seat_request(const SeatRequest& request, const Cluster::SeatDone& reply);

  // Whether a free seat of game `game` is kept for a player sent here.
  bool seat_kept(GameId game) const { return reservations_.seat_kept(game); }
  // Game `game` is gone: its kept seats lapse unused.
  void game_gone(GameId game) { reservations_.game_gone(game); }
  std::size_t reservations() const noexcept { return reservations_.size(); }
  // Clients sent to other nodes so far.
  std::uint64_t redirects() const noexcept { return redirects_; }

 private:
  // The client showed it is the player: it takes the kept place.
  void take_reservation(RoutedConnection& open, const std::string& code, const wire::Hello& hello,
                        std::uint32_t request_id);
  // A reservation was not taken within its time.
  void lapsed(Reservation lapsed);
  // Why a request for a place in a game here is refused (no such game, a
  // wrong invite code, no free seat, no place to watch), or nullopt.
  std::optional<std::pair<wire::ErrorCode, std::string>> game_refusal(const SeatRequest& request,
                                                                      const GameRoom* room) const;

  Cluster& cluster_;
  AccountStore& accounts_;
  HelloDesk& desk_;
  RoutingHost& host_;
  RoutingLimits limits_;
  SeatReservations reservations_;  // places kept for players other nodes send here
  std::uint64_t redirects_ = 0;
};

}  // namespace ttt::server
