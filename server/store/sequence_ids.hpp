// SequenceIds: ids of one kind taken from a PostgreSQL sequence a block at
// a time (Store::reserve_ids), through the StoreWriter, so that the nodes
// sharing the database never hand out the same id. The next block is asked
// for when half of the current one is used; only when a block runs out
// before it came (a burst, or the database away) does next() wait for it.
// Safe from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>

#include "ids.hpp"
#include "store/store.hpp"

namespace ttt::server {

class StoreWriter;

class SequenceIds final : public IdSource {
 public:
  static constexpr int kBlock = 64;

  // Takes the first block now (waits for the writer).
  SequenceIds(StoreWriter& writer, Store::IdKind kind);

  std::int64_t next() override;

 private:
  void refill();

  StoreWriter& writer_;
  Store::IdKind kind_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::pair<std::int64_t, std::int64_t>> blocks_;  // [first, end)
  bool asked_ = false;                                        // a block is on its way
};

}  // namespace ttt::server
