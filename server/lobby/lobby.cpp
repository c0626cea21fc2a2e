#include "lobby/lobby.hpp"
#include <sys/resource.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <boost/asio/post.hpp>

#include <fstream>
#include <unordered_map>

#include "executor_check.hpp"
#include "game/house_bot.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/text_rules.hpp"
#include "net/peer_address.hpp"
#include "net/replies.hpp"
#include "ttt/count_text.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

// The process's resident set size, from /proc (0 where unavailable).
std::uint64_t resident_memory_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  std::uint64_t resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// CPU time the process used so far, user and system, in microseconds.
std::uint64_t process_cpu_us() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  auto micros = [](const timeval& t) {
    return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000 + static_cast<std::uint64_t>(t.tv_usec);
  };
  return micros(usage.ru_utime) + micros(usage.ru_stime);
}

}  // namespace

Lobby::Lobby(LobbyDependencies deps, LobbyConfig config)
    : deps_(std::move(deps)),
      config_(std::move(config)),
      desk_(deps_.accounts, cluster(), deps_.log,
            HelloLimits{config_.token_lifetime, config_.new_names_per_hour,
                        config_.identity_failures},
            [this](SeatId seat) { return players_.contains(seat); }),
      invites_(deps_.directory, *this,
               InviteLimits{config_.invite_failures_per_address, config_.invite_retry}),
      rooms_(deps_.logic, deps_.compute, deps_.accounts, deps_.journal, deps_.directory, deps_.log,
             deps_.room_ids, players_, invites_, *this,
             RoomTerms{.move_timeout = config_.move_timeout,
                       .reconnect_grace = config_.reconnect_grace,
                       .bot_game_grace = config_.bot_game_grace,
                       .max_spectators = config_.max_spectators,
                       .rate_one_address = config_.rate_one_address,
                       .fallback_level = config_.fallback_level,
                       .bot_budget = config_.bot_budget,
                       .bot_threads = config_.bot_threads,
                       .bot_queue = config_.bot_queue,
                       .quotas = config_.quotas,
                       .chat_per_second = config_.chat_per_second,
                       .chat_burst = config_.chat_burst}),
      records_(deps_.accounts, *this),
      quick_match_(deps_.logic, deps_.matchmaker, cluster(), *this, config_.bot_fallback),
      room_desk_(rooms_, invites_, deps_.directory, cluster(), quick_match_, *this,
                 AddressChatRate{config_.address_chat_per_second, config_.address_chat_burst}),
      challenges_(
          deps_.logic, players_, deps_.accounts, cluster(), room_desk_, *this,
          ChallengeTerms{config_.challenge_lifetime, ChallengeLimits{config_.challenges_per_minute,
                                                                     config_.challenge_cooldown}}),
      presence_(
          players_, [this](SeatId id) { return quick_match_.wish_of(id); }, deps_.accounts,
          cluster(), *this, ListPaging{config_.list_page_size, config_.list_page_max}),
      games_list_(deps_.directory, *this,
                  ListPaging{config_.list_page_size, config_.list_page_max}),
      router_(deps_.logic, cluster(), deps_.accounts, desk_, *this,
              RoutingLimits{config_.seat_hold, config_.token_lifetime}),
      single_holders_(cluster()),
      transfers_(deps_.logic, rooms_, players_, desk_, router_, quick_match_, deps_.accounts,
                 cluster(), deps_.holders ? *deps_.holders : single_holders_, *this,
                 TransferTerms{config_.token_lifetime, config_.node_dead_after}),
      admission_(desk_, router_, transfers_.holdings(), players_, rooms_, deps_.accounts, cluster(),
                 deps_.log, *this,
                 AdmissionTerms{.token_lifetime = config_.token_lifetime,
                                .chat_per_second = config_.chat_per_second,
                                .chat_burst = config_.chat_burst,
                                .server_version = config_.server_version,
                                .reconnect_grace = config_.reconnect_grace,
                                .move_timeout = config_.move_timeout,
                                .web_client = config_.web_client,
                                .web_url = config_.web_url,
                                .heartbeat_timeout = config_.heartbeat_timeout}) {}

Lobby::~Lobby() {
  // The accounts and the cluster outlive the lobby: nothing of it is called after.
  deps_.accounts.on_figures({});
  cluster().on_figures({});
}

SingleNode Lobby::single_node_;

// --- a restart --------------------------------------------------------------------

