// Internal: the heuristic search's transposition table. One per thread
// (thread_local), allocated on the thread's first search and kept for its
// later ones. Each call of the engine starts a new generation whose salt is
// mixed into every key, so a call never sees another call's guesses: the move
// depends on the position and the options alone, never on what ran before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ai/ai_exact_table.hpp"

namespace ttt::internal::ai {

class SearchTable {
 public:
  static constexpr int kDefaultLog2Entries = 18;

  struct Entry {
    std::uint64_t key = 0;
    std::int32_t score = 0;
    std::uint8_t depth = 0;
    Bound bound = Bound::None;
    std::uint16_t move_plus_one = 0;  // the best cell + 1; 0: none

    bool has_move() const noexcept { return move_plus_one != 0; }
    int move() const noexcept { return move_plus_one - 1; }
  };

  // A table of 2^log2_entries entries of 16 bytes.
  explicit SearchTable(int log2_entries = kDefaultLog2Entries);

  // This thread's table (4 MiB), created on first use.
  static SearchTable& for_this_thread();

  // Starts a generation and returns its salt: keys of earlier ones no longer match.
  std::uint64_t new_generation() noexcept;

  // The entry for a salted key, or nullptr.
  const Entry* probe(std::uint64_t key) const noexcept;

  // Stores an entry under a salted key (always replaces).
  void store(const Entry& entry) noexcept;

  std::size_t bytes() const noexcept { return (mask_ + 1) * sizeof(Entry); }

 private:
  std::size_t mask_;
  std::unique_ptr<Entry[], ZeroedDeleter> entries_;  // all-zero bytes are empty entries
  std::uint64_t generation_ = 0;
};

}  // namespace ttt::internal::ai
