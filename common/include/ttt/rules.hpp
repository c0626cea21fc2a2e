// The rules of the origin documents on N×N boards: board?, next-move,
// valid-move?, make-move, winner? and draw, plus the Game state machine
// (game.hpp) that refuses a bad move with a typed error.
//
// Every board carries its win length k (board.hpp). With k = N, the origin's
// rule: a line wins only when it is a whole row, a whole column or one of the
// two whole main diagonals (a length-3 diagonal inside a 4×4 board does not
// win). With k < N, any k consecutive marks in a row, a column or any diagonal
// in either direction win (a longer run contains k and wins too). Every
// function below answers by the board's own k.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ttt/board.hpp"

namespace ttt {

// The origin board?: true iff the length is k*k for some integer k >= 0,
// every cell is 'X', 'O' or 'E', and X moved first with turns alternating
// (count(X) - count(O) is 0 or 1). Any size passes, even beyond
// Board::kMaxSize; Board::parse additionally refuses those.
bool is_board(std::string_view cells) noexcept;

// The origin next-move: X when both players have as many marks, else O.
Player next_player(const Board& board) noexcept;

// The origin valid-move?: true iff it is p's turn and (row, col) is on the
// board and empty. Any int row and col, negative or huge, is answered.
bool is_valid_move(const Board& board, int row, int col, Player p) noexcept;

// The origin make-move: the board after p marks (row, col). Precondition:
// is_valid_move(board, row, col, p); a violation throws std::invalid_argument
// (and asserts in debug builds), it never yields a corrupt board.
Board make_move(const Board& board, int row, int col, Player p);

// The direction of a line, which is also its kind: Row runs left to right,
// Column top to bottom, Diagonal top left to bottom right, AntiDiagonal top
// right to bottom left.
enum class LineKind { Row, Column, Diagonal, AntiDiagonal };

// A winning line. Two forms:
// - a whole line (length 0), the only form when k = N: a whole row or column
//   (index from 0) or a main diagonal (index 0 for both diagonals);
// - a run of `length` = k cells when k < N: `start` is its first cell (its
//   top end; for a row its left end), and the cells follow in the direction
//   of `kind`. `index` still says which line of that kind holds the run: the
//   row or the column, and for diagonals col - row (Diagonal) or
//   row + col - (N - 1) (AntiDiagonal), 0 on the main diagonals.
struct Line {
  LineKind kind;
  int index;
  Move start{0, 0};
  int length = 0;
  friend bool operator==(const Line&, const Line&) = default;
};

// The cells of a line on a size×size board, in order along the line (for a
// run, from its start). Cells off the board are left out, so a line from
// untrusted input never names one; at most `size` cells.
std::vector<Move> line_cells(Line line, int size);

// A human name for a line with the client's labels (columns a, b, ...; rows
// from 1): "row 2", "column b", "diagonal", "anti-diagonal" for whole lines;
// "row 3 from c3 to g3", "column d from d2 to d6", "diagonal from b2 to f6",
// "anti-diagonal from g1 to c5" for runs.
std::string line_name(Line line);

// The origin winner?: the player holding a whole row, column or main
// diagonal (k = N), or k consecutive cells in a line (k < N), or nullopt.
// Boards reachable in play have at most one winner; if both players hold a
// line (only possible in hand-written boards) X is named.
std::optional<Player> winner(const Board& board) noexcept;

// The same answer as winner() for a board whose only possible new win runs
// through (row, col), typically the last move: checks just the (at most four)
// lines through that cell, O(k). Returns the owner of (row, col) if one of
// them is complete, else nullopt (also for an empty or off-board cell).
std::optional<Player> winner_at(const Board& board, int row, int col) noexcept;

// A complete line of the winner, or nullopt when winner() is nullopt. For
// k = N a whole line, the first in the order rows, columns, diagonal,
// anti-diagonal; for k < N a run of k cells, the first in the order rows,
// columns, diagonals, anti-diagonals and, within a kind, by its start cell in
// row-major order (of a run longer than k, its first k cells).
std::optional<Line> winning_line(const Board& board) noexcept;

// The origin draw: the board is full and nobody has won.
bool is_draw(const Board& board) noexcept;

// Whether p could still complete a winning line however the game goes on:
// some whole line (k = N), or some k consecutive cells of a line (k < N),
// holds no mark of p's opponent. A clock that runs out loses the game only
// when the opponent can still win this way; otherwise it is a draw.
bool can_still_win(const Board& board, Player p) noexcept;

}  // namespace ttt

#include "ttt/game.hpp"  // IWYU pragma: export
