// The Lobby's records: the game journal (starts, moves, results, ratings),
// restoring games after a restart, and the leaderboard, history and replay
// queries.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <chrono>

#include "lobby/lobby.hpp"
#include "game/rating.hpp"
#include "net/replies.hpp"
#include "store/store_writer.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::server {
namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string status_text(const GameResult& result) {
  if (result.winner) return *result.winner == Player::X ? "x_won" : "o_won";
  return result.reason == wire::END_REASON_ABORTED ? "aborted" : "draw";
}

std::string reason_text(wire::EndReason reason) {
  switch (reason) {
    case wire::END_REASON_LINE: return "line";
    case wire::END_REASON_BOARD_FULL: return "board_full";
    case wire::END_REASON_RESIGNATION: return "resignation";
    case wire::END_REASON_TIMEOUT: return "timeout";
    case wire::END_REASON_DISCONNECT: return "disconnect";
    case wire::END_REASON_DRAW_AGREED: return "draw_agreed";
    case wire::END_REASON_ABORTED: return "aborted";
    default: return "";
  }
}

wire::EndReason reason_of(const std::string& text) {
  for (int r = wire::EndReason_MIN; r <= wire::EndReason_MAX; ++r) {
    const auto reason = static_cast<wire::EndReason>(r);
    if (wire::EndReason_IsValid(r) && reason_text(reason) == text) return reason;
  }
  return wire::END_REASON_NONE;
}

wire::GameStatus status_of(const std::string& text) {
  if (text == "x_won") return wire::GAME_STATUS_X_WON;
  if (text == "o_won") return wire::GAME_STATUS_O_WON;
  if (text == "draw" || text == "aborted") return wire::GAME_STATUS_DRAW;
  return wire::GAME_STATUS_IN_PROGRESS;
}

void fill_record(const GameRecord& g, wire::GameRecord& out) {
  out.set_record_id(static_cast<std::uint64_t>(g.id));
  out.set_game_id(static_cast<std::uint64_t>(g.room_id));
  out.set_round(static_cast<std::uint32_t>(g.round));
  out.set_size(g.size);
  out.set_x_name(g.x_name);
  out.set_o_name(g.o_name);
  out.set_status(status_of(g.status));
  out.set_end_reason(reason_of(g.reason));
  out.set_rated(g.rated);
  out.set_started_ms(static_cast<std::uint64_t>(g.started_ms));
  out.set_ended_ms(static_cast<std::uint64_t>(g.ended_ms));
  out.set_move_count(static_cast<std::uint32_t>(g.moves.size()));
}

std::uint32_t clamp_limit(std::uint32_t limit) {
  return limit == 0 ? 10 : std::min<std::uint32_t>(limit, 100);
}

}  // namespace

// --- the journal ----------------------------------------------------------------

void Lobby::journal(std::function<void(Store&)> job, Done done) {
  if (!store_) {
    if (done) done(true);
    return;
  }
  store_->submit(std::move(job), [done = std::move(done)](const std::optional<std::string>& error) {
    if (done) done(!error);
  });
}

std::optional<Lobby::StartRecord> Lobby::pending_start(std::int64_t record) const {
  const auto pending = pending_starts_.find(record);
  if (pending == pending_starts_.end()) return std::nullopt;
  return pending->second;
}

void Lobby::write_end(Store& store, std::int64_t record, const std::string& status,
                      const std::string& reason, std::int64_t at_ms,
                      const std::optional<Settlement>& settlement) {
  store.end_game(record, status, reason, at_ms);
  if (settlement) {
    store.add_result(settlement->x);
    store.add_result(settlement->o);
  }
}

void Lobby::StartRecord::write(Store& store) const {
  store.save_player(x);
  store.save_player(o);
  store.begin_game(game);
}

