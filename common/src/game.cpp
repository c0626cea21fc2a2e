#include "ttt/game.hpp"

namespace ttt {

std::string_view to_string(MoveError e) noexcept {
  switch (e) {
    case MoveError::OutOfRange:
      return "that position is not on the board";
    case MoveError::NotYourTurn:
      return "it is not your turn";
    case MoveError::Occupied:
      return "that cell is already taken";
    case MoveError::GameOver:
      return "the game is over";
  }
  return "unknown move error";
}

std::string_view to_string(GameStatus s) noexcept {
  switch (s) {
    case GameStatus::InProgress:
      return "in progress";
    case GameStatus::XWon:
      return "X won";
    case GameStatus::OWon:
      return "O won";
    case GameStatus::Draw:
      return "draw";
  }
  return "unknown status";
}

Game::Game(int size, int win_length) : board_(size, win_length) {
  if (board_.full()) status_ = GameStatus::Draw;
}

std::optional<MoveError> Game::play(Player p, int row, int col) {
  if (over()) return MoveError::GameOver;
  if (p != next_player(board_)) return MoveError::NotYourTurn;
  if (!board_.contains(row, col)) return MoveError::OutOfRange;
  const int index = row * board_.size() + col;
  if (board_.at_index(index) != Cell::Empty) return MoveError::Occupied;

  board_.place(index, p);
  moves_.push_back({row, col});
  if (winner_at(board_, row, col)) {
    status_ = p == Player::X ? GameStatus::XWon : GameStatus::OWon;
    winning_line_ = ttt::winning_line(board_);
  } else if (board_.full()) {
    status_ = GameStatus::Draw;
  }
  return std::nullopt;
}

}  // namespace ttt