void Lobby::restore(const StoredState& state) {
  // Before serving: no thread runs the logic executor yet, and the one
  // restoring stands in for it (the rooms, bots and callbacks it starts).
  const ExecutorStandIn before_serving;
  rooms_.ids_after(GameId{static_cast<std::uint64_t>(state.max_room_id)});
  const std::unordered_map<std::int64_t, std::string> tokens(state.tokens.begin(),
                                                             state.tokens.end());
  // Each comes back with its players away (until they reconnect with their
  // resume token) and the server's bots in their seats. With several nodes,
  // a node starts with no games: each comes back where one of its players
  // returns (GameHoldings).
  for (const GameRecord& g : state.unfinished_games) rooms_.restore(g);
  // Every kept token works again: a seated player takes the seat back, anyone
  // else comes back to the lobby (and asks again for the place it had).
  for (const auto& [account, hash] : tokens) {
    if (deps_.accounts.get(static_cast<AccountId>(account)) == nullptr) continue;
    desk_.tokens().restore(seat_of(static_cast<AccountId>(account)), hash);
  }
  if (!state.unfinished_games.empty()) {
    spdlog::info("restored {} in progress; their players have {} ms to come back",
                 count_text(state.unfinished_games.size(), "game", "games"),
                 config_.reconnect_grace.count());
  }
}

// --- connections ----------------------------------------------------------------

