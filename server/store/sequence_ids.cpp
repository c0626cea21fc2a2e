#include "store/sequence_ids.hpp"

#include <algorithm>

#include "store/store_writer.hpp"

namespace ttt::server {

SequenceIds::SequenceIds(StoreWriter& writer, Store::IdKind kind) : writer_(writer), kind_(kind) {
  refill();
  writer_.flush();
}

void SequenceIds::refill() {
  int size = 0;
  {
    std::lock_guard lock(mutex_);
    if (asked_) return;
    asked_ = true;
    const auto now = std::chrono::steady_clock::now();
    if (last_asked_ != std::chrono::steady_clock::time_point{}) {
      const auto since = now - last_asked_;
      if (since < kBlockLasts) {
        block_ = std::min(2 * block_, kMaxBlock);
      } else if (since > 10 * kBlockLasts) {
        block_ = std::max(block_ / 2, kBlock);
      }
    }
    last_asked_ = now;
    size = block_;
  }
  // The job may run twice (its batch rolled back and run again): a block
  // taken by the first run is simply never used.
  // A failure is told here, on the writer's thread: next() may be waiting
  // on the logic executor, where the writer's completions go.
  writer_.submit([this, size](Store& store) {
    Store::IdRuns runs;
    try {
      runs = store.reserve_ids(kind_, size);
    } catch (...) {
      std::lock_guard lock(mutex_);
      asked_ = false;  // asked again by the next id
      arrived_.notify_all();
      throw;
    }
    std::lock_guard lock(mutex_);
    for (const auto& [first, end] : runs) {
      blocks_.emplace_back(first, end);
      in_hand_ += end - first;
    }
    asked_ = false;
    arrived_.notify_all();
  });
}

std::int64_t SequenceIds::next() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!blocks_.empty()) {
      auto& [first, end] = blocks_.front();
      const std::int64_t id = first++;
      if (first == end) blocks_.pop_front();
      --in_hand_;
      const bool low = !asked_ && in_hand_ <= block_ / 2;
      lock.unlock();
      if (low) refill();
      return id;
    }
    lock.unlock();
    refill();
    lock.lock();
    arrived_.wait(lock, [this] { return !blocks_.empty() || !asked_; });
  }
}

}  // namespace ttt::server
