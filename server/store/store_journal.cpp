#include "store/store_journal.hpp"

#include <chrono>
#include <memory>

#include "store/record_outcome.hpp"
#include "store/store.hpp"
#include "store/store_writer.hpp"
#include "store/stored_accounts.hpp"

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

// A game's end and, unless aborted, its result for both players (in the
// same transaction: a refused end adds nothing to anyone's counts). holder:
// the node that must hold the game (several nodes), or empty.
void write_end(Store& store, const std::string& holder, RecordId record, const GameEnding& ending,
               std::int64_t at_ms) {
  std::optional<bool> rated;
  if (ending.settlement) rated = ending.settlement->rated;
  if (holder.empty()) {
    store.end_game(number(record), status_text(ending.result), stored_reason(ending.result.reason),
                   at_ms, rated);
  } else {
    store.end_held_game(holder, number(record), status_text(ending.result),
                        stored_reason(ending.result.reason), at_ms, rated);
  }
  if (ending.settlement) {
    store.add_result(ending.settlement->x);
    store.add_result(ending.settlement->o);
  }
}

}  // namespace

StoreJournal::StoreJournal(StoreWriter* writer, const StoredAccounts& accounts,
                           RecordId last_record)
    : writer_(writer), accounts_(accounts), last_record_(last_record) {}

void StoreJournal::StartRecord::write(Store& store) const {
  store.save_player(x);
  store.save_player(o);
  store.begin_game(game);
}

std::optional<StoreJournal::StartRecord> StoreJournal::pending_start(RecordId record) const {
  const auto pending = pending_starts_.find(record);
  if (pending == pending_starts_.end()) return std::nullopt;
  return pending->second;
}

void StoreJournal::submit(std::function<void(Store&)> job, Done done) {
  if (!writer_) {
    if (done) done(true);
    return;
  }
  writer_->submit(std::move(job),
                  [done = std::move(done)](const std::optional<std::string>& error) {
                    if (done) done(!error);
                  });
}

void StoreJournal::submit_held(RecordId record, std::function<void(Store&)> job, Done done) {
  if (!writer_) {
    if (done) done(true);
    return;
  }
  // Who holds the game now, when the job found it lost (the job may run
  // twice: each run starts afresh).
  auto lost = std::make_shared<std::optional<std::string>>();
  writer_->submit(
      [lost, job = std::move(job)](Store& s) {
        lost->reset();
        try {
          job(s);
        } catch (const GameLost& e) {
          *lost = e.holder;
          throw;
        }
      },
      [this, record, lost, done = std::move(done)](const std::optional<std::string>& error) {
        if (error && *lost && on_lost_) on_lost_(record, **lost);
        if (done) done(!error);
      });
}

RecordId StoreJournal::start(const GameStart& game, Done done) {
  if (!ids_) last_record_ = RecordId{number(last_record_) + 1};
  const RecordId id = ids_ ? RecordId{ids_->next()} : last_record_;
  if (!writer_) {
    if (done) done(true);
    return id;
  }
  StartRecord start;
  GameRecord& g = start.game;
  g.id = number(id);
  g.room_id = static_cast<std::int64_t>(game.room);
  g.round = static_cast<int>(game.round);
  g.size = game.size;
  g.win_length = game.win_length;
  g.x_player = static_cast<std::int64_t>(number(game.x));
  g.o_player = static_cast<std::int64_t>(number(game.o));
  g.rated = game.rated;
  g.is_private = game.is_private;
  g.invite_code = game.invite_code;
  g.bot_level = game.bot_level;
  g.clock_initial_ms = game.clock_initial.count();
  g.clock_increment_ms = game.clock_increment.count();
  g.started_ms = now_ms();
  g.node = node_;
  if (const StoredPlayer* x = accounts_.get(game.x)) start.x = *x;
  if (const StoredPlayer* o = accounts_.get(game.o)) start.o = *o;
  pending_starts_[id] = start;
  submit([start](Store& s) { start.write(s); },
         [this, id, done = std::move(done)](bool ok) {
           if (ok) pending_starts_.erase(id);
           if (done) done(ok);
         });
  return id;
}

void StoreJournal::move(RecordId record, const MoveEntry& entry,
                        const std::optional<GameEnding>& end, Done done) {
  if (!writer_) {
    if (done) done(true);
    return;
  }
  const StoredMove stored{entry.move.row, entry.move.col, now_ms(), entry.clock_left.count()};
  const int ply = entry.ply;
  const std::optional<StartRecord> start = pending_start(record);
  submit_held(
      record,
      [start, record, ply, stored, end, holder = node_](Store& s) {
        if (start) start->write(s);
        if (holder.empty()) {
          s.add_move(number(record), ply, stored);
        } else {
          s.add_held_move(holder, number(record), ply, stored);
        }
        if (end) write_end(s, holder, record, *end, stored.at_ms);
      },
      [this, record, done = std::move(done)](bool ok) {
        if (ok) pending_starts_.erase(record);
        if (done) done(ok);
      });
}

void StoreJournal::end(RecordId record, const GameEnding& ending, Done done) {
  if (!writer_) {
    if (done) done(true);
    return;
  }
  const std::optional<StartRecord> start = pending_start(record);
  // A failed end leaves the stored game unfinished and its players' records
  // untouched; the game is over for its players all the same, so its start
  // is not kept for a later write.
  submit_held(
      record,
      [start, record, ending, at = now_ms(), holder = node_](Store& s) {
        if (start) start->write(s);
        write_end(s, holder, record, ending, at);
      },
      [this, record, done = std::move(done)](bool ok) {
        pending_starts_.erase(record);
        if (done) done(ok);
      });
}

}  // namespace ttt::server