std::shared_ptr<Inbox> Lobby::open(const std::shared_ptr<Participant>& conn,
                                   const std::string& address) {
  check_executor(deps_.logic, "Lobby::open");
  auto connection = std::make_shared<Connection>(*this, conn, address);
  connections_.insert(connection.get());
  if (shutting_down_) {
    conn->deliver(
        error_reply(wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", 0, true));
    conn->close();
  }
  return connection;
}

void Lobby::receive(Connection& connection, const wire::ClientMessage& message) {
  check_executor(deps_.logic, "Lobby::receive");
  // The node is going: its players are on their way elsewhere.
  if (transfers_.holdings().frozen()) return;
  // Several nodes: after a stall, the games here are checked first.
  transfers_.holdings().stalled();
  if (connection.routing) {
    if (connection.held.size() < Connection::kMaxHeld) {
      connection.held.push_back(message);  // handled once Hello is answered
    } else if (auto conn = connection.participant()) {
      conn->deliver(error_reply(wire::ERROR_CODE_RATE_LIMITED,
                                "too many requests before the answer to Hello",
                                message.request_id(), true));
      conn->close();
    }
    return;
  }
  if (message.has_hello()) {
    admission_.hello(connection, message.hello(), message.request_id());
    return;
  }
  if (connection.player == nullptr) {
    if (auto conn = connection.participant()) {
      conn->deliver(error_reply(wire::ERROR_CODE_HELLO_REQUIRED, "say Hello first",
                                message.request_id(), true));
      conn->close();
    }
    return;
  }
  dispatch(*connection.player, message);
}

void Lobby::replay_held(Connection& connection) {
  // After the Hello's own answer: posted, never inside the call that ended
  // the routing.
  boost::asio::post(deps_.logic, [this, weak = connection.weak_from_this()] {
    auto open = still_open(weak);
    if (!open || open->routing) return;  // routing again: replayed when that ends
    if (open->player == nullptr) {       // refused or sent elsewhere: nothing more here
      open->held.clear();
      return;
    }
    auto held = std::move(open->held);
    open->held.clear();
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (!connections_.contains(open.get())) return;
      if (open->routing) {  // a held message started routing again: the rest wait more
        open->held.insert(open->held.end(), held.begin() + static_cast<std::ptrdiff_t>(i),
                          held.end());
        return;
      }
      open->receive(held[i]);
    }
  });
}

void Lobby::fault(Connection& connection, const char* what) {
  LobbyPlayer* player = connection.player;
  spdlog::error("handling a message from {} failed: {}; closing its connection",
                player ? player->name : std::string("a new connection"), what);
  if (auto conn = connection.participant()) {
    conn->deliver(error_reply(wire::ERROR_CODE_INTERNAL,
                              "the server failed while handling your request", 0, true));
    conn->close();  // its closing is handled as a disconnect
  }
}

void Lobby::closed(Connection& connection) {
  check_executor(deps_.logic, "Lobby::closed");
  connections_.erase(&connection);
  LobbyPlayer* player = connection.player;
  connection.detach();
  if (player == nullptr) return;
  // Going down: everyone keeps their identity and token, stored, for the
  // next start; nothing is released.
  if (shutting_down_) return;
  challenges_.end_all_of(*player);
  quick_match_.withdraw(player->id);
  auto room = player->room;
  if (room && room->in_progress() && room->is_seated(player->id)) {
    room->away(player->id);  // the record stays for a resume
    return;
  }
  const SeatId id = player->id;
  if (room) room->leave(id, 0);
  forget(id);
}

void Lobby::forget(SeatId id) {
  auto it = players_.find(id);
  if (it == players_.end()) return;
  LobbyPlayer& player = *it->second;
  rooms_.release_seat(player);
  if (!player.is_bot) {
    if (auto hash = desk_.tokens().hash_of(player.id)) cluster().release(player.account, *hash);
  }
  desk_.tokens().revoke(player.id, player.account);
  quick_match_.forget(player.id);
  // Only a bot is forgotten while connected: its connection ends with it.
  if (Connection* connection = connection_to(player)) {
    connection->detach();
    connections_.erase(connection);
  }
  rooms_.drop_bot(id);
  players_.erase(it);
}

LobbyPlayer* Lobby::player_of(SeatId id) { return players_.get(id); }

void Lobby::shutdown(const std::string& reason) {
  check_executor(deps_.logic, "Lobby::shutdown");
  shutting_down_ = true;
  quick_match_.stop();
  if (!deps_.accounts.keeps_games()) rooms_.abort_all();
  wire::ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(reason);
  const Outbound message = make_outbound(std::move(goodbye));
  const std::vector<Connection*> connections(connections_.begin(), connections_.end());
  for (Connection* connection : connections) {
    if (auto conn = connection->participant()) {
      conn->deliver(message);
      conn->close();
    }
  }
}

void Lobby::share_presence() {
  check_executor(deps_.logic, "Lobby::share_presence");
  presence_.share();
}

void Lobby::database_waiting(bool waiting) {
  check_executor(deps_.logic, "Lobby::database_waiting");
  wire::ServerMessage message;
  wire::Notice* notice = message.mutable_notice();
  notice->set_code(wire::ERROR_CODE_DATABASE_WAIT);
  notice->set_text(waiting ? "the server is waiting for its database: your moves are kept and "
                             "count once it is back"
                           : "the server's database is back: play goes on");
  const Outbound out = make_outbound(std::move(message));
  for (const auto& [id, player] : players_) {
    if (player->is_bot || !player->room) continue;
    if (auto conn = player->participant.lock()) conn->deliver(out);
  }
}

LobbyStats Lobby::counts() const {
  check_executor(deps_.logic, "Lobby::counts");
  LobbyStats s;
  s.connections = connections_.size() - rooms_.bots();
  s.players = players_.size();
  s.rooms = rooms_.size();
  s.queued = deps_.matchmaker.waiting();
  s.bots = rooms_.bots();
  s.games_finished = rooms_.games_finished();
  s.redirects = router_.redirects();
  s.games_adopted = transfers_.holdings().adopted();
  s.games_lost = transfers_.holdings().lost_count();
  s.accounts = deps_.accounts.size();
  s.bot_searches_waiting = rooms_.bot_searches_waiting();
  s.bot_searches_running = rooms_.bot_searches_running();
  return s;
}

LobbyStats Lobby::stats() const {
  check_executor(deps_.logic, "Lobby::stats");
  LobbyStats s = counts();
  for (const auto& [id, player] : players_) {
    if (player->is_bot) continue;
    ++(player->inbox != nullptr ? s.players_online : s.players_away);
  }
  s.games = rooms_.by_state();
  return s;
}

// --- requests -------------------------------------------------------------------

void Lobby::dispatch(LobbyPlayer& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  switch (message.body_case()) {
    case wire::ClientMessage::kMakeMove:
    case wire::ClientMessage::kResign:
    case wire::ClientMessage::kOfferDraw:
    case wire::ClientMessage::kRematch:
    case wire::ClientMessage::kDecline:
      room_desk_.in_room(player, message);
      break;
    case wire::ClientMessage::kGetProfile:
      records_.profile(player, message.get_profile(), rid);
      break;
    case wire::ClientMessage::kListGames:
      games_list_.list(player, message.list_games(), rid);
      break;
    case wire::ClientMessage::kListPlayers:
      presence_.list(player, message.list_players(), rid);
      break;
    case wire::ClientMessage::kChallenge:
      challenges_.challenge(player, message.challenge(), rid);
      break;
    case wire::ClientMessage::kAnswerChallenge:
      challenges_.answer(player, message.answer_challenge(), rid);
      break;
    case wire::ClientMessage::kChallengeSettings:
      challenges_.settings(player, message.challenge_settings(), rid);
      break;
    case wire::ClientMessage::kBlock:
      challenges_.block(player, message.block(), rid);
      break;
    case wire::ClientMessage::kCreateGame:
      room_desk_.create(player, message.create_game(), rid);
      break;
    case wire::ClientMessage::kJoinGame:
      room_desk_.join(player, message.join_game(), rid);
      break;
    case wire::ClientMessage::kQuickMatch:
      room_desk_.quick_match(player, message.quick_match(), rid);
      break;
    case wire::ClientMessage::kSpectate:
      room_desk_.spectate(player, message.spectate(), rid);
      break;
    case wire::ClientMessage::kLeave:
      room_desk_.leave(player, rid);
      break;
    case wire::ClientMessage::kChat:
      room_desk_.chat(player, message.chat(), rid);
      break;
    case wire::ClientMessage::kHello:
      error(player, wire::ERROR_CODE_ALREADY_HELLO, "Hello was already said", rid);
      break;
    case wire::ClientMessage::kGetStats:
      send_stats(player, message.get_stats(), rid);
      break;
    case wire::ClientMessage::kRotateSecret:
      admission_.rotate_secret(player, message.rotate_secret(), rid);
      break;
    case wire::ClientMessage::kChatSettings:
      room_desk_.chat_settings(player, message.chat_settings(), rid);
      break;
    case wire::ClientMessage::kGetLeaderboard:
      records_.leaderboard(player, message.get_leaderboard(), rid);
      break;
    case wire::ClientMessage::kGetHistory:
      records_.history(player, message.get_history(), rid);
      break;
    case wire::ClientMessage::kGetReplay:
      records_.replay(player, message.get_replay(), rid);
      break;
    case wire::ClientMessage::kPing:
    case wire::ClientMessage::kPong:
      break;  // answered by the session
    default:
      error(player, wire::ERROR_CODE_UNKNOWN_MESSAGE, "unknown or empty message", rid);
      break;
  }
}

void Lobby::send_stats(LobbyPlayer& player, const wire::GetStats& request,
                       std::uint32_t request_id) {
  const LobbyStats s = counts();  // a player's request: nothing that walks every player
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::ServerStats* out = message.mutable_stats();
  // What a player needs to see the server is alive and busy...
  out->set_players(s.players);
  out->set_games(s.rooms);
  out->set_queued(s.queued);
  out->set_games_finished(s.games_finished);
  // ...and what only its operator does (a player learns nothing from the
  // server's memory, e.g. whether a flood works). A wrong token counts as a
  // wrong secret does: past a few, the network waits before the next is
  // even looked at, the right one included.
  bool operator_view = false;
  if (!request.operator_token().empty()) {
    const auto right =
        desk_.operator_token(request.operator_token(), config_.stats_token, player.address);
    if (!right) {
      error(player, wire::ERROR_CODE_IDENTITY_LOCKED,
            "too many wrong operator tokens from your address: try again later", request_id);
      return;
    }
    operator_view = *right;
  }
  if (operator_view) {
    out->set_operator_view(true);
    out->set_connections(s.connections);
    out->set_bots(s.bots);
    out->set_rss_bytes(resident_memory_bytes());
    out->set_cpu_us(process_cpu_us());
    out->set_read_buffer_bytes(deps_.read_budget ? deps_.read_budget->used() : 0);
    out->set_bot_searches_waiting(s.bot_searches_waiting);
  }
  reply(player, std::move(message));
}

// --- replies --------------------------------------------------------------------

void Lobby::reply(const LobbyPlayer& player, wire::ServerMessage message) {
  if (auto conn = player.participant.lock()) conn->deliver(make_outbound(std::move(message)));
}

void Lobby::error(const LobbyPlayer& player, wire::ErrorCode code, std::string text,
                  std::uint32_t request_id) {
  spdlog::debug("refused {} ({}): {}", player.name, number(player.id), text);
  send_error(player.participant, code, std::move(text), request_id);
}

// --- rooms and seats: what RoomRegistry, RoomDesk, QuickMatch and ChallengeDesk ask

RateLimiter* Lobby::invite_tries(const LobbyPlayer& player) {
  Connection* connection = connection_to(player);
  return connection != nullptr ? &connection->invite_failures : nullptr;
}

std::shared_ptr<GameRoom> Lobby::open_challenge_game(LobbyPlayer& challenger,
                                                     LobbyPlayer& challenged,
                                                     const wire::Challenge& settings,
                                                     std::uint32_t request_id) {
  // Both leave what they watch or wait for: the game starts now.
  for (LobbyPlayer* p : {&challenger, &challenged}) {
    quick_match_.withdraw(p->id);
    if (auto watched = p->room) watched->leave(p->id, 0);
  }
  return rooms_.open_challenge_game(challenger, challenged, settings, request_id);
}

std::shared_ptr<GameRoom> Lobby::open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                           LobbyPlayer* player, const MatchRequest& rules,
                                           std::uint32_t request_id) {
  return rooms_.open_pair(waiting, waiting_rated, player, rules, request_id);
}

