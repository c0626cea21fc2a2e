#include "lobby/lobby.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fstream>

#include "game/house_bot.hpp"
#include "net/replies.hpp"
#include "lobby/secrets.hpp"
#include "store/store_writer.hpp"
#include "lobby/text_rules.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {
namespace {

// The server's bots are called "bot (LEVEL)"; players can't take such names.
constexpr std::string_view kBotNamePrefix = "bot (";

constexpr int kMinBoardSize = 3;
constexpr int kMaxBoardSize = 15;

// The process's resident set size, from /proc (0 where unavailable).
std::uint64_t resident_memory_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  std::uint64_t resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::optional<Level> level_of(wire::BotLevel level) {
  switch (level) {
    case wire::BOT_LEVEL_RANDOM: return Level::Random;
    case wire::BOT_LEVEL_EASY: return Level::Easy;
    case wire::BOT_LEVEL_MEDIUM: return Level::Medium;
    case wire::BOT_LEVEL_HARD: return Level::Hard;
    case wire::BOT_LEVEL_UNSPECIFIED:
    case wire::BOT_LEVEL_PERFECT: return Level::Perfect;
    default: return std::nullopt;
  }
}

}  // namespace

Lobby::Lobby(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
             LobbyConfig config, StoreWriter* store)
    : logic_(std::move(logic)),
      compute_(std::move(compute)),
      config_(std::move(config)),
      store_(store),
      rng_(std::random_device{}()) {}

Lobby::~Lobby() = default;

// --- connections ----------------------------------------------------------------

void Lobby::connected(const std::shared_ptr<Participant>& conn) {
  connections_[conn.get()] = Connection{conn, 0};
  if (shutting_down_) {
    conn->deliver(error_reply(wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", 0,
                              true));
    conn->close();
  }
}

void Lobby::receive(const std::shared_ptr<Participant>& conn, const wire::ClientMessage& message) {
  auto it = connections_.find(conn.get());
  if (it == connections_.end()) return;  // a connection already gone or replaced
  Connection& record = it->second;
  if (message.has_hello()) {
    hello(conn, record, message.hello(), message.request_id());
    return;
  }
  auto player = players_.find(record.player);
  if (record.player == 0 || player == players_.end()) {
    conn->deliver(error_reply(wire::ERROR_CODE_HELLO_REQUIRED, "say Hello first",
                              message.request_id(), true));
    conn->close();
    return;
  }
  dispatch(player->second, message);
}

