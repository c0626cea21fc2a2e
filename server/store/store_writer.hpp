// StoreWriter: the one thread that talks to the Store. Jobs queue up while a
// transaction commits and go together into the next one (group commit), so
// durability costs one fsync per batch, not per move. A batch first runs
// whole in one transaction (Store::begin_batch: on PostgreSQL its statements
// are sent as they come and answered together at the commit, one round trip
// a batch); only if anything in it fails is it rolled back and run again with
// a savepoint around each job, so that a failing job is rolled back and
// reported alone (savepoints cost a round trip each on PostgreSQL, so
// batches that fail nowhere go without them). A batch that fails because
// the database can't be reached (PostgreSQL away) is neither refused nor
// split: it waits and is written again when the database is back, so that
// nothing is lost and nothing acknowledged is undone. Jobs keep queuing
// meanwhile (players can't run far ahead, as each move waits for its own
// commit), up to a bound; past it new ones are refused at once.
// Completions are posted to the given executor in submission order.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "metrics/metric_types.hpp"
#include "store/store.hpp"

namespace ttt::server {

class StoreWriter {
 public:
  // Jobs that may wait at once (while the database is away) by default;
  // past the bound a new job is refused at once, its done told why.
  static constexpr std::size_t kMaxQueued = 100'000;

  // Runs on the writer thread, inside a transaction; possibly twice (the
  // first run rolled back), so it touches nothing but the store and what it
  // alone reads into.
  using Job = std::function<void(Store&)>;
  // Runs on the completion executor: nullopt on success, else the error.
  using Done = std::function<void(const std::optional<std::string>& error)>;

  // commit_seconds, if given, gets the time each batch took to commit.
  StoreWriter(std::unique_ptr<Store> store, boost::asio::any_io_executor completions,
              metrics::Histogram* commit_seconds = nullptr, std::size_t max_queued = kMaxQueued);
  // Finishes every queued job, then joins.
  ~StoreWriter();

  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // Queues a job; thread-safe. done may be empty.
  void submit(Job job, Done done = {});

  // Runs every queued job now and waits for it (for shutdown and tests).
  void flush();

  // Called (on the completion executor) when the database can't be reached
  // and the writer starts waiting for it (true), and when it is back (false).
  void on_waiting(std::function<void(bool waiting)> handler) {
    std::lock_guard lock(mutex_);
    on_waiting_ = std::move(handler);
  }

  struct Counters {
    std::uint64_t jobs = 0;
    std::uint64_t batches = 0;
    std::uint64_t failures = 0;
    std::uint64_t largest_batch = 0;
    std::size_t queued = 0;     // jobs waiting now
    bool last_batch_ok = true;  // every write of the last batch went through (writable)
    bool waiting = false;       // the database can't be reached: the batch waits for it
  };
  Counters counters() const;

 private:
  struct Pending {
    Job job;
    Done done;
  };
  void run();
  void write_batch(std::vector<Pending>& batch);
  // The batch in one transaction without savepoints; false (rolled back) if
  // anything failed.
  bool write_whole(std::vector<Pending>& batch);
  // The batch with a savepoint around each job: each job's error in results.
  bool write_each(std::vector<Pending>& batch, std::vector<std::optional<std::string>>& results);
  // Ends the open transaction, if the store still has one.
  void rollback_quietly();
  // The database is lost (Store::reachable): waits for it (backing off up
  // to 2 s) and writes the batch whole again until it commits or the
  // writer stops; false if it stopped first.
  bool wait_and_retry(std::vector<Pending>& batch);
  void set_waiting(bool waiting);

  std::unique_ptr<Store> store_;
  boost::asio::any_io_executor completions_;
  metrics::Histogram* commit_seconds_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<Pending> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  Counters counters_;
  std::function<void(bool)> on_waiting_;
  std::size_t max_queued_;
  std::thread thread_;
};

}  // namespace ttt::server
