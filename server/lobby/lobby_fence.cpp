// The Lobby fenced among several nodes. Another node takes a game from this
// one only when both its heartbeats (Redis and the database) are older than
// the dead limit, and every write of a game here is made only while this
// node holds it (the database refuses it otherwise: store/). So a node that
// only looked dead (stopped, cut off) writes nothing to a game another node
// took; and as soon as it learns so, it drops that room: at a refused
// write, or when it notices it may have looked dead (its heartbeats or its
// own executor stalled past the dead limit) and asks the database which of
// its games are still its own. Its players are sent to the game's holder,
// and the room is never registered again. Hellos wait for that answer.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "executor_check.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "net/replies.hpp"

namespace ttt::server {

using std::chrono::steady_clock;

void Lobby::keep_fence() {
  check_executor(links_.logic, "Lobby::keep_fence");
  if (links_.holders == nullptr || !cluster().shared()) return;
  stalled();
  const auto now = steady_clock::now();
  fence_tick_ = now;
  if (!db_beat_pending_ && !handed_over_) {
    db_beat_pending_ = true;
    links_.holders->beat(cluster().self(), [this](bool ok, steady_clock::time_point ran) {
      db_beat_pending_ = false;
      if (!ok) return;
      // The database may have judged this node dead meanwhile: a beat that
      // comes after a gap past the dead limit has the holdings checked.
      if (ran - db_beat_ > config_.node_dead_after) check_holdings();
      db_beat_ = std::max(db_beat_, ran);
    });
  }
  // Both heartbeats stale: the others may take this node's games now.
  const auto dead = config_.node_dead_after;
  if (now - db_beat_ > dead && now - cluster().last_beat() > dead) check_holdings();
}

bool Lobby::stalled() {
  if (links_.holders == nullptr || !cluster().shared()) return false;
  const auto now = steady_clock::now();
  if (now - fence_tick_ <= config_.node_dead_after) return false;
  spdlog::warn(
      "cluster: this node did not run for {} ms (stopped, or overloaded): other nodes "
      "may have taken its games; checking which are still its own",
      std::chrono::duration_cast<std::chrono::milliseconds>(now - fence_tick_).count());
  fence_tick_ = now;
  check_holdings();
  return true;
}

void Lobby::check_holdings() {
  if (links_.holders == nullptr) return;
  if (checking_) {
    check_again_ = true;
    return;
  }
  checking_ = true;
  // The games in progress here as they are now: a game that starts later
  // is written after this read and is not judged by it.
  std::vector<RecordId> records;
  for (const auto& [id, room] : rooms_) {
    if (room->in_progress() && room->record_id() != 0) records.push_back(room->record_id());
  }
  links_.holders->holders_of(records, [this, records](auto holders) {
    checking_ = false;
    if (!holders) {
      // Not answered (the database is away): asked again; Hellos wait on.
      check_again_ = true;
    } else {
      std::size_t lost = 0;
      for (RecordId record : records) {
        const auto it = holders->find(record);
        if (it == holders->end() || it->second == cluster().self().id) continue;
        game_lost(record, it->second);
        ++lost;
      }
      spdlog::info("cluster: checked the {} games in progress here: {} held by other nodes now",
                   records.size(), lost);
    }
    if (check_again_) {
      check_again_ = false;
      // Not at once when the database did not answer: the writer retries.
      boost::asio::post(links_.logic, [this] { check_holdings(); });
      return;
    }
    auto waiting = std::move(deferred_hellos_);
    deferred_hellos_.clear();
    for (auto& deferred : waiting) {
      auto open = still_open(deferred.connection);
      if (!open) continue;
      open->end_routing();
      hello(*open, deferred.hello, deferred.request_id);
    }
    auto elsewhere = std::move(held_elsewhere_);
    held_elsewhere_.clear();
    for (const auto& [account, node] : elsewhere) held_elsewhere(account, node);
  });
}

bool Lobby::defer_hello(Connection& connection, const wire::Hello& hello,
                        std::uint32_t request_id) {
  stalled();
  if (!checking_) return false;
  constexpr std::size_t kMostDeferred = 10'000;
  if (deferred_hellos_.size() >= kMostDeferred) {
    if (auto conn = connection.participant()) {
      conn->deliver(error_reply(wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                                "this node is checking which games are its own: try again in a "
                                "moment",
                                request_id, true));
      conn->close();
    }
    return true;
  }
  connection.begin_routing();
  deferred_hellos_.push_back({connection.weak_from_this(), hello, request_id});
  return true;
}

void Lobby::held_elsewhere(AccountId account, const std::string& node) {
  if (checking_) {
    held_elsewhere_.emplace_back(account, node);
    return;
  }
  LobbyPlayer* player = player_of(seat_of(account));
  if (player == nullptr || player->connection == nullptr) return;
  if (player->room && player->room->in_progress() && player->room->is_seated(player->id)) {
    // Its game is this node's (the check said so): the player stays with it.
    spdlog::warn("cluster: player {} plays game {} here while node {} holds it in Redis",
                 number(account), player->room->id(), node.substr(0, 64));
    return;
  }
  if (auto there = cluster().node(node)) {
    redirect(*static_cast<Connection*>(player->connection), *there, "", 0,
             "your player is at node " + where_of(*there));
  }
}

void Lobby::game_lost(RecordId record, const std::string& holder) {
  check_executor(links_.logic, "Lobby::game_lost");
  std::shared_ptr<GameRoom> room;
  for (const auto& [id, r] : rooms_) {
    if (r->record_id() == record) room = r;
  }
  if (!room || room->lost()) return;
  const GameId id = room->id();
  spdlog::warn("cluster: game {} (room {}) is {} now: this node lets it go", record, id,
               holder.empty() ? std::string("over, or held by nobody") : "held by node " + holder);
  ++games_lost_;
  room->lose();
  const auto there = holder.empty() ? std::nullopt : cluster().node(holder);
  std::vector<SeatId> inside;
  for (const auto& [seat, player] : players_) {
    if (player->room == room) inside.push_back(seat);
  }
  for (SeatId seat : inside) {
    if (LobbyPlayer* player = player_of(seat)) let_go(*player, id, there);
  }
  if (!room->settings().invite_code.empty()) {
    invites_.erase(normalize_invite_code(room->settings().invite_code));
  }
  reservations_.game_gone(id);
  // Withdrawn only if the listing is still what this node wrote.
  links_.directory.withdraw(id);
  rooms_.erase(id);
}

void Lobby::let_go(LobbyPlayer& player, GameId game, const std::optional<NodeInfo>& holder) {
  player.room.reset();
  release_quota(player);
  const SeatId id = player.id;
  if (player.is_bot) {
    bots_.erase(id);
    players_.erase(id);
    return;
  }
  if (player.connection == nullptr) {
    // Away: the game's holder has the player (and its token) now. Nothing
    // is released or revoked: that is the holder's.
    tokens_.forget(id);
    players_.erase(id);
    return;
  }
  auto& connection = *static_cast<Connection*>(player.connection);
  if (holder) {
    redirect(connection, *holder, "", 0,
             "game " + std::to_string(game) + " is held by node " + where_of(*holder) +
                 " now (this node was cut off)");
    return;
  }
  // The game ended elsewhere (or nobody holds it): the player stays here,
  // out of it.
  wire::ServerMessage left;
  left.mutable_left()->set_game_id(game);
  reply(player, std::move(left));
  error(player, wire::ERROR_CODE_UNKNOWN_GAME,
        "game " + std::to_string(game) +
            " went on at another node while this node was cut off: see /history for how it "
            "ended",
        0);
}

}  // namespace ttt::server
