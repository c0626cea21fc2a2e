#include "console/typed_moves.hpp"

#include "view/move_input.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

bool TypedMoves::type(const std::string& text, bool game_coming) {
  const wire::GameState* game = game_.state();
  if (!game) {
    if (game_coming) {
      waiting_.push_back(text);  // a game is on its way
      return false;
    }
    say("You are not in a game: /create 3, /quick 3 or /join ID first (/help for more)");
    return false;
  }
  if (game_.watching()) {
    say("You are watching this game: spectators can't move");
    return false;
  }
  if (is_over(*game)) {
    say("The game is over: /rematch to play again, /leave for the lobby");
    return false;
  }
  const MoveParse parsed = parse_move(text, game->size());
  if (!parsed.move) {
    say(parsed.error);
    return false;
  }
  if (auto board = board_of(*game);
      board && board->at(parsed.move->row, parsed.move->col) != Cell::Empty) {
    say(std::string(kCellTaken));
    return false;
  }
  waiting_.push_back(text);
  if (terminal_.interactive() && (!game_.my_turn() || in_flight_ != 0 || waiting_.size() > 1)) {
    say("(" + cell_name(*parsed.move) + " will be played on your turn)");
  }
  play();
  return true;
}

void TypedMoves::type_while_down(const std::string& text) {
  const wire::GameState& game = *game_.state();
  const MoveParse parsed = parse_move(text, game.size());
  if (!parsed.move) {
    say(parsed.error);
    return;
  }
  if (auto board = board_of(game);
      board && board->at(parsed.move->row, parsed.move->col) != Cell::Empty) {
    say(std::string(kCellTaken));
    return;
  }
  if (!typed_down_at_) typed_down_at_.emplace(game.round(), game.move_count());
  waiting_.push_back(text);
  say("(" + cell_name(*parsed.move) +
      " is pending: it is sent when the connection is back, if the position is unchanged)");
}

void TypedMoves::play() {
  while (game_.state() && !game_.watching() && game_.in_progress() && game_.my_turn() &&
         in_flight_ == 0 && !waiting_.empty()) {
    const wire::GameState& game = *game_.state();
    const std::string text = std::move(waiting_.front());
    waiting_.pop_front();
    const MoveParse parsed = parse_move(text, game.size());
    if (!parsed.move) {
      say(parsed.error);
      continue;
    }
    const auto board = board_of(game);
    if (!board) return;
    if (auto refusal = move_refusal(*board, *parsed.move, true)) {
      say(*refusal + " (" + cell_name(*parsed.move) + "): choose another cell");
      continue;
    }
    wire::ClientMessage m;
    m.mutable_make_move()->set_game_id(game.game_id());
    m.mutable_make_move()->set_row(parsed.move->row);
    m.mutable_make_move()->set_col(parsed.move->col);
    in_flight_ = sender_.send(m, false);
    if (in_flight_ == 0) waiting_.push_front(text);
    sent_at_ = std::chrono::steady_clock::now();
    wait_said_ = false;
    return;
  }
}

void TypedMoves::check_after_resume(const wire::GameState& state) {
  const auto typed_at = std::exchange(typed_down_at_, std::nullopt);
  if (!typed_at || waiting_.empty()) return;
  if (typed_at->first == state.round() && typed_at->second == state.move_count()) {
    say("Sending the moves typed while disconnected.");
    return;
  }
  std::string cells;
  for (const std::string& text : waiting_) cells += (cells.empty() ? "" : ", ") + text;
  waiting_.clear();
  say("Not sent: " + cells +
      " (the position changed while you were disconnected; look at the board and move again).");
}

void TypedMoves::refused(std::uint32_t request) noexcept {
  if (request != 0 && request == in_flight_) in_flight_ = 0;
}

void TypedMoves::tick(time_point now) {
  if (in_flight_ == 0 || wait_said_ || now - sent_at_ < kAnswerWait) return;
  wait_said_ = true;
  say("(Your move is sent; no answer from the server yet: the connection may be slow or down.)");
}

void TypedMoves::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