std::int64_t Lobby::record_start(const GameRoom& room, Done done) {
  const std::int64_t id = ++last_record_id_;
  StartRecord start;
  GameRecord& g = start.game;
  g.id = id;
  g.room_id = static_cast<std::int64_t>(room.id());
  g.round = static_cast<int>(room.round());
  g.size = room.settings().size;
  g.x_player = static_cast<std::int64_t>(room.player(Player::X).account_id);
  g.o_player = static_cast<std::int64_t>(room.player(Player::O).account_id);
  g.rated = room.settings().rated;
  g.is_private = room.settings().is_private;
  g.invite_code = room.settings().invite_code;
  g.bot_level = room.settings().bot_level;
  g.started_ms = now_ms();
  start.x = accounts_.at(room.player(Player::X).account_id);
  start.o = accounts_.at(room.player(Player::O).account_id);
  if (!store_) {
    if (done) done(true);
    return id;
  }
  pending_starts_[id] = start;
  journal([start](Store& s) { start.write(s); },
          [this, id, done = std::move(done)](bool ok) {
            if (ok) pending_starts_.erase(id);
            if (done) done(ok);
          });
  return id;
}

std::optional<Lobby::Settlement> Lobby::settle(const GameRoom& room,
                                               const GameResult& result) const {
  if (result.reason == wire::END_REASON_ABORTED) return std::nullopt;
  const StoredPlayer& x = accounts_.at(room.player(Player::X).account_id);
  const StoredPlayer& o = accounts_.at(room.player(Player::O).account_id);
  const double x_score = !result.winner ? 0.5 : *result.winner == Player::X ? 1.0 : 0.0;
  Settlement settlement;
  settlement.x.player_id = x.id;
  settlement.o.player_id = o.id;
  if (room.settings().rated && x.id != o.id) {
    const RatingChange change = rate_game(x.rating, o.rating, x_score);
    settlement.x.rating_change = change.x - x.rating;
    settlement.o.rating_change = change.o - o.rating;
  }
  for (auto [player, score] :
       {std::pair{&settlement.x, x_score}, std::pair{&settlement.o, 1.0 - x_score}}) {
    player->wins = score == 1.0;
    player->losses = score == 0.0;
    player->draws = score == 0.5;
  }
  return settlement;
}

void Lobby::apply(const PlayerResult& result) {
  auto it = accounts_.find(static_cast<PlayerId>(result.player_id));
  if (it == accounts_.end()) return;
  StoredPlayer& account = it->second;
  account.rating += result.rating_change;
  ++account.games_played;
  account.wins += result.wins;
  account.losses += result.losses;
  account.draws += result.draws;
}

void Lobby::hold_rating_change(const PlayerResult& result, double sign) {
  if (result.rating_change == 0) return;
  const auto account = static_cast<PlayerId>(result.player_id);
  double& held = pending_rating_changes_[account];
  held += sign * result.rating_change;
  if (std::abs(held) < 1e-9) pending_rating_changes_.erase(account);
}

RoomObserver::Done Lobby::on_game_recorded(std::int64_t record,
                                           std::optional<Settlement> settlement, Done done,
                                           bool final) {
  if (settlement) {
    hold_rating_change(settlement->x, +1);
    hold_rating_change(settlement->o, +1);
  }
  return [this, record, settlement, done = std::move(done), final](bool ok) {
    if (ok || final) pending_starts_.erase(record);
    if (settlement) {
      hold_rating_change(settlement->x, -1);
      hold_rating_change(settlement->o, -1);
    }
    if (ok) {
      ++games_finished_;
      if (settlement) {
        apply(settlement->x);
        apply(settlement->o);
      }
    }
    if (done) done(ok);
  };
}

void Lobby::record_move(const GameRoom& room, int ply, Move move,
                        const std::optional<GameResult>& end, Done done) {
  const std::int64_t record = room.record_id();
  const StoredMove stored{move.row, move.col, now_ms()};
  const std::optional<StartRecord> start = pending_start(record);
  if (!end) {
    journal(
        [start, record, ply, stored](Store& s) {
          if (start) start->write(s);
          s.add_move(record, ply, stored);
        },
        [this, record, done = std::move(done)](bool ok) {
          if (ok) pending_starts_.erase(record);
          if (done) done(ok);
        });
    return;
  }
  const auto settlement = settle(room, *end);
  // A refused final move is taken back and the game goes on: nothing settles.
  journal(
      [start, record, ply, stored, settlement, status = status_text(*end),
       reason = reason_text(end->reason)](Store& s) {
        if (start) start->write(s);
        s.add_move(record, ply, stored);
        write_end(s, record, status, reason, stored.at_ms, settlement);
      },
      on_game_recorded(record, settlement, std::move(done), false));
}

