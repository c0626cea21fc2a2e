#include "ai/ai_threat_search.hpp"

#include <algorithm>
#include <vector>

namespace ttt::internal::ai {
namespace {

class ThreatSearch {
 public:
  ThreatSearch(const LineBoard& board, SearchLimits& limits)
      : board_(board), attacker_(board.to_move()), limits_(limits) {}

  // True iff the attacker, to move, wins with at most `threats` threats;
  // the first move is left in *first.
  bool wins(int threats, int* first);

 private:
  std::vector<int> candidates() const;
  bool move_wins(int cell, int threats);

  LineBoard board_;
  Player attacker_;
  SearchLimits& limits_;
};

// Cells that leave an open line of the attacker one mark short; or, when the
// defender threatens to win, only the block.
std::vector<int> ThreatSearch::candidates() const {
  const ThreatCells against = board_.threats(opponent(attacker_));
  if (against.count >= 2) return {};
  if (against.count == 1) return {against.cells[0]};
  std::vector<int> cells;
  int empty[LineGeometry::kMaxLines];
  for (int line = 0; line < board_.geometry().line_count; ++line) {
    if (!board_.open_for(attacker_, line) || board_.count(attacker_, line) != board_.size() - 2) {
      continue;
    }
    const int n = board_.empty_cells(line, empty);
    cells.insert(cells.end(), empty, empty + n);
  }
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  return cells;
}

bool ThreatSearch::wins(int threats, int* first) {
  if (limits_.tick()) return false;
  const ThreatCells now = board_.threats(attacker_);
  if (now.count > 0) {
    *first = now.cells[0];
    return true;
  }
  if (threats <= 0) return false;
  for (int cell : candidates()) {
    if (move_wins(cell, threats)) {
      *first = cell;
      return true;
    }
    if (limits_.stopped()) return false;
  }
  return false;
}

// Whether marking `cell` wins: two threats at once, or one threat whose forced
// block leaves a continued attack. The defender cannot win on the block: it
// had no threat left when the attacker moved.
bool ThreatSearch::move_wins(int cell, int threats) {
  board_.play(cell);
  const ThreatCells made = board_.threats(attacker_);
  bool won = made.count >= 2;
  if (made.count == 1) {
    const int block = made.cells[0];
    board_.play(block);
    int unused = -1;
    won = wins(threats - 1, &unused);
    board_.undo(block);
  }
  board_.undo(cell);
  return won;
}

}  // namespace

std::optional<int> find_threat_win(const LineBoard& board, SearchLimits& limits, int max_threats) {
  ThreatSearch search(board, limits);
  for (int threats = 1; threats <= max_threats; ++threats) {
    int first = -1;
    if (search.wins(threats, &first)) return first;
    if (limits.stopped()) break;
  }
  return std::nullopt;
}

}  // namespace ttt::internal::ai
