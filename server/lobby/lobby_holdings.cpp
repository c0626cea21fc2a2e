// The Lobby's side of the games it holds among several nodes (GameHoldings
// decides which): a game claimed from a node that is gone comes back here as
// after a restart, its players away until they reconnect, their resume
// tokens held here; a game another node holds now is dropped at once, its
// players told and sent to that node, never registered again; Hellos wait
// while GameHoldings checks what is still this node's. And draining
// (SIGTERM on a node of several): no new games here; players out of a game
// go to another node at once, and each game's players when it is over; at
// the drain's end every player still here is sent on, and the node that
// takes each adopts its game; games are handed over only once settled
// (every write answered and its words said).
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <memory>

#include "executor_check.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "net/replies.hpp"
#include "ttt/count_text.hpp"

namespace ttt::server {

void Lobby::keep_fence() {
  check_executor(deps_.logic, "Lobby::keep_fence");
  holdings_.keep_fence();
}

void Lobby::sweep_orphans() {
  check_executor(deps_.logic, "Lobby::sweep_orphans");
  holdings_.sweep_orphans();
}

void Lobby::game_lost(RecordId record, const std::string& holder) {
  check_executor(deps_.logic, "Lobby::game_lost");
  holdings_.lost(record, holder);
}

bool Lobby::has_room(GameId room) const { return rooms_.contains(room); }

std::vector<RecordId> Lobby::records_here(bool in_progress_only) const {
  return rooms_.records(in_progress_only);
}

bool Lobby::take_over(const ClaimedGame& claimed, const std::string& from) {
  const GameRecord& g = claimed.game;
  for (const auto& player : claimed.players) {
    if (player) deps_.accounts.keep(*player);
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
    cluster().hold(id, claimed.token_hashes[i], config_.token_lifetime, "",
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

void Lobby::held_elsewhere(AccountId account, const std::string& node) {
  if (holdings_.checking()) {
    holdings_.after_check([this, account, node] { held_elsewhere(account, node); });
    return;
  }
  LobbyPlayer* player = player_of(seat_of(account));
  if (player == nullptr || player->inbox == nullptr) return;
  if (player->room && player->room->in_progress() && player->room->is_seated(player->id)) {
    // Its game is this node's (the check said so): the player stays with it.
    spdlog::warn("cluster: player {} plays game {} here while node {} holds it in Redis",
                 number(account), number(player->room->id()), node.substr(0, 64));
    return;
  }
  if (auto there = cluster().node(node)) {
    router_.redirect(*static_cast<Connection*>(player->inbox), *there, "", GameId{},
                     "your player is at node " + where_of(*there));
  }
}

bool Lobby::drop_game(RecordId record, const std::string& holder) {
  const std::shared_ptr<GameRoom> room = rooms_.by_record(record);
  if (!room || room->lost()) return false;
  const GameId id = room->id();
  spdlog::warn("cluster: game {} (room {}) is {} now: this node lets it go", number(record),
               number(id),
               holder.empty() ? std::string("over, or held by nobody") : "held by node " + holder);
  room->lose();
  const auto there = holder.empty() ? std::nullopt : cluster().node(holder);
  std::vector<SeatId> inside;
  for (const auto& [seat, player] : players_) {
    if (player->room == room) inside.push_back(seat);
  }
  for (SeatId seat : inside) {
    if (LobbyPlayer* player = player_of(seat)) let_go(*player, id, there);
  }
  router_.game_gone(id);
  rooms_.drop(*room);
  return true;
}

void Lobby::let_go(LobbyPlayer& player, GameId game, const std::optional<NodeInfo>& holder) {
  player.room.reset();
  rooms_.release_seat(player);
  const SeatId id = player.id;
  if (player.is_bot) {
    rooms_.drop_bot(id);
    players_.erase(id);
    return;
  }
  if (player.inbox == nullptr) {
    // Away: the game's holder has the player (and its token) now. Nothing
    // is released or revoked: that is the holder's.
    desk_.tokens().forget(id);
    players_.erase(id);
    return;
  }
  auto& connection = *static_cast<Connection*>(player.inbox);
  if (holder) {
    router_.redirect(connection, *holder, "", GameId{},
                     "game " + std::to_string(number(game)) + " is held by node " +
                         where_of(*holder) + " now (this node was cut off)");
    return;
  }
  // The game ended elsewhere (or nobody holds it): the player stays here,
  // out of it.
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(number(game));
  reply(player, std::move(left));
  error(player, wire::ERROR_CODE_UNKNOWN_GAME,
        "game " + std::to_string(number(game)) +
            " went on at another node while this node was cut off: see /history for how it "
            "ended",
        0);
}

// --- draining ---------------------------------------------------------------------

std::size_t Lobby::games_in_progress() const {
  check_executor(deps_.logic, "Lobby::games_in_progress");
  return rooms_.in_progress();
}

bool Lobby::settled() const {
  check_executor(deps_.logic, "Lobby::settled");
  return rooms_.settled();
}

void Lobby::send_on_after_game(GameRoom& room) {
  if (room.in_progress() || room.waiting()) return;
  // Not from inside the room's own call: posted, and checked again then (a
  // rematch may have started; the game's last words may still wait for
  // their write, and game_recorded comes when they don't).
  boost::asio::post(deps_.logic, [this, id = room.id()] {
    auto over = find_room(id);
    if (!over || over->in_progress() || !over->settled()) return;
    auto there = cluster().another_node();
    if (!there) return;
    std::vector<Connection*> players;
    for (Connection* connection : connections_) {
      if (connection->player && !connection->player->is_bot && connection->player->room == over) {
        players.push_back(connection);
      }
    }
    for (Connection* connection : players) {
      if (connections_.contains(connection)) {
        router_.redirect(*connection, *there, "", GameId{}, "this node is being drained");
      }
    }
  });
}

void Lobby::drain() {
  check_executor(deps_.logic, "Lobby::drain");
  if (draining()) return;
  holdings_.drain();
  spdlog::info("draining: no new games here; players out of a game go to other nodes");
  std::vector<Connection*> away;
  for (Connection* connection : connections_) {
    LobbyPlayer* player = connection->player;
    if (player == nullptr || player->is_bot) continue;
    const auto& room = player->room;
    // Playing a game in progress: it plays on here. A game just over whose
    // last words still wait for their write: its players go when they are
    // said (send_on_after_game).
    if (room && room->is_seated(player->id) && (room->in_progress() || !room->settled())) continue;
    away.push_back(connection);
  }
  for (Connection* connection : away) {
    if (!connections_.contains(connection)) continue;
    if (auto there = cluster().another_node()) {
      router_.redirect(*connection, *there, "", GameId{}, "this node is being drained");
    }
  }
}

std::size_t Lobby::hand_over() {
  check_executor(deps_.logic, "Lobby::hand_over");
  freeze();
  std::size_t sent = 0;
  const std::vector<Connection*> all(connections_.begin(), connections_.end());
  for (Connection* connection : all) {
    if (!connections_.contains(connection) || connection->player == nullptr ||
        connection->player->is_bot) {
      continue;
    }
    auto there = cluster().another_node();
    if (!there) break;
    // The player's games were let go in the database: the node it goes to
    // takes them over (adoption) when it arrives.
    LobbyPlayer* player = connection->player;
    if (auto hash = desk_.tokens().hash_of(player->id)) {
      cluster().hold(player->account, *hash, config_.token_lifetime, there->id, {});
    }
    desk_.tokens().forget(player->id);
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
