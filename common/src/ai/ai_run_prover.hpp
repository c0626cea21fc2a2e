// Internal: proof-number search for threat wins (k < N), the side to move
// attacking: depth-first proof-number search (df-pn) over the AND/OR tree of
// a VCT or a VCF.
// - The attacker (OR nodes) plays a four, or, in a VCT, a move that makes an
//   open three; it must first block a five of the defender's, and wins on a
//   five, or an open four (or two fours) the defender cannot meet with a five.
// - The defender (AND nodes) must block a four; against an open three it may
//   play any of RunBoard::defences (its fours and the cells that can keep
//   the open four from being made); a move of the attacker's that threatens
//   nothing ends the attack.
// A proof is a forced win against every defence: the search is sound. It is
// complete up to its limits (plies and nodes), and what it learnt about a
// position is kept in the thread's proof table for later calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "ai/ai_exact_table.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai/ai_search_limits.hpp"

namespace ttt::internal::ai {

// What df-pn knows about positions: proof and disproof numbers by position
// (and attacker, and kind of search). One per thread, kept from call to call:
// a proven or disproven position stays so.
class ProofTable {
 public:
  static constexpr int kDefaultLog2Entries = 16;
  static constexpr int kMaxLog2Entries = 22;

  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t pn = 0;
    std::uint32_t dn = 0;  // 0 and 0: an empty slot
  };

  explicit ProofTable(int log2_entries = kDefaultLog2Entries);

  // This thread's table (1 MiB to start with), created on first use.
  static ProofTable& for_this_thread();

  // Grows the table to 2^log2_entries entries (at most kMaxLog2Entries),
  // emptying it; a table already that big is kept as it is.
  void reserve(int log2_entries);

  // The entry of a key, or nullptr.
  const Entry* probe(std::uint64_t key) const noexcept;
  // Stores an entry; of the two slots of its bucket, over the same key, else
  // an empty one, else the one whose numbers are smaller (less work done).
  void store(const Entry& entry) noexcept;

  std::size_t bytes() const noexcept { return (mask_ + 1) * sizeof(Entry); }

 private:
  std::size_t mask_;
  std::unique_ptr<Entry[], ZeroedDeleter> entries_;
};

struct ProverSettings {
  bool fours_only = false;  // a VCF: the attacker plays fours only
  int max_plies = 48;       // a line longer than this is not a proof
};

// A forced win for the side to move found by df-pn within the limits, or
// nullopt: its first move, and `attacks` 1 for a five to make, 2 for an open
// four to make, else 0 (df-pn proves a win without measuring its line).
std::optional<ThreatWin> prove_threat_win(const RunBoard& board, SearchLimits& limits,
                                          ProofTable& table, const ProverSettings& settings);

}  // namespace ttt::internal::ai
