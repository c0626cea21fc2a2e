#include "ai/ai_run_prover.hpp"

#include <algorithm>
#include <vector>

#include "ai/ai_rng.hpp"

namespace ttt::internal::ai {
namespace {

constexpr std::uint32_t kInfinite = 1u << 30;

std::uint32_t add(std::uint32_t a, std::uint32_t b) noexcept {
  return std::min<std::uint64_t>(std::uint64_t{a} + b, kInfinite);
}

struct Numbers {
  std::uint32_t pn;
  std::uint32_t dn;
};

constexpr Numbers kProven{0, kInfinite};
constexpr Numbers kDisproven{kInfinite, 0};

struct Child {
  int cell;
  Numbers n;
};

class Prover {
 public:
  Prover(const RunBoard& board, SearchLimits& limits, ProofTable& table,
         const ProverSettings& settings)
      : board_(board),
        attacker_(board.to_move()),
        defender_(opponent(board.to_move())),
        limits_(limits),
        table_(table),
        settings_(settings),
        // The attacker is part of the key: a position with X to move is an
        // OR node when X attacks and an AND node when O does, and their
        // numbers mean different things.
        salt_(mix64(0xDF9Bull ^ (settings.fours_only ? 0x10 : 0x20) ^
                    (board.to_move() == Player::X ? 0x40 : 0x80) ^
                    (static_cast<std::uint64_t>(settings.max_plies) << 8) ^
                    (static_cast<std::uint64_t>(board.win_length()) << 16) ^
                    (static_cast<std::uint64_t>(board.exact()) << 24))),
        children_(static_cast<std::size_t>(settings.max_plies + 2) * board.cells()) {}

  // Searches from the root until it is proven or disproven or the limits
  // stop it; the winning first move, if proven.
  std::optional<ThreatWin> run();

 private:
  bool attacking() const noexcept { return board_.to_move() == attacker_; }
  std::uint64_t key() const noexcept { return board_.hash() ^ salt_; }
  // The numbers of a node settled without search, or nullopt; fills the
  // node's moves otherwise (at `moves`, their count in *count).
  std::optional<Numbers> expand(int ply, Child* moves, int* count) const;
  // The first guess at the numbers of the node after `cell`.
  Numbers estimate(int ply, int cell);
  // Searches the node until its numbers reach a threshold.
  Numbers mid(int ply, std::uint32_t th_pn, std::uint32_t th_dn);
  Numbers known(Numbers fallback) const noexcept {
    const ProofTable::Entry* e = table_.probe(key());
    return e != nullptr ? Numbers{e->pn, e->dn} : fallback;
  }
  void remember(Numbers n) noexcept { table_.store({key(), n.pn, n.dn}); }

