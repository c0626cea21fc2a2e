#include "store/store_writer.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

namespace ttt::server {

namespace {

// spdlog creates its registry on first use, inside the library; have that
// happen before the writer thread can log, not in a race with another thread.
std::unique_ptr<Store> with_logging_ready(std::unique_ptr<Store> store) {
  (void)spdlog::default_logger_raw();
  return store;
}

}  // namespace

StoreWriter::StoreWriter(std::unique_ptr<Store> store, boost::asio::any_io_executor completions,
                         metrics::Histogram* commit_seconds, std::size_t max_queued)
    : store_(with_logging_ready(std::move(store))),
      completions_(std::move(completions)),
      commit_seconds_(commit_seconds),
      max_queued_(max_queued),
      thread_([this] { run(); }) {}

StoreWriter::~StoreWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void StoreWriter::submit(Job job, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) {
      // The database has been away long enough for this many writes to
      // wait: refuse the new one at once (a move is taken back, its player
      // told STORAGE) rather than hold without end.
      ++counters_.failures;
      if (done) {
        boost::asio::post(completions_, [done = std::move(done), max_queued = max_queued_] {
          done(std::string("the database is away and ") + std::to_string(max_queued) +
               " writes wait for it already");
        });
      }
      return;
    }
    queue_.push_back({std::move(job), std::move(done)});
  }
  wake_.notify_one();
}

void StoreWriter::flush() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

StoreWriter::Counters StoreWriter::counters() const {
  std::lock_guard lock(mutex_);
  Counters counters = counters_;
  counters.queued = queue_.size();
  return counters;
}

void StoreWriter::run() {
  std::vector<Pending> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      busy_ = false;
      idle_.notify_all();
      wake_.wait(lock, [this] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping, and everything is written
      batch.swap(queue_);
      busy_ = true;
    }
    write_batch(batch);
    batch.clear();
  }
}

void StoreWriter::rollback_quietly() {
  try {
    store_->rollback();
  } catch (const std::exception&) {
    // Already rolled back (SQLite does on some errors), or the connection is gone.
  }
}

bool StoreWriter::write_whole(std::vector<Pending>& batch) {
  try {
    store_->begin_batch();
    for (auto& pending : batch) pending.job(*store_);
    store_->commit();
    return true;
  } catch (const std::exception&) {
    rollback_quietly();
    return false;
  }
}

bool StoreWriter::write_each(std::vector<Pending>& batch,
                             std::vector<std::optional<std::string>>& results) {
  try {
    store_->begin();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      try {
        store_->savepoint();
        batch[i].job(*store_);
        store_->release();
      } catch (const std::exception& e) {
        results[i] = e.what();
        store_->rollback_to_savepoint();
      }
    }
    store_->commit();
    return true;
  } catch (const std::exception& e) {
    // The transaction itself failed (disk full, I/O error, the connection
    // lost): nothing of it stands.
    for (auto& r : results) {
      if (!r) r = std::string("commit failed: ") + e.what();
    }
    rollback_quietly();
    return false;
  }
}

void StoreWriter::set_waiting(bool waiting) {
  std::function<void(bool)> handler;
  {
    std::lock_guard lock(mutex_);
    if (counters_.waiting == waiting) return;
    counters_.waiting = waiting;
    handler = on_waiting_;
  }
  if (waiting) {
    spdlog::error("database {} can't be reached: writes wait for it", store_->where());
  } else {
    spdlog::info("database {} is back: the writes that waited are committed", store_->where());
  }
  if (handler) boost::asio::post(completions_, [handler, waiting] { handler(waiting); });
}

bool StoreWriter::wait_and_retry(std::vector<Pending>& batch) {
  auto backoff = std::chrono::milliseconds(100);
  set_waiting(true);
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, backoff, [this] { return stopping_; })) break;
    }
    backoff = std::min(backoff * 2, std::chrono::milliseconds(2'000));
    if (write_whole(batch)) {
      set_waiting(false);
      return true;
    }
    if (store_->reachable()) {
      set_waiting(false);
      return false;  // back, but the batch itself fails: judged job by job
    }
  }
  return false;
}

void StoreWriter::write_batch(std::vector<Pending>& batch) {
  std::vector<std::optional<std::string>> results(batch.size());
  const auto started = std::chrono::steady_clock::now();
  bool committed = write_whole(batch);
  if (!committed && !store_->reachable()) committed = wait_and_retry(batch);
  if (!committed) committed = write_each(batch, results);
  if (committed && commit_seconds_ != nullptr) {
    commit_seconds_->observe(std::chrono::steady_clock::now() - started);
  }
  std::uint64_t failures = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (results[i]) {
      ++failures;
      spdlog::error("database write refused: {}", *results[i]);
    }
    if (batch[i].done) {
      boost::asio::post(completions_,
                        [done = std::move(batch[i].done), r = std::move(results[i])] { done(r); });
    }
  }
  std::lock_guard lock(mutex_);
  counters_.jobs += batch.size();
  ++counters_.batches;
  counters_.failures += failures;
  counters_.largest_batch = std::max<std::uint64_t>(counters_.largest_batch, batch.size());
  // A write refused inside a batch that committed (a full disk fails the
  // statement, not the commit) says as much about the store as a failed
  // commit.
  counters_.last_batch_ok = committed && failures == 0;
}

}  // namespace ttt::server
