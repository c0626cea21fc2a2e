// AccountStore: the accounts the lobby knows — names with their hashed
// secrets, ratings and counts — plus the resume tokens and the queries about
// past games (leaderboard, history, replay). The accounts live in memory,
// written through to the store, SQLite or PostgreSQL
// (store/stored_accounts.hpp). It is also the rating book the rooms read.
// Runs on the logic executor.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/block_book.hpp"
#include "game/rating.hpp"
#include "game/rating_book.hpp"
#include "ids.hpp"
#include "records.hpp"

namespace ttt::server {

// Where an account stands among those who have played.
struct Standing {
  std::size_t rank = 0;    // 1 = best, as the leaderboard orders; 0 = no games yet
  std::size_t ranked = 0;  // accounts that have played
};

class AccountStore : public RatingBook, public BlockBook {
 public:
  // The account whose name has this key (see text_rules' name_key), or null.
  virtual const StoredPlayer* find(std::string_view key) const = 0;
  virtual const StoredPlayer* get(AccountId id) const = 0;

  // Adds an account (its id is assigned here) and writes it; returns it.
  virtual const StoredPlayer& create(StoredPlayer account) = 0;
  // The same, and done(ok) once the account is written (several nodes: no
  // other node can be sent this player before its account is there to
  // read; a node alone answers at once, its write queued as create's). If
  // the write fails (another node took the name at the same moment), the
  // account is forgotten here and done(false).
  virtual void create_written(StoredPlayer account, std::function<void(bool ok)> done) {
    create(std::move(account));
    done(true);
  }

  // Replaces the account's secret (its salt and salted hash) once it is
  // written; done(false) if the write failed, and the old secret stays.
  // done runs later, on the logic executor.
  virtual void change_secret(AccountId account, std::string salt, std::string secret_hash,
                             std::function<void(bool ok)> done) = 0;

  // Remembers (or forgets) the hash of an account's current resume token.
  virtual void save_token(AccountId account, const std::string& token_hash) = 0;
  virtual void drop_token(AccountId account) = 0;

  // The best-rated accounts that have played, best first.
  virtual std::vector<StoredPlayer> leaderboard(std::size_t limit) const = 0;
  // The account's place in that order.
  virtual Standing standing(AccountId account) const = 0;

  // Whether finished games are kept, so that history and replay can answer.
  virtual bool keeps_games() const = 0;
  // An account's finished games, newest first; nullopt if they could not be
  // read. The answer arrives later, on the logic executor.
  using HistoryDone = std::function<void(std::optional<std::vector<GameRecord>>)>;
  virtual void history(AccountId account, int limit, HistoryDone done) = 0;
  // A game with its moves: read_ok false if it could not be read; the game
  // is nullopt if there is no such record.
  using ReplayDone = std::function<void(bool read_ok, std::optional<GameRecord>)>;
  virtual void replay(RecordId record, ReplayDone done) = 0;
  // The last finished round of a room (a watch link's game), as replay().
  // Without kept games: no record.
  virtual void replay_of_room(std::uint64_t room_id, ReplayDone done) {
    (void)room_id;
    done(true, std::nullopt);
  }

  // How many accounts are known.
  virtual std::size_t size() const = 0;

  // Several nodes: reads the account of that name key (or id) from the
  // records again, so that an account another node made or changed is known
  // here as it is now; done(read_ok) on the logic executor. Accounts held
  // only here (one node) need no reading: the default answers at once.
  using Refreshed = std::function<void(bool read_ok)>;
  virtual void refresh(const std::string& key, Refreshed done) {
    (void)key;
    done(true);
  }
  virtual void refresh(AccountId account, Refreshed done) {
    (void)account;
    done(true);
  }
  // An account as the records hold it now (read along with a game this
  // node takes over).
  virtual void keep(const StoredPlayer& account) { (void)account; }
  // Several nodes: whether `token_hash` is the account's resume token as the
  // records hold it (another node issued it): done(true or false), or
  // done(nullopt) if the records can't be read. Redis only says where a
  // token is held; this says whose it is. One server alone knows its tokens
  // itself: never.
  using TokenChecked = std::function<void(std::optional<bool> matches)>;
  // done() once every change asked for so far is written (at once when
  // nothing is kept): a player sent to another node goes when its token is
  // in the records that node checks it against.
  virtual void after_writes(std::function<void()> done) { done(); }
  virtual void check_token(AccountId account, const std::string& token_hash, TokenChecked done) {
    (void)account;
    (void)token_hash;
    done(false);
  }
  // Several nodes: `listener` hears an account's figures (rating and
  // counts) each time a change to them is committed here (a game's result,
  // a new account), to tell the other nodes.
  using FiguresListener = std::function<void(const StoredPlayer&)>;
  virtual void on_figures(FiguresListener listener) { (void)listener; }
  // The figures another node committed for an account, taken as they are
  // (never its secret); an account not known here yet is added, and its
  // secret is read when its player arrives (refresh).
  virtual void take_figures(const StoredPlayer& figures) { (void)figures; }
  // Several nodes: reads every account's figures again (after the nodes
  // could not hear each other for a while).
  virtual void refresh_figures() {}
  // The names of the accounts `who` blocks, in name order.
  virtual std::vector<std::string> blocked_names(AccountId who) const = 0;
  // Blocks (or unblocks) `whom` for `who`, kept with the account.
  virtual void set_blocked(AccountId who, AccountId whom, bool blocked) = 0;
};

// An account's id as the lobby types it.
inline AccountId account_id(const StoredPlayer& account) noexcept {
  return static_cast<AccountId>(account.id);
}

// Whether an account's rating is still provisional (game/rating.hpp).
inline bool is_provisional(const StoredPlayer& account) noexcept {
  return account.rated_games < kProvisionalGames;
}

}  // namespace ttt::server