  RunBoard board_;
  Player attacker_;
  Player defender_;
  SearchLimits& limits_;
  ProofTable& table_;
  const ProverSettings& settings_;
  std::uint64_t salt_;
  std::vector<Child> children_;  // a list of moves per ply
  bool aborted_ = false;
};

std::optional<Numbers> Prover::expand(int ply, Child* moves, int* count) const {
  *count = 0;
  auto add_move = [&](int cell) { moves[(*count)++] = {cell, {1, 1}}; };
  if (attacking()) {
    if (board_.wins(attacker_).any()) return kProven;
    const int against = board_.threat_count(defender_, Threat::Five);
    if (against >= 2) return kDisproven;
    // An open four next move: the defender has no five to stop it.
    if (against == 0 && board_.open_fours(attacker_).any()) return kProven;
    // A line this long proves nothing, even where the attacker owes a block.
    if (ply >= settings_.max_plies) return kDisproven;
    if (against == 1) {
      add_move(board_.wins(defender_).first());
    } else {
      CellSet cells = board_.fours(attacker_);
      if (!settings_.fours_only) cells |= board_.threes(attacker_);
      cells.for_each(add_move);
    }
    if (*count == 0) return kDisproven;
    return std::nullopt;
  }
  if (board_.wins(defender_).any()) return kDisproven;
  const int fives = board_.threat_count(attacker_, Threat::Five);
  if (fives >= 2) return kProven;
  if (ply >= settings_.max_plies) return kDisproven;
  if (fives == 1) {
    add_move(board_.wins(attacker_).first());
    return std::nullopt;
  }
  // The attacker's move threatened nothing: the attack is over.
  if (!board_.open_fours(attacker_).any()) return kDisproven;
  board_.defences().for_each(add_move);
  if (*count == 0) return kProven;
  return std::nullopt;
}

Numbers Prover::estimate(int ply, int cell) {
  // A child met before, searched or only estimated, is in the table: no
  // need to play it. Re-expanding a node estimates its children again.
  if (const ProofTable::Entry* e = table_.probe(board_.hash_after(cell) ^ salt_)) {
    return {e->pn, e->dn};
  }
  board_.play(cell);
  Child* scratch = &children_[static_cast<std::size_t>(ply + 1) * board_.cells()];
  int count = 0;
  Numbers n;
  if (const auto settled = expand(ply + 1, scratch, &count)) {
    n = *settled;
  } else if (attacking()) {
    // The attacker's choice: any of its moves may prove it.
    n = {1, static_cast<std::uint32_t>(count)};
  } else {
    // The defender's choice: every reply must be proven.
    n = {static_cast<std::uint32_t>(count), 1};
  }
  remember(n);
  board_.undo(cell);
  return n;
}

Numbers Prover::mid(int ply, std::uint32_t th_pn, std::uint32_t th_dn) {
  if (limits_.tick()) {
    aborted_ = true;
    return known({1, 1});
  }
  Child* moves = &children_[static_cast<std::size_t>(ply) * board_.cells()];
  int count = 0;
  if (const auto settled = expand(ply, moves, &count)) {
    remember(*settled);
    return *settled;
  }
  for (int i = 0; i < count; ++i) moves[i].n = estimate(ply, moves[i].cell);
  const bool or_node = attacking();
  Numbers n{};
  for (;;) {
    // This node's numbers from its children's, and the child to follow with
    // the runner-up's number, for its threshold.
    int best = 0;
    std::uint32_t second = kInfinite;
    std::uint32_t sum = 0;
    for (int i = 0; i < count; ++i) {
      const std::uint32_t own = or_node ? moves[i].n.pn : moves[i].n.dn;
      sum = add(sum, or_node ? moves[i].n.dn : moves[i].n.pn);
      const std::uint32_t top = or_node ? moves[best].n.pn : moves[best].n.dn;
      if (i == 0) continue;
      if (own < top) {
        second = top;
        best = i;
      } else if (own < second) {
        second = own;
      }
    }
    const std::uint32_t low = or_node ? moves[best].n.pn : moves[best].n.dn;
    n = or_node ? Numbers{low, sum} : Numbers{sum, low};
    if (n.pn >= th_pn || n.dn >= th_dn || aborted_) break;
    Child& child = moves[best];
    // 1 + epsilon: a child is searched a little past its runner-up, so the
    // search does not swing between siblings.
    const std::uint32_t near = second >= kInfinite ? kInfinite : add(second, second / 4 + 1);
    std::uint32_t child_pn;
    std::uint32_t child_dn;
    if (or_node) {
      child_pn = std::min(th_pn, near);
      child_dn = th_dn >= kInfinite ? kInfinite : add(th_dn - n.dn, child.n.dn);
    } else {
      child_dn = std::min(th_dn, near);
      child_pn = th_pn >= kInfinite ? kInfinite : add(th_pn - n.pn, child.n.pn);
    }
    board_.play(child.cell);
    child.n = mid(ply + 1, child_pn, child_dn);
    board_.undo(child.cell);
  }
  if (!aborted_) remember(n);
  return n;
}

std::optional<ThreatWin> Prover::run() {
  Child* moves = &children_[0];
  int count = 0;
  if (const auto settled = expand(0, moves, &count)) {
    if (settled->pn != 0) return std::nullopt;
    // Won already: a five, or an open four to make.
    const int cell = board_.wins(attacker_).any() ? board_.wins(attacker_).first()
                                                  : board_.open_fours(attacker_).first();
    return ThreatWin{cell, board_.wins(attacker_).any() ? 1 : 2};
  }
  const Numbers n = mid(0, kInfinite - 1, kInfinite - 1);
  if (n.pn != 0) return std::nullopt;
  // The proven move of the root: a child whose proof number is 0.
  count = 0;
  expand(0, moves, &count);
  for (int i = 0; i < count; ++i) {
    board_.play(moves[i].cell);
    const ProofTable::Entry* e = table_.probe(key());
    const bool proven = e != nullptr && e->pn == 0;
    board_.undo(moves[i].cell);
    if (proven) return ThreatWin{moves[i].cell, 0};
  }
  return std::nullopt;
}

}  // namespace

ProofTable::ProofTable(int log2_entries)
    : mask_((std::size_t{1} << log2_entries) - 1), entries_(zeroed_array<Entry>(mask_ + 1)) {}

ProofTable& ProofTable::for_this_thread() {
  thread_local ProofTable table;
  return table;
}

void ProofTable::reserve(int log2_entries) {
  log2_entries = std::min(log2_entries, kMaxLog2Entries);
  const std::size_t wanted = std::size_t{1} << log2_entries;
  if (wanted <= mask_ + 1) return;
  entries_ = zeroed_array<Entry>(wanted);
  mask_ = wanted - 1;
}

const ProofTable::Entry* ProofTable::probe(std::uint64_t key) const noexcept {
  const std::size_t i = mix64(key) & mask_ & ~std::size_t{1};
  for (std::size_t s = i; s <= i + 1; ++s) {
    const Entry& e = entries_[s];
    if (e.key == key && (e.pn != 0 || e.dn != 0)) return &e;
  }
  return nullptr;
}

void ProofTable::store(const Entry& entry) noexcept {
  const std::size_t i = mix64(entry.key) & mask_ & ~std::size_t{1};
  auto work = [](const Entry& e) {
    // Settled entries are worth keeping most.
    if (e.pn == 0 || e.dn == 0) return std::uint64_t{kInfinite} * 2;
    return std::uint64_t{e.pn} + e.dn;
  };
  std::size_t victim = i;
  for (std::size_t s = i; s <= i + 1; ++s) {
    const Entry& e = entries_[s];
    if (e.key == entry.key || (e.pn == 0 && e.dn == 0)) {
      victim = s;
      break;
    }
    if (s != victim && work(e) < work(entries_[victim])) victim = s;
  }
  entries_[victim] = entry;
}

std::optional<ThreatWin> prove_threat_win(const RunBoard& board, SearchLimits& limits,
                                          ProofTable& table, const ProverSettings& settings) {
  Prover prover(board, limits, table, settings);
  return prover.run();
}

}  // namespace ttt::internal::ai
