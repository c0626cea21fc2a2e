// The rules of the origin documents on N×N boards: board?, next-move,
// valid-move?, make-move, winner? and draw, plus the Game state machine
// (game.hpp) that refuses a bad move with a typed error.
//
// A line wins only when it is a whole row, a whole column or one of the two
// whole main diagonals: a length-3 diagonal inside a 4×4 board does not win.
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

// A winning line: a whole row or column (index from 0), or a main diagonal
// (Diagonal: top left to bottom right; AntiDiagonal: top right to bottom left,
// index 0 for both).
enum class LineKind { Row, Column, Diagonal, AntiDiagonal };
struct Line {
  LineKind kind;
  int index;
  friend bool operator==(const Line&, const Line&) = default;
};

// The cells of a line on a size×size board, in order along the line.
std::vector<Move> line_cells(Line line, int size);

// A human name for a line with the client's labels: "row 2", "column b",
// "diagonal", "anti-diagonal".
std::string line_name(Line line);

// The origin winner?: the player holding a whole row, column or main
// diagonal, or nullopt. Boards reachable in play have at most one winner; if
// both players hold a line (only possible in hand-written boards) X is named.
std::optional<Player> winner(const Board& board) noexcept;

// The same answer as winner() for a board whose only possible new win runs
// through (row, col), typically the last move: checks just the (at most four)
// lines through that cell. Returns the owner of (row, col) if one of them is
// complete, else nullopt (also for an empty or off-board cell).
std::optional<Player> winner_at(const Board& board, int row, int col) noexcept;

// A complete line of the winner (the first in the order rows, columns,
// diagonal, anti-diagonal), or nullopt when winner() is nullopt.
std::optional<Line> winning_line(const Board& board) noexcept;

// The origin draw: the board is full and nobody has won.
bool is_draw(const Board& board) noexcept;

}  // namespace ttt

#include "ttt/game.hpp"  // IWYU pragma: export
