// The Lobby among several nodes, as the NodeRouter's host: what moving a
// client between nodes asks of the lobby (a player handed off, a player sent
// here let in and seated, its challenge made here), and serving the other
// nodes' seat requests and figures, and registering again the players held
// here when the shared state is back. Where a Hello's player is held is the
// HelloDesk's question; sending clients and keeping seats is the NodeRouter's.
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::server {

std::shared_ptr<Lobby::Connection> Lobby::still_open(
    const std::weak_ptr<Connection>& connection) const {
  auto open = connection.lock();
  if (!open || !open->participant() || !connections_.contains(open.get())) return nullptr;
  return open;
}

void Lobby::serve_other_nodes() {
  cluster().serve_seats([this](const SeatRequest& request, Cluster::SeatDone reply) {
    router_.seat_request(request, reply);
  });
  cluster().on_restored([this](bool forgotten) { register_again(forgotten); });
  // Every node's leaderboard and profiles follow the results the others commit.
  deps_.accounts.on_figures(
      [this](const StoredPlayer& account) { cluster().share_figures(account); });
  cluster().on_figures(
      [this](const StoredPlayer& account) { deps_.accounts.take_figures(account); });
}

void Lobby::register_again(bool forgotten) {
  deps_.accounts.refresh_figures();  // the results other nodes committed meanwhile
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

// --- RoutingHost -------------------------------------------------------------------

RoutedConnection* Lobby::connection_of(const LobbyPlayer& player) {
  return static_cast<Connection*>(player.inbox);
}

std::shared_ptr<RoutedConnection> Lobby::still_open(
    const std::weak_ptr<RoutedConnection>& connection) const {
  // The router routes only this lobby's connections.
  auto open = connection.lock();
  if (!open) return nullptr;
  return still_open(std::weak_ptr<Connection>(std::static_pointer_cast<Connection>(open)));
}

void Lobby::hand_off(LobbyPlayer& player) {
  const SeatId id = player.id;
  challenges_.end_all_of(player);
  quick_match_.withdraw(id);
  if (player.room) player.room->leave(id, 0);
  desk_.tokens().forget(id);
  if (auto* connection = static_cast<Connection*>(player.inbox)) connection->detach();
  if (LobbyPlayer* still = player_of(id); still && !still->room) {
    rooms_.release_seat(*still);
    players_.erase(id);
  }
}

void Lobby::enter_sent(RoutedConnection& connection, const StoredPlayer& account,
                       const wire::Hello& hello, std::uint32_t request_id,
                       const std::function<void(LobbyPlayer&)>& place) {
  if (LobbyPlayer* held = player_of(seat_of(account_id(account)))) {
    entrance_.take_back(connection, *held, hello, request_id);  // (rare: it was here already)
    place(*held);
    return;
  }
  entrance_.enter(connection, account, hello, request_id, true, "", place);
}

void Lobby::took_kept_seat(LobbyPlayer& player, wire::Rated asked) {
  if (!RoomRegistry::allows_rating(player, asked)) player.room->make_unrated();
  rooms_.took_seat(player);
}

void Lobby::challenge_here(LobbyPlayer& player, const wire::Challenge& made) {
  challenges_.challenge(player, made, 0);
}

std::optional<std::pair<wire::ErrorCode, std::string>> Lobby::challenge_refusal(
    const LobbyPlayer& target, AccountId from) const {
  return challenges_.refusal(target, from);
}

void Lobby::seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                           std::uint32_t request_id) {
  router_.seat_elsewhere(player, to, std::move(request), request_id);
}

LobbyPlayer* Lobby::online(std::string_view name) { return players_.online(name_key(name)); }

std::shared_ptr<GameRoom> Lobby::seat_for_newcomer(const SeatRequest& request) {
  return quick_match_.seat_for_newcomer(request);
}

void Lobby::wait_again(SeatId waiting, const SeatRequest& request) {
  quick_match_.wait_again(waiting, request);
}

}  // namespace ttt::server
