// StoreJournal: the GameJournal over the store's writer thread (SQLite or
// PostgreSQL, group commit). A game's start is written with its players' rows; if that write
// fails, it is written again, idempotently, with the game's next write, so a
// failed start doesn't doom the game. Without a writer (--db none) every
// write succeeds at once and nothing is kept. Among several nodes every move
// and end is written only while this node holds the game (Store's held
// writes); a write refused because another node holds it now fails, and
// on_lost hears of it first.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "game/game_journal.hpp"
#include "ids.hpp"
#include "records.hpp"

namespace ttt::server {

class Store;
class StoreWriter;
class StoredAccounts;

class StoreJournal final : public GameJournal {
 public:
  // last_record: the highest record id already stored.
  StoreJournal(StoreWriter* writer, const StoredAccounts& accounts, RecordId last_record);

  // Several nodes: record ids from a source no other node shares, and each
  // game written as held by this node.
  void share(IdSource* ids, std::string node) {
    ids_ = ids;
    node_ = std::move(node);
  }
  // Called (on the logic executor) when a write of `record` was refused
  // because node `holder` holds the game now, or it is over: just before
  // that write's done(false).
  using Lost = std::function<void(RecordId record, const std::string& holder)>;
  void on_lost(Lost handler) { on_lost_ = std::move(handler); }

  RecordId start(const GameStart& game, Done done) override;
  void move(RecordId record, const MoveEntry& entry, const std::optional<GameEnding>& end,
            Done done) override;
  void end(RecordId record, const GameEnding& ending, Done done) override;

 private:
  // A start as written: the game's row and its players' rows.
  struct StartRecord {
    GameRecord game;
    StoredPlayer x;
    StoredPlayer o;
    void write(Store& store) const;
  };
  // The start of `record` if it is not yet known to be committed.
  std::optional<StartRecord> pending_start(RecordId record) const;
  // Submits a job; done(ok) on the logic executor (at once without a writer).
  void submit(std::function<void(Store&)> job, Done done);
  // Submits a job that writes game `record`: if it is refused as lost,
  // on_lost hears of it before done(false).
  void submit_held(RecordId record, std::function<void(Store&)> job, Done done);

  StoreWriter* writer_;
  const StoredAccounts& accounts_;
  RecordId last_record_;
  IdSource* ids_ = nullptr;
  std::string node_;
  Lost on_lost_;
  std::unordered_map<RecordId, StartRecord> pending_starts_;
};

}  // namespace ttt::server
