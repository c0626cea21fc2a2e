#include "lobby/node_transfers.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <memory>

#include "ttt/count_text.hpp"

namespace ttt::server {

NodeTransfers::NodeTransfers(boost::asio::any_io_executor logic, RoomRegistry& rooms,
                             PlayerTable& players, HelloDesk& desk, NodeRouter& router,
                             QuickMatch& quick_match, AccountStore& accounts, Cluster& cluster,
                             GameHolders& holders, TransfersHost& host, TransferTerms terms)
    : logic_(logic),
      rooms_(rooms),
      players_(players),
      desk_(desk),
      router_(router),
      quick_match_(quick_match),
      accounts_(accounts),
      cluster_(cluster),
      host_(host),
      terms_(terms),
      holdings_(logic, holders, cluster, *this, terms.node_dead_after) {}

// --- the players held elsewhere, and again here ------------------------------------

void NodeTransfers::held_elsewhere(AccountId account, const std::string& node) {
  holdings_.check();  // this node may have looked dead
  send_to_holder(account, node);
}

void NodeTransfers::send_to_holder(AccountId account, const std::string& node) {
  if (holdings_.checking()) {
    holdings_.after_check([this, account, node] { send_to_holder(account, node); });
    return;
  }
  LobbyPlayer* player = players_.get(seat_of(account));
  RoutedConnection* connection = player ? host_.connection_of(*player) : nullptr;
  if (connection == nullptr) return;
  if (player->room && player->room->in_progress() && player->room->is_seated(player->id)) {
    // Its game is this node's (the check said so): the player stays with it.
    spdlog::warn("cluster: player {} plays game {} here while node {} holds it in Redis",
                 number(account), number(player->room->id()), node.substr(0, 64));
    return;
  }
  if (auto there = cluster_.node(node)) {
    router_.redirect(*connection, *there, "", GameId{},
                     "your player is at node " + where_of(*there));
  }
}

void NodeTransfers::register_again(bool forgotten) {
  accounts_.refresh_figures();  // the results other nodes committed meanwhile
  for (const auto& [id, player] : players_) {
    if (player->is_bot) continue;
    if (auto hash = desk_.tokens().hash_of(id)) {
      // Not taken back from a live node that holds the player now (this
      // node may have looked dead meanwhile).
      cluster_.hold(player->account, *hash, terms_.token_lifetime, "",
                    [this, account = player->account](const std::string& elsewhere) {
                      if (!elsewhere.empty()) held_elsewhere(account, elsewhere);
                    });
    }
  }
  // Redis lost the queues: whoever waited here waits again (at the back).
  if (forgotten) quick_match_.ask_again_all();
}

// --- the games this node holds (GameHoldings decides) ------------------------------

bool NodeTransfers::has_room(GameId room) const { return rooms_.contains(room); }

std::vector<RecordId> NodeTransfers::records_here(bool in_progress_only) const {
  return rooms_.records(in_progress_only);
}

bool NodeTransfers::take_over(const ClaimedGame& claimed, const std::string& from) {
  const GameRecord& g = claimed.game;
  for (const auto& player : claimed.players) {
    if (player) accounts_.keep(*player);
  }
  try {
    rooms_.restore(g);
  } catch (const std::exception& e) {
    spdlog::error("cluster: game {} could not be taken over: {}", g.id, e.what());
    return false;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& player = claimed.players[i];
    if (!player || player->is_bot || claimed.token_hashes[i].empty()) continue;
    const AccountId id = account_id(*player);
    desk_.tokens().restore(seat_of(id), claimed.token_hashes[i]);
    cluster_.hold(id, claimed.token_hashes[i], terms_.token_lifetime, "",
                  [id](const std::string& elsewhere) {
                    // Its player is at another live node (out of this
                    // game): it finds the game here when it comes back.
                    if (!elsewhere.empty()) {
                      spdlog::info("cluster: player {} of an adopted game is at node {}",
                                   number(id), elsewhere.substr(0, 64));
                    }
                  });
  }
  spdlog::info("cluster: took over game {} (room {}, {} vs {}, {}) from {}", g.id, g.room_id,
               g.x_name, g.o_name, count_text(g.moves.size(), "move", "moves"),
               from.empty() ? std::string("a drained node") : "node " + from);
  return true;
}

bool NodeTransfers::drop_game(RecordId record, const std::string& holder) {
  const std::shared_ptr<GameRoom> room = rooms_.by_record(record);
  if (!room || room->lost()) return false;
  const GameId id = room->id();
  spdlog::warn("cluster: game {} (room {}) is {} now: this node lets it go", number(record),
               number(id),
               holder.empty() ? std::string("over, or held by nobody") : "held by node " + holder);
  room->lose();
  const auto there = holder.empty() ? std::nullopt : cluster_.node(holder);
  std::vector<SeatId> inside;
  for (const auto& [seat, player] : players_) {
    if (player->room == room) inside.push_back(seat);
  }
  for (SeatId seat : inside) {
    if (LobbyPlayer* player = players_.get(seat)) let_go(*player, id, there);
  }
  router_.game_gone(id);
  rooms_.drop(*room);
  return true;
}

void NodeTransfers::let_go(LobbyPlayer& player, GameId game,
                           const std::optional<NodeInfo>& holder) {
  player.room.reset();
  rooms_.release_seat(player);
  const SeatId id = player.id;
  if (player.is_bot) {
    rooms_.drop_bot(id);
    players_.erase(id);
    return;
  }
  RoutedConnection* connection = host_.connection_of(player);
  if (connection == nullptr) {
    // Away: the game's holder has the player (and its token) now. Nothing
    // is released or revoked: that is the holder's.
    desk_.tokens().forget(id);
    players_.erase(id);
    return;
  }
  if (holder) {
    router_.redirect(*connection, *holder, "", GameId{},
                     "game " + std::to_string(number(game)) + " is held by node " +
                         where_of(*holder) + " now (this node was cut off)");
    return;
  }
  // The game ended elsewhere (or nobody holds it): the player stays here,
  // out of it.
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(number(game));
  host_.reply(player, std::move(left));
  host_.error(player, wire::ERROR_CODE_UNKNOWN_GAME,
              "game " + std::to_string(number(game)) +
                  " went on at another node while this node was cut off: see /history for how "
                  "it ended",
              0);
}

// --- draining -----------------------------------------------------------------------

std::vector<SeatId> NodeTransfers::connected(
    const std::function<bool(const LobbyPlayer&)>& pick) const {
  std::vector<SeatId> seats;
  for (const auto& [seat, player] : players_) {
    if (!player->is_bot && host_.connection_of(*player) != nullptr && pick(*player)) {
      seats.push_back(seat);
    }
  }
  return seats;
}

RoutedConnection* NodeTransfers::still_connected(SeatId seat) {
  LobbyPlayer* player = players_.get(seat);
  return player != nullptr && !player->is_bot ? host_.connection_of(*player) : nullptr;
}

void NodeTransfers::drain() {
  if (draining()) return;
  holdings_.drain();
  spdlog::info("draining: no new games here; players out of a game go to other nodes");
  const std::vector<SeatId> away = connected([](const LobbyPlayer& player) {
    const auto& room = player.room;
    // Playing a game in progress: it plays on here. A game just over whose
    // last words still wait for their write: its players go when they are
    // said (round_may_be_over).
    return !(room && room->is_seated(player.id) && (room->in_progress() || !room->settled()));
  });
  for (SeatId seat : away) {
    RoutedConnection* connection = still_connected(seat);
    if (connection == nullptr) continue;
    if (auto there = cluster_.another_node()) {
      router_.redirect(*connection, *there, "", GameId{}, "this node is being drained");
    }
  }
}

void NodeTransfers::round_may_be_over(GameRoom& room) {
  if (!draining() || room.in_progress() || room.waiting()) return;
  // Not from inside the room's own call: posted, and checked again then (a
  // rematch may have started; the game's last words may still wait for
  // their write, and game_recorded comes when they don't).
  boost::asio::post(logic_, [this, id = room.id()] {
    auto over = rooms_.find(id);
    if (!over || over->in_progress() || !over->settled()) return;
    auto there = cluster_.another_node();
    if (!there) return;
    const std::vector<SeatId> players =
        connected([&over](const LobbyPlayer& player) { return player.room == over; });
    for (SeatId seat : players) {
      if (RoutedConnection* connection = still_connected(seat)) {
        router_.redirect(*connection, *there, "", GameId{}, "this node is being drained");
      }
    }
  });
}

std::size_t NodeTransfers::hand_over() {
  holdings_.freeze();
  std::size_t sent = 0;
  for (SeatId seat : connected([](const LobbyPlayer&) { return true; })) {
    RoutedConnection* connection = still_connected(seat);
    if (connection == nullptr) continue;
    auto there = cluster_.another_node();
    if (!there) break;
    // The player's games were let go in the database: the node it goes to
    // takes them over (adoption) when it arrives.
    if (auto hash = desk_.tokens().hash_of(seat)) {
      cluster_.hold(players_.get(seat)->account, *hash, terms_.token_lifetime, there->id, {});
    }
    desk_.tokens().forget(seat);
    connection->detach();
    if (auto conn = connection->participant()) {
      router_.send_off(
          *conn, *there,
          "this node is going down for an upgrade; your game goes on at node " + where_of(*there));
      ++sent;
    }
  }
  return sent;
}

}  // namespace ttt::server
