// SequenceIds: ids of one kind taken from a PostgreSQL sequence a block at
// a time (Store::reserve_ids), through the StoreWriter, so that the nodes
// sharing the database never hand out the same id. The next block is asked
// for when the ids in hand fall to half a block; only when they run out
// before it came (a burst, or the database away) does next() wait for it,
// and that wait holds up its caller (the lobby's thread, for game records).
// So a block grows with the demand: twice the last one when that was asked
// for less than kBlockLasts before, down again by half when it lasted ten
// times that, from kBlock up to kMaxBlock ids (a node that stops loses at
// most the ids left in hand). Safe from any thread.
#pragma once

#include <chrono>
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
  static constexpr int kMaxBlock = 4096;
  static constexpr std::chrono::milliseconds kBlockLasts{1'000};

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
  std::int64_t in_hand_ = 0;                                  // ids left in blocks_
  int block_ = kBlock;                                        // the size of the next block
  std::chrono::steady_clock::time_point last_asked_{};
};

}  // namespace ttt::server