void Lobby::send_to_seat(LobbyPlayer& player, const NodeInfo& node, const std::string& reservation,
                         GameId game, const std::string& reason) {
  if (Connection* connection = connection_to(player)) {
    router_.redirect(*connection, node, reservation, game, reason);
  }
}

bool Lobby::bot_free_for(const LobbyPlayer& player) {
  return rooms_.quota_refusal(player.address, true).empty() && !rooms_.bots_busy();
}

void Lobby::play_bot(LobbyPlayer& player, const MatchRequest& rules) {
  rooms_.play_bot(player, rules);
}

void Lobby::connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) {
  auto connection = std::static_pointer_cast<Connection>(open(house_bot, ""));
  house_bot->attach(connection);
  connection->attach(bot);
}

void Lobby::took_seat(LobbyPlayer& player) { challenges_.end_all_of(player); }

void Lobby::round_may_be_over(GameRoom& room) { transfers_.round_may_be_over(room); }

// --- several nodes: the drain and the games this node holds (NodeTransfers) --------

void Lobby::drain() {
  check_executor(deps_.logic, "Lobby::drain");
  transfers_.drain();
}

std::size_t Lobby::games_in_progress() const {
  check_executor(deps_.logic, "Lobby::games_in_progress");
  return rooms_.in_progress();
}

