// The Lobby draining (SIGTERM on a node of several): no new games here;
// players out of a game go to another node at once, and each game's players
// when it is over; at the drain's end every player still here is sent on,
// and the node that takes each adopts its game (GameHoldings); games are
// handed over only once settled (every write answered and its words said).
// Also: the players held here registered again when Redis is back.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "executor_check.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"

namespace ttt::server {
// --- draining ---------------------------------------------------------------------

std::size_t Lobby::games_in_progress() const {
  check_executor(links_.logic, "Lobby::games_in_progress");
  return rooms_.in_progress();
}

bool Lobby::settled() const {
  check_executor(links_.logic, "Lobby::settled");
  return rooms_.settled();
}

void Lobby::send_on_after_game(GameRoom& room) {
  if (room.in_progress() || room.waiting()) return;
  // Not from inside the room's own call: posted, and checked again then (a
  // rematch may have started; the game's last words may still wait for
  // their write, and game_recorded comes when they don't).
  boost::asio::post(links_.logic, [this, id = room.id()] {
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
  check_executor(links_.logic, "Lobby::drain");
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
  check_executor(links_.logic, "Lobby::hand_over");
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
    connection->player = nullptr;
    player->inbox = nullptr;
    player->participant.reset();
    if (auto conn = connection->participant()) {
      router_.send_off(
          *conn, *there,
          "this node is going down for an upgrade; your game goes on at node " + where_of(*there));
      ++sent;
    }
  }
  return sent;
}

void Lobby::register_again(bool forgotten) {
  links_.accounts.refresh_figures();  // the results other nodes committed meanwhile
  for (const auto& [id, player] : players_) {
    if (player->is_bot) continue;
    if (auto hash = desk_.tokens().hash_of(id)) {
      // Not taken back from a live node that holds the player now (this
      // node may have looked dead meanwhile).
      cluster().hold(player->account, *hash, config_.token_lifetime, "",
                     [this, account = player->account](const std::string& elsewhere) {
                       if (elsewhere.empty()) return;
                       holdings_.check();
                       held_elsewhere(account, elsewhere);
                     });
    }
  }
  // Redis lost the queues: whoever waited here waits again (at the back).
  if (forgotten) quick_match_.ask_again_all();
}

}  // namespace ttt::server
