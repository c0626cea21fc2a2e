#include "store/sequence_ids.hpp"

#include "store/store_writer.hpp"

namespace ttt::server {

SequenceIds::SequenceIds(StoreWriter& writer, Store::IdKind kind) : writer_(writer), kind_(kind) {
  refill();
  writer_.flush();
}

void SequenceIds::refill() {
  {
    std::lock_guard lock(mutex_);
    if (asked_) return;
    asked_ = true;
  }
  // The job may run twice (its batch rolled back and run again): a block
  // taken by the first run is simply never used.
  // A failure is told here, on the writer's thread: next() may be waiting
  // on the logic executor, where the writer's completions go.
  writer_.submit([this](Store& store) {
    std::int64_t first = 0;
    try {
      first = store.reserve_ids(kind_, kBlock);
    } catch (...) {
      std::lock_guard lock(mutex_);
      asked_ = false;  // asked again by the next id
      arrived_.notify_all();
      throw;
    }
    std::lock_guard lock(mutex_);
    blocks_.emplace_back(first, first + kBlock);
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
      const bool half_used = end - first == kBlock / 2;
      if (first == end) blocks_.pop_front();
      const bool low = blocks_.size() <= 1 && (half_used || blocks_.empty());
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