void Lobby::record_end(const GameRoom& room, const GameResult& result, Done done) {
  const std::int64_t record = room.record_id();
  const std::optional<StartRecord> start = pending_start(record);
  const auto settlement = settle(room, result);
  // The game is over for its players whether or not this write succeeds; a
  // failed one is logged and leaves the stored game unfinished, its players'
  // records untouched.
  journal(
      [start, record, settlement, status = status_text(result),
       reason = reason_text(result.reason), at = now_ms()](Store& s) {
        if (start) start->write(s);
        write_end(s, record, status, reason, at, settlement);
      },
      on_game_recorded(record, settlement, std::move(done), true));
}

double Lobby::rating(PlayerId account) const {
  const auto it = accounts_.find(account);
  if (it == accounts_.end()) return 0.0;
  const auto held = pending_rating_changes_.find(account);
  return it->second.rating + (held == pending_rating_changes_.end() ? 0.0 : held->second);
}

// --- restoring ------------------------------------------------------------------

void Lobby::restore(const StoredState& state) {
  for (const StoredPlayer& p : state.players) {
    accounts_[static_cast<PlayerId>(p.id)] = p;
    account_names_[name_key(p.name)] = static_cast<PlayerId>(p.id);
    next_account_id_ = std::max(next_account_id_, static_cast<PlayerId>(p.id) + 1);
  }
  last_record_id_ = state.max_game_id;
  next_game_id_ = static_cast<GameId>(state.max_room_id) + 1;
  std::unordered_map<std::int64_t, std::string> tokens(state.tokens.begin(), state.tokens.end());

  for (const GameRecord& g : state.unfinished_games) {
    RoomSettings settings;
    settings.size = g.size;
    settings.is_private = g.is_private;
    settings.invite_code = g.invite_code;
    settings.vs_bot = g.bot_level > 0;
    settings.bot_level = g.bot_level;
    settings.rated = g.rated;
    auto room = new_room(settings, static_cast<GameId>(g.room_id));
    auto seat = [&](std::int64_t account_id) -> PlayerRef {
      const StoredPlayer& account = accounts_.at(static_cast<PlayerId>(account_id));
      if (account.is_bot) {
        return ref(add_bot_player(static_cast<Level>(std::max(g.bot_level, 1) - 1), room->id()));
      }
      PlayerRecord& player = players_[static_cast<PlayerId>(account.id)];
      player.id = player.account_id = static_cast<PlayerId>(account.id);
      player.name = account.name;
      player.room = room->id();
      player.chat_limiter = RateLimiter(config_.chat_per_second, config_.chat_burst);
      if (auto token = tokens.find(account.id); token != tokens.end()) {
        player.token_hash = token->second;
        tokens_[player.token_hash] = player.id;
      }
      return ref(player);
    };
    std::vector<Move> moves;
    for (const StoredMove& m : g.moves) moves.push_back({m.row, m.col});
    PlayerRef x = seat(g.x_player);
    PlayerRef o = seat(g.o_player);
    room->restore(std::move(x), std::move(o), static_cast<std::uint32_t>(g.round), g.id, moves);
  }
  if (!state.unfinished_games.empty()) {
    spdlog::info("restored {} games in progress; their players have {} ms to come back",
                 state.unfinished_games.size(), config_.reconnect_grace.count());
  }
}

// --- queries --------------------------------------------------------------------

bool Lobby::has_database(PlayerRecord& player, std::uint32_t request_id) {
  if (store_) return true;
  error(player, wire::ERROR_CODE_NO_DATABASE,
        "this server keeps no game records (it runs with --db none)", request_id);
  return false;
}

