#include "store/stored_accounts.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "game/rating.hpp"
#include "lobby/secrets.hpp"
#include "store/store_writer.hpp"

namespace ttt::server {

namespace {

std::int64_t system_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Remembers that `account` played a rated game that counted against
// `opponent`, up to kVariedOpponents of them: past that the rules don't tell
// them apart. Opponents only add up, whichever copy saw them first.
void add_opponent(StoredPlayer& account, std::int64_t opponent) {
  auto& known = account.opponents;
  if (std::ssize(known) >= kVariedOpponents || opponent == account.id) return;
  if (std::find(known.begin(), known.end(), opponent) == known.end()) known.push_back(opponent);
}

// An account's rating and counts, from another copy of it (its opponents
// added to those known).
void copy_figures(StoredPlayer& to, const StoredPlayer& from) {
  to.rating = from.rating;
  to.games_played = from.games_played;
  to.wins = from.wins;
  to.losses = from.losses;
  to.draws = from.draws;
  to.rated_games = from.rated_games;
  for (std::int64_t opponent : from.opponents) add_opponent(to, opponent);
}

}  // namespace

StoredAccounts::StoredAccounts(StoreWriter* writer, NameKey key,
                               const std::vector<StoredPlayer>& loaded,
                               const std::vector<RatedPairing>& pairings,
                               const std::vector<std::pair<std::int64_t, std::int64_t>>& blocks)
    : writer_(writer), key_(std::move(key)), now_ms_(system_now_ms) {
  for (const auto& [who, whom] : blocks) {
    blocks_[static_cast<AccountId>(who)].insert(static_cast<AccountId>(whom));
  }
  for (const StoredPlayer& p : loaded) {
    accounts_[account_id(p)] = p;
    // Names that look alike were once separate accounts: the first keeps the name.
    const auto [known, added] = by_key_.try_emplace(key_(p.name), account_id(p));
    if (!added) {
      spdlog::warn("player {} ({}) looks like player {} ({}): only the first can sign in by name",
                   p.id, p.name, number(known->second), accounts_.at(known->second).name);
    }
    next_id_ = std::max(next_id_, p.id + 1);
    ranking_.update(p);
  }
  for (const RatedPairing& p : pairings) remember_pairing(p.x, p.o, p.ended_ms);
}

bool StoredAccounts::blocks(AccountId listener, AccountId speaker) const {
  const auto it = blocks_.find(listener);
  return it != blocks_.end() && it->second.contains(speaker);
}

std::vector<std::string> StoredAccounts::blocked_names(AccountId who) const {
  std::vector<std::string> names;
  if (const auto it = blocks_.find(who); it != blocks_.end()) {
    for (AccountId whom : it->second) {
      if (const StoredPlayer* p = get(whom)) names.push_back(p->name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

void StoredAccounts::set_blocked(AccountId who, AccountId whom, bool blocked) {
  if (shared_) block_changes_[who] = ++block_change_count_;
  if (blocked) {
    blocks_[who].insert(whom);
  } else if (auto it = blocks_.find(who); it != blocks_.end()) {
    it->second.erase(whom);
    if (it->second.empty()) blocks_.erase(it);
  }
  if (!writer_) return;
  const auto a = static_cast<std::int64_t>(number(who));
  const auto b = static_cast<std::int64_t>(number(whom));
  writer_->submit([a, b, blocked](Store& s) {
    if (blocked) {
      s.save_block(a, b);
    } else {
      s.drop_block(a, b);
    }
  });
}

const StoredPlayer* StoredAccounts::find(std::string_view key) const {
  const auto it = by_key_.find(std::string(key));
  return it == by_key_.end() ? nullptr : get(it->second);
}

const StoredPlayer* StoredAccounts::get(AccountId id) const {
  const auto it = accounts_.find(id);
  return it == accounts_.end() ? nullptr : &it->second;
}

const StoredPlayer& StoredAccounts::create(StoredPlayer account) {
  account.id = ids_ ? ids_->next() : next_id_++;
  account.key = key_(account.name);
  if (writer_) writer_->submit([account](Store& s) { s.save_player(account); });
  by_key_[key_(account.name)] = account_id(account);
  return accounts_[account_id(account)] = std::move(account);
}

void StoredAccounts::create_written(StoredPlayer account, std::function<void(bool ok)> done) {
  // A node alone reads its accounts from memory: the write may follow.
  if (!writer_ || !shared_) {
    create(std::move(account));
    done(true);
    return;
  }
  account.id = ids_ ? ids_->next() : next_id_++;
  account.key = key_(account.name);
  const AccountId id = account_id(account);
  by_key_[account.key] = id;
  accounts_[id] = account;
  writer_->submit([account](Store& s) { s.save_player(account); },
                  [this, id, key = account.key,
                   done = std::move(done)](const std::optional<std::string>& failure) {
                    if (failure) {
                      accounts_.erase(id);
                      ranking_.erase(id);
                      if (auto it = by_key_.find(key); it != by_key_.end() && it->second == id) {
                        by_key_.erase(it);
                      }
                    } else {
                      tell_figures(id);
                    }
                    done(!failure);
                  });
}

void StoredAccounts::refresh(const std::string& key, Refreshed done) {
  reread([key](Store& s) { return s.player_by_key(key); }, std::move(done));
}

void StoredAccounts::refresh(AccountId account, Refreshed done) {
  reread([id = static_cast<std::int64_t>(number(account))](Store& s) { return s.player_by_id(id); },
         std::move(done));
}

void StoredAccounts::check_token(AccountId account, const std::string& token_hash,
                                 TokenChecked done) {
  if (!writer_ || !shared_) {
    done(false);
    return;
  }
  // Queued after every write made so far: a token this node saved is seen.
  auto matches = std::make_shared<bool>(false);
  writer_->submit(
      [matches, id = static_cast<std::int64_t>(number(account)), token_hash](Store& s) {
        const auto stored = s.token_hash(id);
        *matches = stored && equal_constant_time(*stored, token_hash);
      },
      [matches, done = std::move(done)](const std::optional<std::string>& failure) {
        if (failure) {
          done(std::nullopt);
        } else {
          done(*matches);
        }
      });
}

void StoredAccounts::after_writes(std::function<void()> done) {
  if (!writer_) {
    done();
    return;
  }
  writer_->submit([](Store&) {},
                  [done = std::move(done)](const std::optional<std::string>&) { done(); });
}

void StoredAccounts::reread(std::function<std::optional<StoredPlayer>(Store&)> read,
                            Refreshed done) {
  if (!writer_ || !shared_) {
    done(true);
    return;
  }
  struct Read {
    std::optional<StoredPlayer> account;
    std::vector<std::int64_t> blocked;  // whom it blocks
  };
  auto found = std::make_shared<Read>();
  writer_->submit(
      [found, read = std::move(read)](Store& s) {
        found->account = read(s);
        if (found->account) found->blocked = s.blocked_by(found->account->id);
      },
      [this, found, begun = block_change_count_,
       done = std::move(done)](const std::optional<std::string>& failure) {
        if (!failure && found->account) {
          keep(*found->account);
          const AccountId id = account_id(*found->account);
          // Its blocks as the records hold them (it may have changed them at
          // another node), unless it changed them here since the read began.
          if (const auto changed = block_changes_.find(id);
              changed != block_changes_.end() && changed->second > begun) {
            done(true);
            return;
          }
          std::set<AccountId>& blocks = blocks_[id];
          blocks.clear();
          for (std::int64_t whom : found->blocked) blocks.insert(static_cast<AccountId>(whom));
          if (blocks.empty()) blocks_.erase(id);
        }
        done(!failure);
      });
}

void StoredAccounts::keep(const StoredPlayer& account) {
  const AccountId id = account_id(account);
  auto [it, added] = accounts_.try_emplace(id, account);
  if (!added) {
    // The stored figures; ratings in flight (pending_) still add to them.
    StoredPlayer& known = it->second;
    known.salt = account.salt;
    known.secret_hash = account.secret_hash;
    copy_figures(known, account);
  }
  ranking_.update(it->second);
  by_key_.try_emplace(account.key.empty() ? key_(account.name) : account.key, id);
}

void StoredAccounts::take_figures(const StoredPlayer& figures) {
  const AccountId id = account_id(figures);
  auto [it, added] = accounts_.try_emplace(id, figures);
  StoredPlayer& known = it->second;
  if (added) {
    // Its secret is read when its player arrives here (refresh).
    known.salt.clear();
    known.secret_hash.clear();
    if (known.key.empty()) known.key = key_(known.name);
    // A name another account holds here: the records will tell which is right.
    if (!by_key_.try_emplace(known.key, id).second) {
      accounts_.erase(it);
    } else {
      ranking_.update(known);
    }
    return;
  }
  // Results only add games: figures with fewer are older than these.
  if (figures.games_played < known.games_played) return;
  copy_figures(known, figures);
  ranking_.update(known);
}

void StoredAccounts::refresh_figures() {
  if (!writer_ || !shared_) return;
  auto loaded = std::make_shared<std::vector<StoredPlayer>>();
  writer_->submit([loaded](Store& s) { *loaded = s.load_players(); },
                  [this, loaded](const std::optional<std::string>& failure) {
                    if (failure) return;  // heard again with the next change
                    for (const StoredPlayer& account : *loaded) take_figures(account);
                  });
}

void StoredAccounts::reread_figures(AccountId account) {
  if (!figures_listener_ || !accounts_.contains(account)) return;
  if (!writer_ || !shared_) {
    tell_figures(account);  // nothing to read: these are the figures
    return;
  }
  figures_wanted_.insert(account);
  if (!figures_reading_) read_wanted_figures();
}

void StoredAccounts::read_wanted_figures() {
  if (figures_wanted_.empty()) return;
  figures_reading_ = true;
  std::vector<std::int64_t> ids;
  for (const AccountId account : figures_wanted_)
    ids.push_back(static_cast<std::int64_t>(number(account)));
  figures_wanted_.clear();
  auto found = std::make_shared<std::vector<StoredPlayer>>();
  writer_->submit(
      [found, ids = std::move(ids)](Store& s) { *found = s.figures_of_all(ids); },
      [this, found](const std::optional<std::string>& failure) {
        figures_reading_ = false;
        // Not read: the next result tells them.
        for (const StoredPlayer& read : failure ? std::vector<StoredPlayer>{} : *found) {
          const AccountId account = account_id(read);
          const auto it = accounts_.find(account);
          if (it == accounts_.end()) continue;
          const std::int64_t rated_games = it->second.rated_games;  // not read: counted here
          copy_figures(it->second, read);
          it->second.rated_games = rated_games;
          ranking_.update(it->second);
          tell_figures(account);
        }
        read_wanted_figures();  // results committed meanwhile
      });
}

void StoredAccounts::tell_figures(AccountId account) const {
  if (!figures_listener_) return;
  if (auto it = accounts_.find(account); it != accounts_.end()) figures_listener_(it->second);
}

void StoredAccounts::change_secret(AccountId account, std::string salt, std::string secret_hash,
                                   std::function<void(bool ok)> done) {
  auto apply = [this, account, salt, secret_hash, done = std::move(done)](bool ok) {
    if (ok) {
      if (auto it = accounts_.find(account); it != accounts_.end()) {
        it->second.salt = salt;
        it->second.secret_hash = secret_hash;
      }
    }
    done(ok);
  };
  if (!writer_) {
    apply(true);
    return;
  }
  writer_->submit(
      [id = static_cast<std::int64_t>(number(account)), salt, secret_hash](Store& s) {
        s.save_secret(id, salt, secret_hash);
      },
      [apply = std::move(apply)](const std::optional<std::string>& failure) { apply(!failure); });
}

void StoredAccounts::save_token(AccountId account, const std::string& token_hash) {
  if (!writer_) return;
  writer_->submit([id = static_cast<std::int64_t>(number(account)), token_hash](Store& s) {
    s.save_token(id, token_hash);
  });
}

void StoredAccounts::drop_token(AccountId account) {
  if (!writer_) return;
  writer_->submit(
      [id = static_cast<std::int64_t>(number(account))](Store& s) { s.drop_token(id); });
}

std::vector<StoredPlayer> StoredAccounts::leaderboard(std::size_t limit) const {
  std::vector<StoredPlayer> top;
  for (const AccountId id : ranking_.top(limit)) top.push_back(accounts_.at(id));
  return top;
}

Standing StoredAccounts::standing(AccountId id) const {
  Standing s;
  s.ranked = ranking_.size();
  s.rank = ranking_.rank(id);
  return s;
}

void StoredAccounts::history(AccountId account, int limit, HistoryDone done) {
  if (!writer_) {
    done(std::nullopt);
    return;
  }
  auto games = std::make_shared<std::vector<GameRecord>>();
  writer_->submit([games, id = static_cast<std::int64_t>(number(account)),
                   limit](Store& s) { *games = s.history(id, limit); },
                  [games, done = std::move(done)](const std::optional<std::string>& failure) {
                    if (failure) {
                      done(std::nullopt);
                    } else {
                      done(std::move(*games));
                    }
                  });
}

void StoredAccounts::replay(RecordId record, ReplayDone done) {
  if (!writer_) {
    done(false, std::nullopt);
    return;
  }
  auto game = std::make_shared<std::optional<GameRecord>>();
  writer_->submit([game, record](Store& s) { *game = s.game(number(record)); },
                  [game, done = std::move(done)](const std::optional<std::string>& failure) {
                    done(!failure, failure ? std::nullopt : std::move(*game));
                  });
}

void StoredAccounts::replay_of_room(std::uint64_t room_id, ReplayDone done) {
  if (!writer_) {
    done(false, std::nullopt);
    return;
  }
  auto game = std::make_shared<std::optional<GameRecord>>();
  writer_->submit(
      [game, room_id](Store& s) {
        *game = s.last_game_of_room(static_cast<std::int64_t>(room_id));
      },
      [game, done = std::move(done)](const std::optional<std::string>& failure) {
        done(!failure, failure ? std::nullopt : std::move(*game));
      });
}

// --- the rating book ------------------------------------------------------------

double StoredAccounts::rating(AccountId account) const {
  const StoredPlayer* p = get(account);
  if (p == nullptr) return 0.0;
  const auto held = pending_.find(account);
  return p->rating + (held == pending_.end() ? 0.0 : held->second);
}

namespace {

// How many different accounts `account` played rated games against, up to
// kVariedOpponents.
int variety(const StoredPlayer& account) { return static_cast<int>(account.opponents.size()); }

// The note for a side whose rating was held (opponent provisional), weighed
// by the repeat rule, against an opponent of `opponent_variety` opponents.
wire::RatingNote note(bool held, double repeat, int opponent_variety) {
  if (held) return wire::RATING_NOTE_PROVISIONAL_OPPONENT;
  if (repeat == 0) return wire::RATING_NOTE_REPEAT;
  if (opponent_variety < kVariedOpponents) return wire::RATING_NOTE_FEW_OPPONENTS;
  if (repeat < 1) return wire::RATING_NOTE_REPEAT;
  return wire::RATING_NOTE_NONE;
}

}  // namespace

std::optional<Settlement> StoredAccounts::settle(AccountId x_id, AccountId o_id,
                                                 const GameResult& result, bool rated, int moves) {
  const StoredPlayer* x = get(x_id);
  const StoredPlayer* o = get(o_id);
  if (x == nullptr || o == nullptr) return std::nullopt;
  const double score = x_score(result);
  Settlement settlement;
  settlement.x.player_id = x->id;
  settlement.o.player_id = o->id;
  // A game that ended before both players moved (a resignation on the first
  // move, a player who never came) says nothing about their strength.
  settlement.rated = rated && x->id != o->id && moves >= kMovesToCount;
  if (settlement.rated) {
    settlement.x.rated = settlement.o.rated = 1;
    const RatingChange change = rate_game(x->rating, o->rating, score);
    double x_change = change.x - x->rating;
    double o_change = change.o - o->rating;
    // An established rating is not moved by a newcomer, little by an
    // account that played few others, nor by the same opponent again and
    // again.
    const bool o_held = is_provisional(*x) && !is_provisional(*o);
    const bool x_held = is_provisional(*o) && !is_provisional(*x);
    if (o_held) o_change = 0;
    if (x_held) x_change = 0;
    // Each side's opponent's different opponents, counted for an established side.
    const int x_variety = is_provisional(*x) ? kVariedOpponents : variety(*o);
    const int o_variety = is_provisional(*o) ? kVariedOpponents : variety(*x);
    const int nth = pairing_count(x->id, o->id, now_ms_()) + 1;
    const double weight = repeat_weight(nth);
    settlement.x.rating_change = x_change * weight * variety_weight(x_variety);
    settlement.o.rating_change = o_change * weight * variety_weight(o_variety);
    // Why a rating moved less, for the players to read: the rule that held
    // it back most.
    if (nth > 1) settlement.repeat_game = nth;
    settlement.x_note = note(x_held, weight, x_variety);
    settlement.o_note = note(o_held, weight, o_variety);
    if (settlement.x_note == wire::RATING_NOTE_FEW_OPPONENTS) settlement.x_variety = x_variety;
    if (settlement.o_note == wire::RATING_NOTE_FEW_OPPONENTS) settlement.o_variety = o_variety;
  } else if (rated && x->id != o->id) {
    settlement.x_note = settlement.o_note = wire::RATING_NOTE_TOO_SHORT;
  }
  for (auto [player, s] :
       {std::pair{&settlement.x, score}, std::pair{&settlement.o, 1.0 - score}}) {
    player->wins = s == 1.0;
    player->losses = s == 0.0;
    player->draws = s == 0.5;
  }
  hold(settlement.x, +1);
  hold(settlement.o, +1);
  return settlement;
}

void StoredAccounts::settled(const Settlement& settlement, bool ok) {
  hold(settlement.x, -1);
  hold(settlement.o, -1);
  if (!ok) return;
  apply(settlement.x);
  apply(settlement.o);
  if (settlement.rated) {
    remember_pairing(settlement.x.player_id, settlement.o.player_id, now_ms_());
    for (auto [who, whom] : {std::pair{settlement.x.player_id, settlement.o.player_id},
                             std::pair{settlement.o.player_id, settlement.x.player_id}}) {
      if (auto it = accounts_.find(static_cast<AccountId>(who)); it != accounts_.end()) {
        add_opponent(it->second, whom);
      }
    }
  }
  reread_figures(static_cast<AccountId>(settlement.x.player_id));
  reread_figures(static_cast<AccountId>(settlement.o.player_id));
}

int StoredAccounts::pairing_count(std::int64_t a, std::int64_t b, std::int64_t now) {
  const auto it = pairings_.find(std::minmax(a, b));
  if (it == pairings_.end()) return 0;
  auto& times = it->second;
  while (!times.empty() && times.front() < now - kRepeatWindowMs) times.pop_front();
  const int count = static_cast<int>(times.size());
  if (times.empty()) pairings_.erase(it);
  return count;
}

void StoredAccounts::remember_pairing(std::int64_t a, std::int64_t b, std::int64_t at) {
  auto& times = pairings_[std::minmax(a, b)];
  times.push_back(at);
  // Only the count within the window matters, and past 4 it is all the same.
  while (times.size() > 8) times.pop_front();
}

void StoredAccounts::hold(const PlayerResult& result, double sign) {
  if (result.rating_change == 0) return;
  const auto account = static_cast<AccountId>(result.player_id);
  double& held = pending_[account];
  held += sign * result.rating_change;
  if (std::abs(held) < 1e-9) pending_.erase(account);
}

void StoredAccounts::apply(const PlayerResult& result) {
  const auto it = accounts_.find(static_cast<AccountId>(result.player_id));
  if (it == accounts_.end()) return;
  StoredPlayer& account = it->second;
  account.rating += result.rating_change;
  ++account.games_played;
  account.wins += result.wins;
  account.losses += result.losses;
  account.draws += result.draws;
  account.rated_games += result.rated;
  ranking_.update(account);
}

}  // namespace ttt::server
