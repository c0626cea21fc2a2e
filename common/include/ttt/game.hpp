// Game: the origin `play :: Player -> GridPosition -> Game -> Either
// TicTacToeError Game` as a state machine for one game.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ttt/board.hpp"
#include "ttt/rules.hpp"

namespace ttt {

// Why a move was refused. When several apply, the first in this order is
// reported: GameOver, NotYourTurn, OutOfRange, Occupied.
enum class MoveError {
  OutOfRange,   // the position is not on the board ("wrong field position")
  NotYourTurn,  // the other player is to move ("wrong turn")
  Occupied,     // the field is already taken
  GameOver,     // the game is finished, by a win or a draw
};

// Where a game stands.
enum class GameStatus { InProgress, XWon, OWon, Draw };

// A readable text for each value, e.g. "that cell is already taken".
std::string_view to_string(MoveError e) noexcept;
// "in progress", "X won", "O won", "draw".
std::string_view to_string(GameStatus s) noexcept;

// One game from the empty board to its end. A refused move changes nothing.
class Game {
 public:
  // A new game on an empty size×size board, won by win_length marks in a
  // line (0: the size, the origin's whole-line rule). Throws
  // std::invalid_argument as Board(size, win_length) does. (A 0×0 board is
  // full and won by nobody, so that game starts as a draw.)
  explicit Game(int size, int win_length = 0);

  // The origin play: p marks (row, col). nullopt means accepted; otherwise the
  // reason it was refused and the game is unchanged.
  std::optional<MoveError> play(Player p, int row, int col);

  // Where the game stands after the last accepted move.
  GameStatus status() const noexcept { return status_; }
  bool over() const noexcept { return status_ != GameStatus::InProgress; }

  // The player to move (meaningful while the game is in progress).
  Player to_move() const noexcept { return next_player(board_); }

  const Board& board() const noexcept { return board_; }

  // How many marks in a line win this game (board().win_length()).
  int win_length() const noexcept { return board_.win_length(); }

  // Every accepted move in order; move i was made by X when i is even.
  const std::vector<Move>& moves() const noexcept { return moves_; }

  // The completed line when the game was won, else nullopt.
  std::optional<Line> winning_line() const noexcept { return winning_line_; }

 private:
  Board board_;
  std::vector<Move> moves_;
  GameStatus status_ = GameStatus::InProgress;
  std::optional<Line> winning_line_;
};

}  // namespace ttt
