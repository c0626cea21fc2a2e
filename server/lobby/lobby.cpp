#include "lobby/lobby.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fstream>

#include "game/house_bot.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
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

}  // namespace

Lobby::Lobby(LobbyLinks links, LobbyConfig config)
    : links_(std::move(links)),
      config_(std::move(config)),
      tokens_(links_.accounts),
      instance_(random_hex(16)) {}

Lobby::~Lobby() = default;

// --- connections ----------------------------------------------------------------

std::shared_ptr<Inbox> Lobby::open(const std::shared_ptr<Participant>& conn) {
  auto connection = std::make_shared<Connection>(*this, conn);
  connections_.insert(connection.get());
  if (shutting_down_) {
    conn->deliver(error_reply(wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", 0,
                              true));
    conn->close();
  }
  return connection;
}

void Lobby::receive(Connection& connection, const wire::ClientMessage& message) {
  if (message.has_hello()) {
    hello(connection, message.hello(), message.request_id());
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
  connections_.erase(&connection);
  LobbyPlayer* player = connection.player;
  connection.player = nullptr;
  if (player == nullptr) return;
  player->conn.reset();
  player->connection = nullptr;
  // Going down: everyone keeps their identity and token, stored, for the
  // next start; nothing is released.
  if (shutting_down_) return;
  unqueue(*player);
  auto room = player->room;
  if (room && room->in_progress() && room->is_seated(player->id)) {
    room->away(player->id);  // the record stays for a resume
    return;
  }
  const SeatId id = player->id;
  if (room) room->leave(id, 0);
  forget(id);
}

void Lobby::hello(Connection& connection, const wire::Hello& hello, std::uint32_t request_id) {
  auto conn = connection.participant();
  if (!conn) return;
  auto refuse = [&](wire::ErrorCode code, std::string text) {
    spdlog::debug("hello refused: {}", text);
    conn->deliver(error_reply(code, std::move(text), request_id, true));
    conn->close();
  };
  if (connection.player != nullptr) {
    conn->deliver(error_reply(wire::ERROR_CODE_ALREADY_HELLO, "Hello was already said",
                              request_id));
    return;
  }
  if (hello.protocol_version() != wire::kProtocolVersion) {
    refuse(wire::ERROR_CODE_VERSION_UNSUPPORTED,
           "this server speaks protocol version " + std::to_string(wire::kProtocolVersion) +
               ", the client " + std::to_string(hello.protocol_version()));
    return;
  }
  if (!hello.resume_token().empty()) {
    const auto holder = tokens_.redeem(hello.resume_token());
    if (!holder) {
      refuse(wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token");
      return;
    }
    if (LobbyPlayer* player = player_of(*holder)) {
      take_back(connection, *player, hello, request_id);
      return;
    }
    // A token kept from before a restart: the player comes back to the lobby.
    const StoredPlayer* account = links_.accounts.get(static_cast<AccountId>(number(*holder)));
    if (account == nullptr || account->is_bot) {
      refuse(wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token");
      return;
    }
    enter(connection, *account, hello, request_id, true, "");
    return;
  }
  if (auto problem = name_problem(hello.name())) {
    refuse(wire::ERROR_CODE_BAD_REQUEST, *problem);
    return;
  }
  if (name_key(hello.name()).starts_with(kBotNamePrefix)) {
    refuse(wire::ERROR_CODE_NAME_TAKEN,
           "names beginning with \"bot (\" belong to the server's bots: choose another name");
    return;
  }
  std::string secret;
  const StoredPlayer* account = links_.accounts.find(name_key(hello.name()));
  if (account != nullptr) {
    if (account->secret_hash.empty() ||
        !equal_constant_time(hash_secret(account->salt, hello.secret()), account->secret_hash)) {
      refuse(wire::ERROR_CODE_NAME_TAKEN, name_taken_text(hello.name(), account->name));
      return;
    }
    if (LobbyPlayer* online = player_of(seat_of(account_id(*account)))) {
      take_back(connection, *online, hello, request_id);
      return;
    }
  } else {
    account = &register_account(nfc_name(hello.name()), secret);
  }
  enter(connection, *account, hello, request_id, false, secret);
}

void Lobby::enter(Connection& connection, const StoredPlayer& account, const wire::Hello& hello,
                  std::uint32_t request_id, bool resumed, const std::string& secret) {
  auto conn = connection.participant();
  if (!conn) return;
  auto player = std::make_unique<LobbyPlayer>();
  player->id = seat_of(account_id(account));
  player->account = account_id(account);
  player->name = account.name;
  player->conn = conn;
  player->connection = &connection;
  player->program = hello.bot();
  player->chat_limiter = RateLimiter(config_.chat_per_second, config_.chat_burst);
  LobbyPlayer& added = *players_.emplace(player->id, std::move(player)).first->second;
  connection.player = &added;
  welcome(added, request_id, resumed, secret);
  // The client's self-description, for the log only; never trusted or echoed.
  const std::string_view client =
      is_printable_utf8(hello.client()) ? std::string_view(hello.client()).substr(0, 64) : "?";
  spdlog::debug("player {} ({}) joined the lobby{}{}", number(added.id), added.name,
                client.empty() ? "" : " with ", client);
}

void Lobby::take_back(Connection& connection, LobbyPlayer& player, const wire::Hello& hello,
                      std::uint32_t request_id) {
  if (auto* old = static_cast<Connection*>(player.connection); old && old != &connection) {
    old->player = nullptr;  // its closing no longer concerns the player
    if (auto old_conn = old->participant()) {
      old_conn->deliver(error_reply(wire::ERROR_CODE_REPLACED,
                                    "this player connected again from elsewhere", 0, true));
      old_conn->close();
    }
  }
  player.conn = connection.weak();
  player.connection = &connection;
  player.program = hello.bot();  // also for players restored after a restart
  connection.player = &player;
  welcome(player, request_id, true, "");
  spdlog::info("player {} ({}) is back", number(player.id), player.name);
  if (player.room) player.room->back(player.ref(), request_id);
}

void Lobby::welcome(LobbyPlayer& player, std::uint32_t request_id, bool resumed,
                    const std::string& secret) {
  // A fresh token on every Hello: an old one stops working.
  const std::string token = tokens_.issue(player.id, player.account);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Welcome* w = message.mutable_welcome();
  w->set_player_id(number(player.id));
  w->set_resume_token(token);
  w->set_protocol_version(wire::kProtocolVersion);
  w->set_server_version(config_.server_version);
  w->set_resumed(resumed);
  w->set_name(player.name);
  w->set_secret(secret);
  w->set_rating(links_.accounts.rating(player.account));
  w->set_server_instance(instance_);
  if (player.room) w->set_game_id(player.room->id());
  reply(player, std::move(message));
}

const StoredPlayer& Lobby::register_account(const std::string& name, std::string& secret) {
  StoredPlayer account;
  account.name = name;
  account.salt = random_hex(16);
  secret = random_hex(32);
  account.secret_hash = hash_secret(account.salt, secret);
  const StoredPlayer& created = links_.accounts.create(std::move(account));
  spdlog::info("new player {} ({})", created.id, name);
  return created;
}

void Lobby::forget(SeatId id) {
  auto it = players_.find(id);
  if (it == players_.end()) return;
  LobbyPlayer& player = *it->second;
  tokens_.revoke(player.id, player.account);
  links_.matchmaker.cancel(player.id);
  // Only a bot is forgotten while connected: its connection ends with it.
  if (auto* connection = static_cast<Connection*>(player.connection)) {
    connection->player = nullptr;
    connections_.erase(connection);
  }
  if (auto bot = bots_.find(id); bot != bots_.end()) bots_.erase(bot);
  players_.erase(it);
}

LobbyPlayer* Lobby::player_of(SeatId id) {
  const auto it = players_.find(id);
  return it == players_.end() ? nullptr : it->second.get();
}

void Lobby::shutdown(const std::string& reason) {
  shutting_down_ = true;
  for (auto& [id, player] : players_) {
    if (player->fallback) player->fallback->cancel();
  }
  if (!links_.accounts.keeps_games()) {
    auto rooms = rooms_;
    for (auto& [id, room] : rooms) room->abort();
  }
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

LobbyStats Lobby::stats() const {
  LobbyStats s;
  s.connections = connections_.size() - bots_.size();
  s.players = players_.size();
  s.rooms = rooms_.size();
  s.queued = links_.matchmaker.waiting();
  s.bots = bots_.size();
  s.games_finished = games_finished_;
  s.accounts = links_.accounts.size();
  return s;
}

// --- requests -------------------------------------------------------------------

void Lobby::dispatch(LobbyPlayer& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  switch (message.body_case()) {
    case wire::ClientMessage::kMakeMove:
    case wire::ClientMessage::kResign:
    case wire::ClientMessage::kOfferDraw:
    case wire::ClientMessage::kRematch: in_room(player, message); break;
    case wire::ClientMessage::kListGames: list_games(player, rid); break;
    case wire::ClientMessage::kCreateGame: create_game(player, message.create_game(), rid); break;
    case wire::ClientMessage::kJoinGame: join_game(player, message.join_game(), rid); break;
    case wire::ClientMessage::kQuickMatch: quick_match(player, message.quick_match(), rid); break;
    case wire::ClientMessage::kSpectate: spectate(player, message.spectate(), rid); break;
    case wire::ClientMessage::kLeave: leave(player, rid); break;
    case wire::ClientMessage::kChat: chat(player, message.chat(), rid); break;
    case wire::ClientMessage::kHello:
      error(player, wire::ERROR_CODE_ALREADY_HELLO, "Hello was already said", rid);
      break;
    case wire::ClientMessage::kGetStats: send_stats(player, rid); break;
    case wire::ClientMessage::kGetLeaderboard:
      leaderboard(player, message.get_leaderboard(), rid);
      break;
    case wire::ClientMessage::kGetHistory: history(player, message.get_history(), rid); break;
    case wire::ClientMessage::kGetReplay: replay(player, message.get_replay(), rid); break;
    case wire::ClientMessage::kPing:
    case wire::ClientMessage::kPong: break;  // answered by the session
    default:
      error(player, wire::ERROR_CODE_UNKNOWN_MESSAGE, "unknown or empty message", rid);
      break;
  }
}

void Lobby::send_stats(LobbyPlayer& player, std::uint32_t request_id) {
  const LobbyStats s = stats();
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::ServerStats* out = message.mutable_stats();
  out->set_connections(s.connections);
  out->set_players(s.players);
  out->set_games(s.rooms);
  out->set_queued(s.queued);
  out->set_bots(s.bots);
  out->set_games_finished(s.games_finished);
  out->set_rss_bytes(resident_memory_bytes());
  reply(player, std::move(message));
}

// --- replies --------------------------------------------------------------------

void Lobby::reply(const LobbyPlayer& player, wire::ServerMessage message) {
  if (auto conn = player.conn.lock()) conn->deliver(make_outbound(std::move(message)));
}

void Lobby::error(const LobbyPlayer& player, wire::ErrorCode code, std::string text,
                  std::uint32_t request_id) {
  spdlog::debug("refused {} ({}): {}", player.name, number(player.id), text);
  send_error(player.conn, code, std::move(text), request_id);
}

}  // namespace ttt::server
