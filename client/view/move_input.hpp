// Typed moves: a cell like `b2` (column letter, then row from 1) or `ROW COL`
// (two numbers from 1), checked against the board with a one-line reason for
// anything that is not a legal move.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ttt/board.hpp"

namespace ttt::client {

// The text the player is told for a move onto an occupied cell.
inline constexpr std::string_view kCellTaken = "That cell is already taken";

// A parsed move, or why the text is not one.
struct MoveParse {
  std::optional<Move> move;  // row and column from 0
  std::string error;         // one line; set when move is empty
};

// True if text has the shape of a move (letter+digits, or two numbers), on
// any board: such text is a move attempt, anything else is not a move at all.
bool looks_like_move(std::string_view text) noexcept;

// Parses a move on a size×size board. Out-of-range cells and text that is
// not a move get a reason naming the board's labels.
MoveParse parse_move(std::string_view text, int size);

// Why `me` may not play `move` on board, or nullopt if the move is legal.
// my_turn says whether the game waits for `me` (the caller knows the state).
std::optional<std::string> move_refusal(const Board& board, Move move, bool my_turn);

// The label of a cell in the move syntax, e.g. "b2" for row 1, column 1.
std::string cell_name(Move move);

// The column label of column col (from 0): 'a', 'b', ...
char column_label(int col) noexcept;

}  // namespace ttt::client
