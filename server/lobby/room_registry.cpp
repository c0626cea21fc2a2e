#include "lobby/room_registry.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <random>
#include <stdexcept>

#include "executor_check.hpp"
#include "game/bot_level_code.hpp"
#include "game/house_bot.hpp"
#include "lobby/game_list_desk.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::server {

RoomRegistry::RoomRegistry(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
                           AccountStore& accounts, GameJournal& journal, GameDirectory& directory,
                           LogLimiter& log, IdSource* room_ids, PlayerTable& players,
                           InviteCodes& invites, RoomHost& host, RoomTerms terms)
    : logic_(logic),
      accounts_(accounts),
      journal_(journal),
      directory_(directory),
      log_(log),
      room_ids_(room_ids),
      players_(players),
      invites_(invites),
      host_(host),
      terms_(std::move(terms)),
      quotas_(terms_.quotas),
      bot_searches_(logic, std::move(compute),
                    static_cast<std::size_t>(std::max(terms_.bot_threads, 1)), terms_.bot_queue) {}

RoomRegistry::~RoomRegistry() = default;

// --- rooms ------------------------------------------------------------------------

std::shared_ptr<GameRoom> RoomRegistry::open(RoomSettings settings, GameId id) {
  settings.move_timeout = terms_.move_timeout;
  // Nobody else waits for the human of a game against the bot.
  settings.reconnect_grace = settings.vs_bot ? terms_.bot_game_grace : terms_.reconnect_grace;
  settings.max_spectators = terms_.max_spectators;
  settings.rate_one_address = terms_.rate_one_address;
  if (id == GameId{}) {
    id = room_ids_ ? static_cast<GameId>(room_ids_->next()) : next_game_id_;
    if (!room_ids_) next_game_id_ = GameId{number(next_game_id_) + 1};
  }
  invites_.open(settings.invite_code, id);
  auto room =
      std::make_shared<GameRoom>(id, std::move(settings), logic_,
                                 RoomDependencies{*this, journal_, accounts_, &log_, &accounts_});
  rooms_[id] = room;
  directory_.publish(GameListDesk::listing_of(*room));
  return room;
}

std::shared_ptr<GameRoom> RoomRegistry::find(GameId id) const {
  const auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

std::shared_ptr<GameRoom> RoomRegistry::by_record(RecordId record) const {
  std::shared_ptr<GameRoom> room;
  for (const auto& [id, r] : rooms_) {
    if (r->record_id() == record) room = r;
  }
  return room;
}

void RoomRegistry::drop(GameRoom& room) {
  const GameId id = room.id();
  invites_.close(room.settings().invite_code);
  // Withdrawn only if the listing is still what this node wrote.
  directory_.withdraw(id);
  rooms_.erase(id);
}

void RoomRegistry::ids_after(GameId largest) {
  next_game_id_ = std::max(next_game_id_, GameId{number(largest) + 1});
}

void RoomRegistry::restore(const GameRecord& g) {
  RoomSettings settings;
  settings.size = g.size;
  settings.win_length = g.win_length;
  settings.is_private = g.is_private;
  settings.invite_code = g.invite_code;
  settings.vs_bot = g.bot_level != kNoBotLevel;
  settings.bot_level = g.bot_level;
  settings.rated = g.rated;
  settings.clock.set_initial_ms(static_cast<std::uint32_t>(g.clock_initial_ms));
  settings.clock.set_increment_ms(static_cast<std::uint32_t>(g.clock_increment_ms));
  // Both players checked before anything opens: a game that can't come
  // back leaves no room, listing, invite code or player behind.
  for (const std::int64_t stored_id : {g.x_player, g.o_player}) {
    if (accounts_.get(static_cast<AccountId>(stored_id)) == nullptr) {
      throw std::runtime_error("game " + std::to_string(g.id) + " names unknown player " +
                               std::to_string(stored_id));
    }
  }
  auto room = open(settings, static_cast<GameId>(g.room_id));
  auto seat = [&](std::int64_t stored_id) -> PlayerRef {
    const StoredPlayer* account = accounts_.get(static_cast<AccountId>(stored_id));
    if (account->is_bot) {
      return add_bot_player(level_of_code(g.bot_level), room,
                            "restored game " + std::to_string(g.room_id))
          .ref();
    }
    const SeatId id = seat_of(account_id(*account));
    LobbyPlayer* held = players_.get(id);
    if (held == nullptr) {
      auto fresh = std::make_unique<LobbyPlayer>();
      fresh->id = id;
      fresh->account = account_id(*account);
      fresh->name = account->name;
      fresh->key = name_key(account->name);
      held = &players_.add(std::move(fresh));
    }
    LobbyPlayer& player = *held;
    player.room = room;
    player.chat_limiter = RateLimiter(terms_.chat_per_second, terms_.chat_burst);
    return player.ref();
  };
  std::vector<Move> moves;
  // Each side's time left as its last move left it (the initial time
  // before its first move).
  std::array<std::chrono::milliseconds, 2> clock_left{
      std::chrono::milliseconds(g.clock_initial_ms), std::chrono::milliseconds(g.clock_initial_ms)};
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const StoredMove& m = g.moves[i];
    moves.push_back({m.row, m.col});
    clock_left[i % 2] = std::chrono::milliseconds(m.clock_ms);
  }
  PlayerRef x = seat(g.x_player);
  PlayerRef o = seat(g.o_player);
  // Everyone gets the whole reconnect grace after a restart, even against the bot.
  room->restore(std::move(x), std::move(o), static_cast<std::uint32_t>(g.round), RecordId{g.id},
                moves, terms_.reconnect_grace, clock_left);
}