bool Lobby::settled() const {
  check_executor(deps_.logic, "Lobby::settled");
  return rooms_.settled();
}

std::size_t Lobby::hand_over() {
  check_executor(deps_.logic, "Lobby::hand_over");
  return transfers_.hand_over();
}

void Lobby::game_lost(RecordId record, const std::string& holder) {
  check_executor(deps_.logic, "Lobby::game_lost");
  transfers_.holdings().lost(record, holder);
}

void Lobby::keep_fence() {
  check_executor(deps_.logic, "Lobby::keep_fence");
  transfers_.holdings().keep_fence();
}

void Lobby::sweep_orphans() {
  check_executor(deps_.logic, "Lobby::sweep_orphans");
  transfers_.holdings().sweep_orphans();
}

// --- several nodes: moving clients (NodeRouter) ------------------------------------

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
  cluster().on_restored([this](bool forgotten) { transfers_.register_again(forgotten); });
  // Every node's leaderboard and profiles follow the results the others commit.
  deps_.accounts.on_figures(
      [this](const StoredPlayer& account) { cluster().share_figures(account); });
  cluster().on_figures(
      [this](const StoredPlayer& account) { deps_.accounts.take_figures(account); });
}

// --- RoutingHost -------------------------------------------------------------------

Lobby::Connection* Lobby::connection_to(const LobbyPlayer& player) {
  // Every player's inbox is a connection of this lobby's (attach).
  return static_cast<Connection*>(player.inbox);
}

RoutedConnection* Lobby::connection_of(const LobbyPlayer& player) { return connection_to(player); }

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
  if (Connection* connection = connection_to(player)) connection->detach();
  if (LobbyPlayer* still = player_of(id); still && !still->room) {
    rooms_.release_seat(*still);
    players_.erase(id);
  }
}

void Lobby::enter_sent(RoutedConnection& connection, const StoredPlayer& account,
                       const wire::Hello& hello, std::uint32_t request_id,
                       const std::function<void(LobbyPlayer&)>& place) {
  if (LobbyPlayer* held = player_of(seat_of(account_id(account)))) {
    admission_.take_back(connection, *held, hello, request_id);  // (rare: it was here already)
    place(*held);
    return;
  }
  admission_.enter(connection, account, hello, request_id, true, "", place);
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
