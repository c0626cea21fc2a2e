// NodeTransfers: this node's side of games and players moving between the
// nodes of one lobby. A game claimed from a node that is gone comes back
// here as after a restart, its players away until they reconnect, their
// resume tokens held here; a game another node holds now is dropped at once,
// its players told and sent to that node, never registered again; a player
// another live node holds is sent there once this node has checked which
// games are still its own (it keeps a player who plays one of them); when
// the shared state is back, every player held here is registered again. And
// the drain (SIGTERM on a node of several): no new games here; players out
// of a game go to another node at once, and each game's players when it is
// over; at the drain's end every player still here is sent on, and the node
// that takes each adopts its game.
//
// It owns GameHoldings (which games this node holds: adoption, the fence,
// the drain's state) and is its host. Players are the PlayerTable's, rooms
// the RoomRegistry's, tokens the HelloDesk's; clients move through the
// NodeRouter. One path for one node or several: a node alone has no other
// node to send anyone to and nothing to take over. Runs on the logic
// executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ids.hpp"
#include "lobby/account_store.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_holders.hpp"
#include "lobby/game_holdings.hpp"
#include "lobby/hello_desk.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/node_router.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/player_table.hpp"
#include "lobby/quick_match.hpp"
#include "lobby/room_registry.hpp"

namespace ttt::server {

// What NodeTransfers asks of the lobby around it (the Lobby, or a test's fake).
class TransfersHost : public virtual PlayerReplies {
 public:
  // The connection the player speaks through; null while it is away.
  virtual RoutedConnection* connection_of(const LobbyPlayer& player) = 0;
};

// How long a token held for a player lives, and when a node counts as dead.
struct TransferTerms {
  std::chrono::milliseconds token_lifetime{24LL * 3600 * 1000};
  std::chrono::milliseconds node_dead_after{2'500};
};

class NodeTransfers final : private HoldingsHost {
 public:
  // Everything given outlives the transfers.
  NodeTransfers(boost::asio::any_io_executor logic, RoomRegistry& rooms, PlayerTable& players,
                HelloDesk& desk, NodeRouter& router, QuickMatch& quick_match,
                AccountStore& accounts, Cluster& cluster, GameHolders& holders, TransfersHost& host,
                TransferTerms terms);

  NodeTransfers(const NodeTransfers&) = delete;
  NodeTransfers& operator=(const NodeTransfers&) = delete;

  // Which games this node holds: adoption, the fence, the check of
  // holdings, the drain's state (draining, frozen).
  GameHoldings& holdings() noexcept { return holdings_; }
  const GameHoldings& holdings() const noexcept { return holdings_; }
  bool draining() const noexcept { return holdings_.draining(); }

  // Another live node holds the account's player (the shared state refused
  // to hold it here): this node checks which games are still its own (it
  // may have looked dead), then a player here out of a game goes there; one
  // playing a game here stays with it.
  void held_elsewhere(AccountId account, const std::string& node);
  // The shared state is back (or forgot this node): the results other
  // nodes committed are read again, every player held here with a token is
  // held here again (one another live node holds now: held_elsewhere), and
  // if it forgot, those waiting for a quick match wait again.
  void register_again(bool forgotten);

  // Drain: no new games or players here; players in the lobby, queued,
  // waiting for an opponent or watching are sent to another node; players
  // of a game in progress (or of one whose last words wait for their
  // write) stay, and go when it is over (round_may_be_over).
  void drain();
  // A room's round may be over: while draining, once its end is said and
  // no rematch started, its players go on to another node.
  void round_may_be_over(GameRoom& room);
  // The drain's end: nothing more is taken from anyone (frozen), then every
  // player still here is sent to another node with its token held there
  // (the node adopts its games when it arrives). Returns how many were sent.
  std::size_t hand_over();

 private:
  // Held elsewhere, once any check of holdings is done.
  void send_to_holder(AccountId account, const std::string& node);
  // A player in a room this node lost: sent to the game's holder, or told.
  void let_go(LobbyPlayer& player, GameId game, const std::optional<NodeInfo>& holder);
  // The people here with a connection (bots left out) that `pick` picks.
  std::vector<SeatId> connected(const std::function<bool(const LobbyPlayer&)>& pick) const;
  // The connection of the person of `seat`, if it is still here on one.
  RoutedConnection* still_connected(SeatId seat);

  // HoldingsHost
  bool has_room(GameId room) const override;
  std::vector<RecordId> records_here(bool in_progress_only) const override;
  bool take_over(const ClaimedGame& claimed, const std::string& from) override;
  bool drop_game(RecordId record, const std::string& holder) override;

  boost::asio::any_io_executor logic_;
  RoomRegistry& rooms_;
  PlayerTable& players_;
  HelloDesk& desk_;
  NodeRouter& router_;
  QuickMatch& quick_match_;
  AccountStore& accounts_;
  Cluster& cluster_;
  TransfersHost& host_;
  TransferTerms terms_;
  GameHoldings holdings_;  // adoption, fencing, draining
};

}  // namespace ttt::server
