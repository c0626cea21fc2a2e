// Internal: the heuristic searches' transposition table. One per thread
// (thread_local), allocated on the thread's first search and kept for its
// later ones. Keys are salted by their user: a call that must not see what an
// earlier one stored (a search capped in nodes, whose move must depend on its
// inputs alone) takes a fresh salt from new_generation(); a search to the
// clock keeps one salt for its game and variant, so that what earlier moves
// learnt about the positions it meets again is reused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ai/ai_exact_table.hpp"

namespace ttt::internal::ai {

class SearchTable {
 public:
  static constexpr int kDefaultLog2Entries = 18;
  static constexpr int kMaxLog2Entries = 22;

  struct Entry {
    std::uint64_t key = 0;
    std::int32_t score = 0;
    std::uint8_t depth = 0;
    Bound bound = Bound::None;
    std::uint16_t move_plus_one = 0;  // the best cell + 1; 0: none

    bool has_move() const noexcept { return move_plus_one != 0; }
    int move() const noexcept { return move_plus_one - 1; }
  };

  // A table of 2^log2_entries entries of 16 bytes (and an age byte each).
  explicit SearchTable(int log2_entries = kDefaultLog2Entries);

  // This thread's table (4 MiB to start with), created on first use.
  static SearchTable& for_this_thread();

  // Grows the table to 2^log2_entries entries (at most kMaxLog2Entries) if it
  // is smaller, emptying it; a table already that big is kept as it is.
  void reserve(int log2_entries);

  // Starts a generation and returns its salt: keys of earlier ones no longer
  // match. Also starts a new age.
  std::uint64_t new_generation() noexcept;

  // Makes what is stored from now on newer than everything before: older
  // entries are replaced first.
  void new_age() noexcept { ++age_; }

  // The entry for a salted key, or nullptr.
  const Entry* probe(std::uint64_t key) const noexcept;

  // Stores an entry under a salted key: over the entry of the same key, else
  // over an entry of an older age or, among two of this age, the shallower.
  void store(const Entry& entry) noexcept;

  std::size_t bytes() const noexcept { return (mask_ + 1) * (sizeof(Entry) + 1); }

 private:
  std::size_t bucket(std::uint64_t key) const noexcept;

  std::size_t mask_;
  std::unique_ptr<Entry[], ZeroedDeleter> entries_;  // all-zero bytes are empty entries
  std::unique_ptr<std::uint8_t[], ZeroedDeleter> ages_;
  std::uint64_t generation_ = 0;
  std::uint8_t age_ = 0;
};

}  // namespace ttt::internal::ai