void Lobby::hello(const std::shared_ptr<Participant>& conn, Connection& record,
                  const wire::Hello& hello, std::uint32_t request_id) {
  auto refuse = [&](wire::ErrorCode code, std::string text) {
    spdlog::debug("hello refused: {}", text);
    conn->deliver(error_reply(code, std::move(text), request_id, true));
    conn->close();
  };
  if (record.player != 0) {
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
    auto token = tokens_.find(sha256_hex(hello.resume_token()));
    if (token == tokens_.end()) {
      refuse(wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token");
      return;
    }
    take_back(conn, record, players_.at(token->second), hello, request_id);
    return;
  }
  if (!is_valid_name(hello.name())) {
    refuse(wire::ERROR_CODE_BAD_REQUEST,
           "a name is 1 to " + std::to_string(kMaxNameBytes) +
               " printable characters without leading or trailing spaces");
    return;
  }
  if (name_key(hello.name()).starts_with(kBotNamePrefix)) {
    refuse(wire::ERROR_CODE_NAME_TAKEN,
           "names beginning with \"bot (\" belong to the server's bots: choose another name");
    return;
  }
  std::string secret;
  StoredPlayer* account = nullptr;
  if (auto known = account_names_.find(name_key(hello.name())); known != account_names_.end()) {
    account = &accounts_.at(known->second);
    if (account->secret_hash.empty() ||
        !equal_constant_time(hash_secret(account->salt, hello.secret()), account->secret_hash)) {
      refuse(wire::ERROR_CODE_NAME_TAKEN,
             "the name '" + account->name +
                 "' belongs to another player: give its secret, or choose another name");
      return;
    }
    if (auto online = players_.find(account->id); online != players_.end()) {
      take_back(conn, record, online->second, hello, request_id);
      return;
    }
  } else {
    account = &register_account(hello.name(), secret);
  }
  PlayerRecord player;
  player.id = account->id;
  player.account_id = account->id;
  player.name = account->name;
  player.conn = conn;
  player.program = hello.bot();
  player.chat_limiter = RateLimiter(config_.chat_per_second, config_.chat_burst);
  record.player = player.id;
  auto [it, inserted] = players_.emplace(player.id, std::move(player));
  welcome(it->second, request_id, false, secret);
  // The client's self-description, for the log only; never trusted or echoed.
  const std::string_view client =
      is_printable_utf8(hello.client()) ? std::string_view(hello.client()).substr(0, 64) : "?";
  spdlog::debug("player {} ({}) joined the lobby{}{}", it->second.id, it->second.name,
                client.empty() ? "" : " with ", client);
}

void Lobby::take_back(const std::shared_ptr<Participant>& conn, Connection& record,
                      PlayerRecord& player, const wire::Hello& hello, std::uint32_t request_id) {
  if (auto old = player.conn.lock(); old && old != conn) {
    old->deliver(error_reply(wire::ERROR_CODE_REPLACED,
                             "this player connected again from elsewhere", 0, true));
    old->close();
    connections_.erase(old.get());
  }
  player.conn = conn;
  player.program = hello.bot();  // also for players restored after a restart
  record.player = player.id;
  welcome(player, request_id, true, "");
  spdlog::info("player {} ({}) is back", player.id, player.name);
  if (auto room = room_of(player)) room->back(ref(player), request_id);
}

void Lobby::welcome(PlayerRecord& player, std::uint32_t request_id, bool resumed,
                    const std::string& secret) {
  // A fresh token on every Hello: an old one stops working.
  const std::string token = random_hex(32);
  set_token(player, token);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Welcome* w = message.mutable_welcome();
  w->set_player_id(player.id);
  w->set_resume_token(token);
  w->set_protocol_version(wire::kProtocolVersion);
  w->set_server_version(config_.server_version);
  w->set_resumed(resumed);
  w->set_name(player.name);
  w->set_secret(secret);
  w->set_rating(accounts_.at(player.account_id).rating);
  reply(player, std::move(message));
}

void Lobby::set_token(PlayerRecord& player, const std::string& token) {
  if (!player.token_hash.empty()) tokens_.erase(player.token_hash);
  player.token_hash = sha256_hex(token);
  tokens_[player.token_hash] = player.id;
  journal([id = player.account_id, hash = player.token_hash](Store& s) { s.save_token(id, hash); },
          {});
}

StoredPlayer& Lobby::register_account(const std::string& name, std::string& secret) {
  StoredPlayer account;
  account.id = static_cast<std::int64_t>(next_account_id_++);
  account.name = name;
  account.salt = random_hex(16);
  secret = random_hex(32);
  account.secret_hash = hash_secret(account.salt, secret);
  journal([account](Store& s) { s.save_player(account); }, {});
  account_names_[name_key(name)] = static_cast<PlayerId>(account.id);
  spdlog::info("new player {} ({})", account.id, name);
  return accounts_[static_cast<PlayerId>(account.id)] = std::move(account);
}

void Lobby::disconnected(Participant* conn) {
  auto it = connections_.find(conn);
  if (it == connections_.end()) return;
  const PlayerId id = it->second.player;
  connections_.erase(it);
  auto player = players_.find(id);
  if (player == players_.end()) return;
  player->second.conn.reset();
  unqueue(player->second);
  auto room = room_of(player->second);
  if (room && room->in_progress() && room->is_seated(id)) {
    room->away(id);  // the record stays for a resume
    return;
  }
  if (room) room->leave(id, 0);
  forget(id);
}

void Lobby::forget(PlayerId id) {
  auto player = players_.find(id);
  if (player == players_.end()) return;
  if (!player->second.token_hash.empty()) {
    tokens_.erase(player->second.token_hash);
    journal([account = player->second.account_id](Store& s) { s.drop_token(account); }, {});
  }
  fallback_timers_.erase(id);
  if (auto bot = bots_.find(id); bot != bots_.end()) {
    connections_.erase(bot->second.get());
    bots_.erase(bot);
  }
  players_.erase(player);
}

void Lobby::shutdown(const std::string& reason) {
  shutting_down_ = true;
  for (auto& [id, timer] : fallback_timers_) timer->cancel();
  if (!store_) {
    auto rooms = rooms_;
    for (auto& [id, room] : rooms) room->abort();
  }
  wire::ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(reason);
  const Outbound message = make_outbound(std::move(goodbye));
  auto connections = connections_;
  for (auto& [raw, record] : connections) {
    if (auto conn = record.conn.lock()) {
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
  for (const auto& [size, queue] : queues_) s.queued += queue.size();
  s.bots = bots_.size();
  s.games_finished = games_finished_;
  s.accounts = accounts_.size();
  return s;
}

// --- requests -------------------------------------------------------------------

void Lobby::dispatch(PlayerRecord& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  switch (message.body_case()) {
    case wire::ClientMessage::kListGames: list_games(player, rid); break;
    case wire::ClientMessage::kCreateGame: create_game(player, message.create_game(), rid); break;
    case wire::ClientMessage::kJoinGame: join_game(player, message.join_game(), rid); break;
    case wire::ClientMessage::kQuickMatch: quick_match(player, message.quick_match(), rid); break;
    case wire::ClientMessage::kSpectate: spectate(player, message.spectate(), rid); break;
    case wire::ClientMessage::kLeave: leave(player, rid); break;
    case wire::ClientMessage::kChat: chat(player, message.chat(), rid); break;
    case wire::ClientMessage::kMakeMove:
    case wire::ClientMessage::kResign:
    case wire::ClientMessage::kOfferDraw:
    case wire::ClientMessage::kRematch: in_room(player, message); break;
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

void Lobby::send_stats(PlayerRecord& player, std::uint32_t request_id) {
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

void Lobby::list_games(PlayerRecord& player, std::uint32_t request_id) {
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::GameList* list = message.mutable_game_list();
  for (const auto& [id, room] : rooms_) *list->add_games() = room->summary();
  reply(player, std::move(message));
}

bool Lobby::valid_size(PlayerRecord& player, int size, std::uint32_t request_id) {
  if (size >= kMinBoardSize && size <= kMaxBoardSize) return true;
  error(player, wire::ERROR_CODE_BAD_REQUEST,
        "board size must be " + std::to_string(kMinBoardSize) + " to " +
            std::to_string(kMaxBoardSize) + ", got " + std::to_string(size),
        request_id);
  return false;
}

bool Lobby::can_enter(PlayerRecord& player, std::uint32_t request_id) {
  if (shutting_down_) {
    error(player, wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", request_id);
    return false;
  }
  if (player.room != 0) {
    error(player, wire::ERROR_CODE_ALREADY_IN_GAME,
          "you are already in game " + std::to_string(player.room) + ": leave it first",
          request_id);
    return false;
  }
  unqueue(player);
  return true;
}

bool Lobby::allows_rating(const PlayerRecord& player, wire::Rated asked) {
  if (asked == wire::RATED_YES) return true;
  if (asked == wire::RATED_NO) return false;
  return !player.program;
}

void Lobby::create_game(PlayerRecord& player, const wire::CreateGame& create,
                        std::uint32_t request_id) {
  if (!valid_size(player, create.size(), request_id)) return;
  const auto level = level_of(create.bot_level());
  if (create.vs_bot() && !level) {
    error(player, wire::ERROR_CODE_BAD_REQUEST, "unknown bot level", request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  RoomSettings settings;
  settings.size = create.size();
  settings.is_private = create.is_private();
  settings.vs_bot = create.vs_bot();
  if (create.vs_bot()) settings.bot_level = static_cast<int>(*level) + 1;
  // Against the server's bot, only when asked: the bot's default is no.
  settings.rated = create.vs_bot() ? create.rated() == wire::RATED_YES
                                   : allows_rating(player, create.rated());
  if (settings.is_private) settings.invite_code = random_invite_code();
  auto room = new_room(std::move(settings));
  const wire::Side side = create.side() == wire::SIDE_O ? wire::SIDE_O : wire::SIDE_X;
  player.room = room->id();
  room->seat(ref(player), side, request_id);
  spdlog::debug("game {} created by {} ({}x{}{}{})", room->id(), player.name, create.size(),
                create.size(), create.is_private() ? ", private" : "",
                create.vs_bot() ? ", vs bot" : "");
  if (create.vs_bot()) add_bot(room, *level, side == wire::SIDE_X ? wire::SIDE_O : wire::SIDE_X);
}

void Lobby::join_game(PlayerRecord& player, const wire::JoinGame& join,
                      std::uint32_t request_id) {
  GameId id = join.game_id();
  if (id == 0) {
    auto invite = invites_.find(join.invite_code());
    if (join.invite_code().empty() || invite == invites_.end()) {
      error(player, wire::ERROR_CODE_WRONG_INVITE_CODE, "no game has that invite code",
            request_id);
      return;
    }
    id = invite->second;
  }
  auto it = rooms_.find(id);
  if (it == rooms_.end()) {
    error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(id), request_id);
    return;
  }
  auto room = it->second;
  if (room->settings().is_private && join.invite_code() != room->settings().invite_code) {
    error(player, wire::ERROR_CODE_WRONG_INVITE_CODE,
          "game " + std::to_string(id) + " is private: a matching invite code is needed",
          request_id);
    return;
  }
  if (!room->waiting()) {
    error(player, wire::ERROR_CODE_GAME_FULL,
          "game " + std::to_string(id) + " has no free seat (watch it instead)", request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  if (!allows_rating(player, join.rated())) room->make_unrated();
  player.room = id;
  room->seat(ref(player), wire::SIDE_NONE, request_id);
}

void Lobby::quick_match(PlayerRecord& player, const wire::QuickMatch& quick,
                        std::uint32_t request_id) {
  if (!valid_size(player, quick.size(), request_id)) return;
  if (!can_enter(player, request_id)) return;
  auto& queue = queues_[quick.size()];
  while (!queue.empty()) {
    const PlayerId waiting_id = queue.front();
    queue.pop_front();
    auto waiting = players_.find(waiting_id);
    if (waiting == players_.end() || waiting->second.queued_size != quick.size() ||
        waiting->second.conn.expired()) {
      continue;
    }
    waiting->second.queued_size = 0;
    fallback_timers_.erase(waiting_id);
    RoomSettings settings;
    settings.size = quick.size();
    settings.rated = allows_rating(waiting->second, waiting->second.queued_rated) &&
                     allows_rating(player, quick.rated());
    auto room = new_room(std::move(settings));
    waiting->second.room = room->id();
    player.room = room->id();
    room->seat(ref(waiting->second), wire::SIDE_X, 0);
    room->seat(ref(player), wire::SIDE_O, request_id);
    return;
  }
  queue.push_back(player.id);
  player.queued_size = quick.size();
  player.queued_rated = quick.rated();
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  message.mutable_queued()->set_size(quick.size());
  message.mutable_queued()->set_bot_fallback_s(
      static_cast<std::uint32_t>((config_.bot_fallback.count() + 999) / 1000));
  reply(player, std::move(message));
  if (config_.bot_fallback.count() > 0) {
    auto timer = std::make_unique<boost::asio::steady_timer>(logic_, config_.bot_fallback);
    timer->async_wait([this, id = player.id, size = quick.size()](boost::system::error_code ec) {
      if (!ec) on_fallback_timer(id, size);
    });
    fallback_timers_[player.id] = std::move(timer);
  }
}

void Lobby::on_fallback_timer(PlayerId id, int size) {
  auto player = players_.find(id);
  if (player == players_.end() || player->second.queued_size != size || shutting_down_) return;
  unqueue(player->second);
  RoomSettings settings;
  settings.size = size;
  settings.vs_bot = true;
  settings.bot_level = static_cast<int>(config_.fallback_level) + 1;
  auto room = new_room(std::move(settings));
  player->second.room = room->id();
  room->seat(ref(player->second), wire::SIDE_X, 0);
  add_bot(room, config_.fallback_level, wire::SIDE_O);
}

void Lobby::unqueue(PlayerRecord& player) {
  if (player.queued_size == 0) return;
  auto& queue = queues_[player.queued_size];
  std::erase(queue, player.id);
  if (queue.empty()) queues_.erase(player.queued_size);
  player.queued_size = 0;
  fallback_timers_.erase(player.id);
}

void Lobby::spectate(PlayerRecord& player, const wire::Spectate& spectate,
                     std::uint32_t request_id) {
  auto it = rooms_.find(spectate.game_id());
  if (it == rooms_.end()) {
    error(player, wire::ERROR_CODE_UNKNOWN_GAME,
          "no game " + std::to_string(spectate.game_id()), request_id);
    return;
  }
  auto room = it->second;
  if (room->settings().is_private && spectate.invite_code() != room->settings().invite_code) {
    error(player, wire::ERROR_CODE_WRONG_INVITE_CODE,
          "game " + std::to_string(room->id()) + " is private: a matching invite code is needed",
          request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  player.room = room->id();
  room->watch(ref(player), request_id);
}

void Lobby::leave(PlayerRecord& player, std::uint32_t request_id) {
  if (player.queued_size != 0) {
    unqueue(player);
    wire::ServerMessage message;
    message.set_in_reply_to(request_id);
    message.mutable_left();
    reply(player, std::move(message));
    return;
  }
  auto room = room_of(player);
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", request_id);
    return;
  }
  room->leave(player.id, request_id);
}

void Lobby::in_room(PlayerRecord& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  auto room = room_of(player);
  if (message.has_make_move() && message.make_move().game_id() != 0 &&
      (!room || message.make_move().game_id() != room->id())) {
    const GameId target = message.make_move().game_id();
    if (rooms_.contains(target)) {
      error(player, wire::ERROR_CODE_NOT_IN_GAME,
            "you are not a player of game " + std::to_string(target), rid);
    } else {
      error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(target), rid);
    }
    return;
  }
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", rid);
    return;
  }
  switch (message.body_case()) {
    case wire::ClientMessage::kMakeMove:
      room->move(player.id, message.make_move().row(), message.make_move().col(), rid);
      break;
    case wire::ClientMessage::kResign: room->resign(player.id, rid); break;
    case wire::ClientMessage::kOfferDraw: room->offer_draw(player.id, rid); break;
    case wire::ClientMessage::kRematch: room->rematch(player.id, rid); break;
    default: break;
  }
}

void Lobby::chat(PlayerRecord& player, const wire::Chat& chat, std::uint32_t request_id) {
  auto room = room_of(player);
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "chat goes to a game: join or watch one first",
          request_id);
    return;
  }
  const std::string& text = chat.text();
  if (text.size() > kMaxChatBytes) {
    error(player, wire::ERROR_CODE_CHAT_TOO_LONG,
          "a chat line is at most " + std::to_string(kMaxChatBytes) + " bytes", request_id);
    return;
  }
  if (text.empty() || !is_printable_utf8(text)) {
    error(player, wire::ERROR_CODE_BAD_REQUEST,
          "a chat line is printable UTF-8 text without control characters", request_id);
    return;
  }
  if (!player.chat_limiter.allow()) {
    error(player, wire::ERROR_CODE_RATE_LIMITED, "too many chat lines: slow down", request_id);
    return;
  }
  room->chat(player.id, text);
}

// --- rooms ----------------------------------------------------------------------

std::shared_ptr<GameRoom> Lobby::new_room(RoomSettings settings, GameId id) {
  settings.move_timeout = config_.move_timeout;
  settings.reconnect_grace = config_.reconnect_grace;
  if (id == 0) id = next_game_id_++;
  if (!settings.invite_code.empty()) invites_[settings.invite_code] = id;
  auto room = std::make_shared<GameRoom>(id, std::move(settings), logic_, *this);
  rooms_[id] = room;
  return room;
}

std::shared_ptr<GameRoom> Lobby::room_of(const PlayerRecord& player) const {
  auto it = rooms_.find(player.room);
  return it == rooms_.end() ? nullptr : it->second;
}

PlayerRef Lobby::ref(const PlayerRecord& player) const {
  return PlayerRef{player.id, player.account_id, player.name, player.is_bot, player.conn};
}

StoredPlayer& Lobby::bot_account(Level level) {
  const std::string name = std::string(kBotNamePrefix) + std::string(to_string(level)) + ")";
  if (auto known = account_names_.find(name_key(name)); known != account_names_.end()) {
    return accounts_.at(known->second);
  }
  StoredPlayer account;
  account.id = static_cast<std::int64_t>(next_account_id_++);
  account.name = name;
  account.is_bot = true;  // no secret: nobody logs in as a bot
  journal([account](Store& s) { s.save_player(account); }, {});
  account_names_[name_key(name)] = static_cast<PlayerId>(account.id);
  return accounts_[static_cast<PlayerId>(account.id)] = std::move(account);
}

Lobby::PlayerRecord& Lobby::add_bot_player(Level level, GameId room) {
  const StoredPlayer& account = bot_account(level);
  PlayerRecord bot;
  bot.id = next_bot_id_++;
  bot.account_id = static_cast<PlayerId>(account.id);
  bot.name = account.name;
  bot.is_bot = true;
  bot.room = room;
  AiOptions options;
  options.level = level;
  options.budget = config_.bot_budget;
  options.seed = rng_();
  auto player = std::make_shared<HouseBot>(
      bot.id, options, logic_, compute_,
      [this](const std::shared_ptr<Participant>& from, const wire::ClientMessage& message) {
        receive(from, message);
      });
  bot.conn = player;
  bots_[bot.id] = player;
  connections_[player.get()] = Connection{player, bot.id};
  return players_.emplace(bot.id, std::move(bot)).first->second;
}

void Lobby::add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side) {
  room->seat(ref(add_bot_player(level, room->id())), side, 0);
}

void Lobby::left_room(GameId room, PlayerId id) {
  auto player = players_.find(id);
  if (player == players_.end() || player->second.room != room) return;
  player->second.room = 0;
  // An away player whose seat is gone, or a bot whose game is over, is done.
  if (player->second.is_bot || player->second.conn.expired()) forget(id);
}

void Lobby::room_closed(GameId id) {
  auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  if (!it->second->settings().invite_code.empty()) invites_.erase(it->second->settings().invite_code);
  rooms_.erase(it);
}


// --- replies --------------------------------------------------------------------

void Lobby::reply(const PlayerRecord& player, wire::ServerMessage message) {
  if (auto conn = player.conn.lock()) conn->deliver(make_outbound(std::move(message)));
}

void Lobby::error(const PlayerRecord& player, wire::ErrorCode code, std::string text,
                  std::uint32_t request_id) {
  spdlog::debug("refused {} ({}): {}", player.name, player.id, text);
  send_error(player.conn, code, std::move(text), request_id);
}

std::string Lobby::random_invite_code() {
  static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  for (;;) {
    std::string code;
    for (int i = 0; i < 6; ++i) code += kAlphabet[rng_() % (sizeof(kAlphabet) - 1)];
    if (!invites_.contains(code)) return code;
  }
}

}  // namespace ttt::server