// --- seats ------------------------------------------------------------------------

bool RoomRegistry::allows_rating(const LobbyPlayer& player, wire::Rated asked) {
  if (asked == wire::RATED_YES) return true;
  if (asked == wire::RATED_NO) return false;
  return !player.program;
}

void RoomRegistry::took_seat(LobbyPlayer& player) {
  if (!player.holds_quota && player.room && !player.is_bot) {
    player.holds_quota = true;
    player.bot_quota = player.room->settings().vs_bot;
    player.quota_address = player.address;
    quotas_.take(player.quota_address, player.bot_quota);
  }
  host_.took_seat(player);
}

void RoomRegistry::release_seat(LobbyPlayer& player) {
  if (!player.holds_quota) return;
  player.holds_quota = false;
  quotas_.give_back(player.quota_address, player.bot_quota);
}

std::string RoomRegistry::quota_refusal(const std::string& address, bool bot_game) const {
  return quotas_.refusal(address, bot_game);
}

std::shared_ptr<GameRoom> RoomRegistry::open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                                  LobbyPlayer* player, const MatchRequest& rules,
                                                  std::uint32_t request_id) {
  RoomSettings settings;
  settings.size = rules.size;
  settings.win_length = rules.win_length;
  settings.clock.set_initial_ms(rules.clock_initial_ms);
  settings.clock.set_increment_ms(rules.clock_increment_ms);
  settings.rated = allows_rating(waiting, waiting_rated) &&
                   (player == nullptr || allows_rating(*player, rules.rated));
  settings.origin = waiting.address;
  auto room = open(std::move(settings));
  waiting.room = room;
  took_seat(waiting);
  if (player != nullptr) {
    player->room = room;
    took_seat(*player);
  }
  room->seat(waiting.ref(), wire::SIDE_X, 0);
  if (player != nullptr) room->seat(player->ref(), wire::SIDE_O, request_id);
  return room;
}

std::shared_ptr<GameRoom> RoomRegistry::open_challenge_game(LobbyPlayer& challenger,
                                                            LobbyPlayer& challenged,
                                                            const wire::Challenge& settings,
                                                            std::uint32_t request_id) {
  RoomSettings room_settings;
  room_settings.size = settings.size();
  room_settings.win_length = settings.win_length();
  room_settings.clock = settings.clock();
  room_settings.rated =
      allows_rating(challenger, settings.rated()) && allows_rating(challenged, wire::RATED_DEFAULT);
  room_settings.origin = challenger.address;
  auto room = open(std::move(room_settings));
  challenger.room = room;
  challenged.room = room;
  took_seat(challenger);
  took_seat(challenged);
  room->seat(challenger.ref(), wire::SIDE_X, 0);
  room->seat(challenged.ref(), wire::SIDE_O, request_id);
  return room;
}

void RoomRegistry::play_bot(LobbyPlayer& player, const MatchRequest& rules) {
  RoomSettings settings;
  settings.size = rules.size;
  settings.win_length = rules.win_length;
  // The bot plays the clock the player asked for.
  settings.clock.set_initial_ms(rules.clock_initial_ms);
  settings.clock.set_increment_ms(rules.clock_increment_ms);
  settings.vs_bot = true;
  settings.bot_level = bot_level_code(terms_.fallback_level);
  settings.origin = player.address;
  auto room = open(std::move(settings));
  player.room = room;
  took_seat(player);
  room->seat(player.ref(), wire::SIDE_X, 0);
  add_bot(room, terms_.fallback_level, wire::SIDE_O, player.address);
}

// --- the server's bots --------------------------------------------------------------