void Lobby::leaderboard(PlayerRecord& player, const wire::GetLeaderboard& request,
                        std::uint32_t request_id) {
  std::vector<const StoredPlayer*> ranked;
  for (const auto& [id, account] : accounts_) {
    if (account.games_played > 0) ranked.push_back(&account);
  }
  std::sort(ranked.begin(), ranked.end(), [](const StoredPlayer* a, const StoredPlayer* b) {
    if (a->rating != b->rating) return a->rating > b->rating;
    if (a->games_played != b->games_played) return a->games_played > b->games_played;
    return a->name < b->name;
  });
  ranked.resize(std::min<std::size_t>(ranked.size(), clamp_limit(request.limit())));
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Leaderboard* board = message.mutable_leaderboard();
  for (const StoredPlayer* p : ranked) {
    wire::LeaderboardEntry* entry = board->add_entries();
    entry->set_name(p->name);
    entry->set_rating(p->rating);
    entry->set_games(static_cast<std::uint64_t>(p->games_played));
    entry->set_wins(static_cast<std::uint64_t>(p->wins));
    entry->set_losses(static_cast<std::uint64_t>(p->losses));
    entry->set_draws(static_cast<std::uint64_t>(p->draws));
  }
  reply(player, std::move(message));
}

void Lobby::history(PlayerRecord& player, const wire::GetHistory& request,
                    std::uint32_t request_id) {
  if (!has_database(player, request_id)) return;
  PlayerId account = player.account_id;
  if (!request.name().empty()) {
    auto known = account_names_.find(name_key(request.name()));
    if (known == account_names_.end()) {
      error(player, wire::ERROR_CODE_NO_RECORD, "no player is called '" + request.name() + "'",
            request_id);
      return;
    }
    account = known->second;
  }
  auto games = std::make_shared<std::vector<GameRecord>>();
  const int limit = static_cast<int>(clamp_limit(request.limit()));
  store_->submit(
      [games, account, limit](Store& s) {
        *games = s.history(static_cast<std::int64_t>(account), limit);
      },
      [this, games, id = player.id, name = accounts_.at(account).name,
       request_id](const std::optional<std::string>& failure) {
        auto asker = players_.find(id);
        if (asker == players_.end()) return;
        if (failure) {
          error(asker->second, wire::ERROR_CODE_STORAGE, "the history could not be read",
                request_id);
          return;
        }
        wire::ServerMessage message;
        message.set_in_reply_to(request_id);
        message.mutable_history()->set_name(name);
        for (const GameRecord& g : *games) {
          fill_record(g, *message.mutable_history()->add_games());
        }
        reply(asker->second, std::move(message));
      });
}

void Lobby::replay(PlayerRecord& player, const wire::GetReplay& request,
                   std::uint32_t request_id) {
  if (!has_database(player, request_id)) return;
  auto game = std::make_shared<std::optional<GameRecord>>();
  store_->submit(
      [game, id = static_cast<std::int64_t>(request.record_id())](Store& s) { *game = s.game(id); },
      [this, game, id = player.id, request_id,
       record = request.record_id()](const std::optional<std::string>& failure) {
        auto asker = players_.find(id);
        if (asker == players_.end()) return;
        if (failure || !*game || (*game)->status == "in_progress") {
          error(asker->second, failure ? wire::ERROR_CODE_STORAGE : wire::ERROR_CODE_NO_RECORD,
                failure ? "the game could not be read"
                        : "no finished game has record " + std::to_string(record),
                request_id);
          return;
        }
        wire::ServerMessage message;
        message.set_in_reply_to(request_id);
        wire::GameRecord* out = message.mutable_replay()->mutable_game();
        fill_record(**game, *out);
        for (const StoredMove& m : (*game)->moves) {
          wire::MoveRecord* move = out->add_moves();
          move->set_row(m.row);
          move->set_col(m.col);
          move->set_at_ms(static_cast<std::uint64_t>(m.at_ms));
        }
        reply(asker->second, std::move(message));
      });
}

}  // namespace ttt::server
