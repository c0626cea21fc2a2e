// StoredAccounts: the AccountStore over the SQLite store. Every account is
// held in memory (loaded at start) and written through the StoreWriter;
// ratings and counts change in memory only once a game's end is committed,
// as increments, so the database and the memory never disagree. Without a
// writer (--db none) nothing is kept beyond the process.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ids.hpp"
#include "lobby/account_store.hpp"
#include "store/account_ranking.hpp"
#include "store/store.hpp"

namespace ttt::server {

class StoreWriter;

class StoredAccounts final : public AccountStore {
 public:
  // Names are unique under key (text_rules' name_key). writer may be null.
  using NameKey = std::function<std::string(std::string_view)>;
  // pairings: the rated games of the last kRepeatWindowMs, for the repeat rule.
  // blocks: (player, blocked player) as the store keeps them.
  StoredAccounts(StoreWriter* writer, NameKey key, const std::vector<StoredPlayer>& loaded = {},
                 const std::vector<RatedPairing>& pairings = {},
                 const std::vector<std::pair<std::int64_t, std::int64_t>>& blocks = {});

  // Several nodes: account ids from a source no other node shares, and
  // accounts read again from the store when asked (refresh).
  void share(IdSource* ids) {
    ids_ = ids;
    shared_ = true;
  }

  // Test seam: the wall clock (Unix ms) the repeat rule reads.
  void set_clock(std::function<std::int64_t()> now_ms) { now_ms_ = std::move(now_ms); }

  const StoredPlayer* find(std::string_view key) const override;
  const StoredPlayer* get(AccountId id) const override;
  const StoredPlayer& create(StoredPlayer account) override;
  void create_written(StoredPlayer account, std::function<void(bool ok)> done) override;
  void change_secret(AccountId account, std::string salt, std::string secret_hash,
                     std::function<void(bool ok)> done) override;
  void save_token(AccountId account, const std::string& token_hash) override;
  void drop_token(AccountId account) override;
  std::vector<StoredPlayer> leaderboard(std::size_t limit) const override;
  Standing standing(AccountId account) const override;
  bool keeps_games() const override { return writer_ != nullptr; }
  void history(AccountId account, int limit, HistoryDone done) override;
  void replay(RecordId record, ReplayDone done) override;
  void replay_of_room(std::uint64_t room_id, ReplayDone done) override;
  std::size_t size() const override { return accounts_.size(); }
  void refresh(const std::string& key, Refreshed done) override;
  void refresh(AccountId account, Refreshed done) override;
  void keep(const StoredPlayer& account) override;
  void check_token(AccountId account, const std::string& token_hash, TokenChecked done) override;
  void after_writes(std::function<void()> done) override;
  void on_figures(FiguresListener listener) override { figures_listener_ = std::move(listener); }
  void take_figures(const StoredPlayer& figures) override;
  void refresh_figures() override;
  std::vector<std::string> blocked_names(AccountId who) const override;
  void set_blocked(AccountId who, AccountId whom, bool blocked) override;

  // BlockBook
  bool blocks(AccountId listener, AccountId speaker) const override;

  // RatingBook
  double rating(AccountId account) const override;
  std::optional<Settlement> settle(AccountId x, AccountId o, const GameResult& result, bool rated,
                                   int moves) override;
  void settled(const Settlement& settlement, bool ok) override;

 private:
  // Reads one account with `read` on the writer's thread and keeps it.
  void reread(std::function<std::optional<StoredPlayer>(Store&)> read, Refreshed done);

  // Adds (sign +1) or removes (-1) a rating change in flight.
  void hold(const PlayerResult& result, double sign);
  void apply(const PlayerResult& result);
  // Tells the listener (several nodes) the account's figures now.
  void tell_figures(AccountId account) const;
  // Several nodes: reads the account's figures as committed (another node
  // may have added results to them meanwhile: the server's bots play at
  // every node at once), takes them and tells them. One read at a time is
  // in the writer's queue, for every account whose results were committed
  // since the last one began (not a read a result: the writer's queue is
  // every move's way to the database).
  void reread_figures(AccountId account);
  void read_wanted_figures();
  // The rated games a and b played together within the repeat window
  // (forgetting older ones), and one more.
  int pairing_count(std::int64_t a, std::int64_t b, std::int64_t now);
  void remember_pairing(std::int64_t a, std::int64_t b, std::int64_t at);

  StoreWriter* writer_;
  NameKey key_;
  std::unordered_map<AccountId, StoredPlayer> accounts_;
  std::unordered_map<std::string, AccountId> by_key_;
  AccountRanking ranking_;  // accounts_ that have played, in the leaderboard's order
  // Rating changes written but not yet committed: what players are shown at
  // a game's end is what the database will say.
  std::unordered_map<AccountId, double> pending_;
  // Each pair's rated games in the repeat window (ended_ms, oldest first),
  // by (smaller id, larger id).
  std::map<std::pair<std::int64_t, std::int64_t>, std::deque<std::int64_t>> pairings_;
  std::unordered_map<AccountId, std::set<AccountId>> blocks_;  // who -> whom
  // The number of the last change of blocks made here, by who: a read of
  // someone's blocks begun before one of theirs does not undo it.
  std::unordered_map<AccountId, std::uint64_t> block_changes_;
  std::uint64_t block_change_count_ = 0;
  std::function<std::int64_t()> now_ms_;
  std::int64_t next_id_ = 1;
  IdSource* ids_ = nullptr;  // null: counting on from next_id_
  FiguresListener figures_listener_;
  std::set<AccountId> figures_wanted_;  // to read at the next reread
  bool figures_reading_ = false;        // a reread is in the writer's queue
  bool shared_ = false;
};

}  // namespace ttt::server