const StoredPlayer& RoomRegistry::bot_account(Level level) {
  const std::string name = std::string(kBotNamePrefix) + std::string(to_string(level)) + ")";
  if (const StoredPlayer* known = accounts_.find(name_key(name))) return *known;
  StoredPlayer account;
  account.name = name;
  account.is_bot = true;  // no secret: nobody logs in as a bot
  return accounts_.create(std::move(account));
}

LobbyPlayer& RoomRegistry::add_bot_player(Level level, const std::shared_ptr<GameRoom>& room,
                                          const std::string& share) {
  const StoredPlayer& account = bot_account(level);
  auto bot = std::make_unique<LobbyPlayer>();
  bot->id = static_cast<SeatId>(next_bot_id_++);
  bot->account = account_id(account);
  bot->name = account.name;
  bot->is_bot = true;
  bot->room = room;
  AiOptions options;
  options.level = level;
  options.budget = terms_.bot_budget;
  options.seed = static_cast<std::uint64_t>(std::random_device{}()) << 32 ^ number(bot->id);
  auto house_bot = std::make_shared<HouseBot>(bot->id, options, logic_, bot_searches_, share);
  host_.connect_bot(*bot, house_bot);
  bot->participant = house_bot;
  bots_[bot->id] = std::move(house_bot);
  return players_.add(std::move(bot));
}

void RoomRegistry::add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side,
                           const std::string& share) {
  room->seat(add_bot_player(level, room, share).ref(), side, 0);
}

// --- counts and walks -----------------------------------------------------------------

std::map<std::pair<std::string, int>, std::size_t> RoomRegistry::by_state() const {
  std::map<std::pair<std::string, int>, std::size_t> rooms;
  for (const auto& [id, room] : rooms_) {
    const char* state = room->waiting() ? "waiting" : room->in_progress() ? "playing" : "finished";
    ++rooms[{state, room->settings().size}];
  }
  return rooms;
}

std::size_t RoomRegistry::in_progress() const {
  std::size_t n = 0;
  for (const auto& [id, room] : rooms_) n += room->in_progress() ? 1 : 0;
  return n;
}

bool RoomRegistry::settled() const {
  for (const auto& [id, room] : rooms_) {
    if (!room->settled()) return false;
  }
  return true;
}

std::vector<RecordId> RoomRegistry::records(bool in_progress_only) const {
  std::vector<RecordId> records;
  for (const auto& [id, room] : rooms_) {
    if (!in_progress_only || room->in_progress()) records.push_back(room->record_id());
  }
  return records;
}

void RoomRegistry::abort_all() {
  auto rooms = rooms_;  // an abort may close its room
  for (auto& [id, room] : rooms) room->abort();
}

std::vector<wire::AwayResult> RoomRegistry::take_away_results(AccountId account) {
  std::vector<wire::AwayResult> results;
  if (auto it = away_results_.find(account); it != away_results_.end()) {
    results = std::move(it->second);
    away_results_.erase(it);
  }
  return results;
}

// --- what rooms say -----------------------------------------------------------------

void RoomRegistry::left_room(GameRoom& room, SeatId id) {
  check_executor(logic_, "RoomRegistry::left_room");
  LobbyPlayer* player = players_.get(id);
  if (player == nullptr || player->room.get() != &room) return;
  release_seat(*player);
  player->room.reset();
  // An away player whose seat is gone, or a bot whose game is over, is done.
  if (player->is_bot || player->participant.expired()) host_.forget(id);
}

void RoomRegistry::room_changed(GameRoom& room) {
  check_executor(logic_, "RoomRegistry::room_changed");
  directory_.publish(GameListDesk::listing_of(room));
  host_.round_may_be_over(room);
}

void RoomRegistry::game_recorded(GameRoom& room) {
  check_executor(logic_, "RoomRegistry::game_recorded");
  ++games_finished_;
  host_.round_may_be_over(room);
}

void RoomRegistry::decided_while_away(AccountId account, wire::AwayResult result) {
  check_executor(logic_, "RoomRegistry::decided_while_away");
  // Bounded: a few results per player, and a bounded number of players (an
  // arbitrary one makes way; it only loses news it can read in /history).
  constexpr std::size_t kPerPlayer = 8;
  constexpr std::size_t kPlayers = 10'000;
  if (!away_results_.contains(account) && away_results_.size() >= kPlayers) {
    away_results_.erase(away_results_.begin());
  }
  auto& results = away_results_[account];
  if (results.size() >= kPerPlayer) results.erase(results.begin());
  results.push_back(std::move(result));
}

void RoomRegistry::room_closed(GameRoom& room) {
  check_executor(logic_, "RoomRegistry::room_closed");
  drop(room);  // may destroy the room: the caller holds its own reference
}

}  // namespace ttt::server
