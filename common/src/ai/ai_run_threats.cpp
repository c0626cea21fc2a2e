#include "ai/ai_run_threats.hpp"

#include "ai/ai_rng.hpp"

namespace ttt::internal::ai {
namespace {

// Table keys of the search differ from the alpha-beta search's by this
// salt; an entry is a refutation at `depth`.
constexpr std::uint64_t kVcfSalt = 0xF0C5'0000'0000'0001ull;

class VcfSearch {
 public:
  VcfSearch(const RunBoard& board, SearchLimits& limits, SearchTable& table)
      : board_(board),
        attacker_(board.to_move()),
        defender_(opponent(board.to_move())),
        limits_(limits),
        table_(table),
        salt_(table.new_generation()) {}

  // The attacker, to move, wins with at most `fours` fours; first move in *first.
  bool vcf(int fours, int* first);

  bool aborted() const noexcept { return aborted_; }

 private:
  bool four_wins(int cell, int fours);
  bool refuted(std::uint64_t salt, int depth) const;
  void remember_refuted(std::uint64_t salt, int depth);

  RunBoard board_;
  Player attacker_;
  Player defender_;
  SearchLimits& limits_;
  SearchTable& table_;
  std::uint64_t salt_;
  bool aborted_ = false;
};

bool VcfSearch::refuted(std::uint64_t salt, int depth) const {
  const SearchTable::Entry* e = table_.probe(board_.hash() ^ salt_ ^ salt);
  return e != nullptr && e->depth >= depth;
}

void VcfSearch::remember_refuted(std::uint64_t salt, int depth) {
  if (aborted_) return;
  table_.store(
      {board_.hash() ^ salt_ ^ salt, 0, static_cast<std::uint8_t>(depth), Bound::Upper, 0});
}

bool VcfSearch::vcf(int fours, int* first) {
  if (limits_.tick()) {
    aborted_ = true;
    return false;
  }
  if (board_.wins(attacker_).any()) {
    *first = board_.wins(attacker_).first();
    return true;
  }
  const CellSet& against = board_.wins(defender_);
  const int threats_against = board_.threat_count(defender_, Threat::Five);
  if (threats_against >= 2 || fours <= 0) return false;
  if (threats_against == 0 && board_.threat_count(attacker_, Threat::OpenFour) > 0) {
    *first = board_.open_fours(attacker_).first();
    return true;
  }
  if (refuted(kVcfSalt, fours)) return false;
  CellSet moves;
  if (threats_against == 1) {
    const int block = against.first();
    if (board_.fours(attacker_).test(block)) moves.set(block);
  } else {
    moves = board_.fours(attacker_);
  }
  bool won = false;
  moves.for_each([&](int cell) {
    if (won || aborted_) return;
    if (four_wins(cell, fours)) {
      *first = cell;
      won = true;
    }
  });
  if (!won) remember_refuted(kVcfSalt, fours);
  return won;
}

// Whether the four at `cell` wins: the defender, with no five of its own,
// must block it, and the attack goes on from there.
bool VcfSearch::four_wins(int cell, int fours) {
  board_.play(cell);
  bool won = false;
  const int made = board_.threat_count(attacker_, Threat::Five);
  if (board_.threat_count(defender_, Threat::Five) == 0 && made >= 1) {
    if (made >= 2) {
      won = true;
    } else {
      const int block = board_.wins(attacker_).first();
      board_.play(block);
      int unused = -1;
      won = vcf(fours - 1, &unused);
      board_.undo(block);
    }
  }
  board_.undo(cell);
  return won;
}

}  // namespace

std::optional<ThreatWin> find_vcf(const RunBoard& board, SearchLimits& limits, SearchTable& table,
                                  int max_fours) {
  VcfSearch search(board, limits, table);
  for (int fours = 0; fours <= max_fours; ++fours) {
    int first = -1;
    if (search.vcf(fours, &first)) return ThreatWin{first, fours + 1};
    if (search.aborted()) break;
  }
  return std::nullopt;
}

}  // namespace ttt::internal::ai
