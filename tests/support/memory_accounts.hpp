// MemoryAccounts: an AccountStore in a map, for tests that drive the lobby
// or one of its parts without a database. Ratings are as the test sets them;
// what the lobby asked of it (accounts made, tokens saved, settlements) is
// recorded. Token hashes set in `records` answer check_token as another
// node's records would.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lobby/account_store.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::testing {

using server::AccountId;
using server::GameRecord;
using server::GameResult;
using server::RecordId;
using server::Settlement;
using server::Standing;
using server::StoredPlayer;

class MemoryAccounts final : public server::AccountStore {
 public:
  const StoredPlayer* find(std::string_view key) const override {
    for (const auto& [id, account] : accounts_) {
      if (server::name_key(account.name) == key) return &account;
    }
    return nullptr;
  }
  const StoredPlayer* get(AccountId id) const override {
    const auto it = accounts_.find(static_cast<std::int64_t>(id));
    return it == accounts_.end() ? nullptr : &it->second;
  }
  const StoredPlayer& create(StoredPlayer account) override {
    account.id = static_cast<std::int64_t>(accounts_.size()) + 1;
    created.push_back(account.name);
    return accounts_[account.id] = std::move(account);
  }
  // A new secret is stored at once (or refused, with secret_write_fails),
  // or, with answer_later set, when the test runs what it left in `later`.
  void change_secret(AccountId, std::string, std::string, std::function<void(bool)> done) override {
    answer([this, done = std::move(done)] { done(!secret_write_fails); });
  }
  void save_token(AccountId account, const std::string&) override {
    tokens_saved.push_back(account);
  }
  void drop_token(AccountId) override {}
  std::vector<StoredPlayer> leaderboard(std::size_t limit) const override {
    leaderboard_limits.push_back(limit);
    return top;
  }
  Standing standing(AccountId) const override { return place; }
  bool keeps_games() const override { return keeps; }
  // An account as another node's records hold it (a game taken over):
  // known here from now on.
  void keep(const StoredPlayer& account) override {
    kept.push_back(account.name);
    accounts_[account.id] = account;
  }
  void refresh_figures() override { ++figures_refreshed; }
  // A history or replay answers at once, or, with answer_later set, when
  // the test runs what it left in `later` (run_later).
  void history(AccountId account, int limit, HistoryDone done) override {
    history_asked.emplace_back(account, limit);
    answer([this, done = std::move(done)] { done(games); });
  }
  void replay(RecordId record, ReplayDone done) override {
    answer([this, record, done = std::move(done)] {
      const auto it = finished.find(record);
      done(!read_fails, it == finished.end() ? std::nullopt : std::optional(it->second));
    });
  }
  void replay_of_room(std::uint64_t room, ReplayDone done) override {
    answer([this, room, done = std::move(done)] {
      for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
        if (static_cast<std::uint64_t>(it->second.room_id) == room) {
          return done(!read_fails, it->second);
        }
      }
      done(!read_fails, std::nullopt);
    });
  }
  std::size_t size() const override { return accounts_.size(); }
  // Blocks, kept as the store keeps them: who blocked whom.
  std::vector<std::string> blocked_names(AccountId account) const override {
    std::vector<std::string> names;
    for (const auto& [by, whom] : blocked_) {
      const StoredPlayer* blocked = get(whom);
      if (by == account && blocked != nullptr) names.push_back(blocked->name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  void set_blocked(AccountId by, AccountId whom, bool blocked) override {
    if (blocked) {
      blocked_.insert({by, whom});
    } else {
      blocked_.erase({by, whom});
    }
  }
  bool blocks(AccountId by, AccountId whom) const override { return blocked_.contains({by, whom}); }

  double rating(AccountId account) const override {
    const StoredPlayer* a = get(account);
    return a == nullptr ? 0 : a->rating;
  }
  std::optional<Settlement> settle(AccountId x, AccountId o, const GameResult& result, bool rated,
                                   int moves) override {
    settlements.push_back({x, o, result.winner, rated, moves});
    Settlement s;
    s.x.player_id = static_cast<std::int64_t>(x);
    s.o.player_id = static_cast<std::int64_t>(o);
    s.rated = rated;
    return s;
  }
  void settled(const Settlement&, bool ok) override { settled_ok.push_back(ok); }

  void set_rating(const std::string& name, double rating) {
    for (auto& [id, account] : accounts_) {
      if (account.name == name) account.rating = rating;
    }
  }

  struct Asked {
    AccountId x, o;
    std::optional<Player> winner;
    bool rated;
    int moves;
  };
  // The records' token hashes (as another node saved them), for check_token.
  void check_token(AccountId account, const std::string& token_hash, TokenChecked done) override {
    const auto it = records.find(account);
    done(it != records.end() && it->second == token_hash);
  }

  // Reads of the records (refresh by account) and waits for writes
  // (after_writes) answer at once, or, with answer_later set, when the test
  // runs what they left in `later` (a store whose records are elsewhere).
  using server::AccountStore::refresh;
  void refresh(AccountId, Refreshed done) override {
    answer([done = std::move(done)] { done(true); });
  }
  void after_writes(std::function<void()> done) override { answer(std::move(done)); }
  bool answer_later = false;
  std::vector<std::function<void()>> later;
  // Runs what waits in `later` (and what that asks meanwhile waits again).
  void run_later() {
    auto waiting = std::move(later);
    later.clear();
    for (auto& run : waiting) run();
  }

  std::map<AccountId, std::string> records;
  std::vector<std::string> kept;  // the accounts kept, in order
  int figures_refreshed = 0;
  // The records' side: whether games are kept, the leaderboard, a
  // standing, a history (nullopt: it can't be read), the finished games.
  bool keeps = false;
  std::vector<StoredPlayer> top;
  Standing place;
  std::optional<std::vector<GameRecord>> games;
  std::map<RecordId, GameRecord> finished;
  bool read_fails = false;
  bool secret_write_fails = false;
  mutable std::vector<std::size_t> leaderboard_limits;
  std::vector<std::pair<AccountId, int>> history_asked;
  std::vector<std::string> created;
  std::vector<AccountId> tokens_saved;
  std::vector<Asked> settlements;
  std::vector<bool> settled_ok;

 private:
  void answer(std::function<void()> run) {
    if (answer_later) {
      later.push_back(std::move(run));
    } else {
      run();
    }
  }

  std::map<std::int64_t, StoredPlayer> accounts_;
  std::set<std::pair<AccountId, AccountId>> blocked_;
};

}  // namespace ttt::testing
