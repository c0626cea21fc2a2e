#include "console/offline_game.hpp"

#include <string>

#include "console/board_render.hpp"
#include "console/command.hpp"
#include "console/game_text.hpp"
#include "ttt/wire/convert.hpp"
#include "view/move_input.hpp"
#include "view/state_view.hpp"

namespace ttt::client {
namespace {

// The finished game as the server would describe it, for game_over_line.
wire::GameState final_state(const Game& game) {
  wire::GameState state;
  state.set_size(game.board().size());
  state.set_win_length(game.win_length());
  state.set_cells(game.board().to_string());
  switch (game.status()) {
    case GameStatus::XWon:
      state.set_status(wire::GAME_STATUS_X_WON);
      break;
    case GameStatus::OWon:
      state.set_status(wire::GAME_STATUS_O_WON);
      break;
    default:
      state.set_status(wire::GAME_STATUS_DRAW);
      break;
  }
  if (auto line = game.winning_line()) {
    state.set_end_reason(wire::END_REASON_LINE);
    *state.mutable_winning_line() = wire::wire_line_of(*line);
  } else {
    state.set_end_reason(wire::END_REASON_BOARD_FULL);
  }
  return state;
}

class OfflineGame {
 public:
  OfflineGame(const OfflineOptions& options, std::istream& in, std::ostream& out)
      : options_(options), in_(in), out_(out), game_(options.size, options.win_length) {}

  int run() {
    out_ << (options_.vs_ai ? "Offline game: you play X against the AI (" +
                                  std::string(to_string(options_.level)) + ", O)."
                            : std::string("Hot-seat game: X moves first, then O."))
         << rules_note() << " Moves: b2 or 2 2; /quit to stop.\n";
    show_board();
    while (!game_.over()) {
      if (!(options_.vs_ai && game_.to_move() == Player::O ? ai_turn() : human_turn())) {
        out_ << "The game was left unfinished.\n";
        return 0;
      }
    }
    const wire::GameState end = final_state(game_);
    out_ << game_over_line(end) << "\n";
    if (options_.vs_ai) out_ << personal_result(end, wire::SIDE_X) << "\n";
    return 0;
  }

 private:
  // " 5 in a row wins." when k in a row wins (nothing for whole lines).
  std::string rules_note() const {
    if (game_.board().whole_lines()) return "";
    return " " + std::to_string(game_.win_length()) + " in a row wins.";
  }

  // One move typed by the player to move; false when input ends or they quit.
  bool human_turn() {
    const Player me = game_.to_move();
    for (;;) {
      if (options_.prompts) out_ << to_string(me) << " to move> " << std::flush;
      std::string line;
      if (!std::getline(in_, line)) return false;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      if (is_command(line)) {
        const CommandParse parsed = parse_command(line);
        if (parsed.command && parsed.command->kind == CommandKind::Quit) return false;
        out_ << "Offline, only moves and /quit work.\n";
        continue;
      }
      const MoveParse parsed = parse_move(line, game_.board().size());
      if (!parsed.move) {
        out_ << parsed.error << "\n";
        continue;
      }
      if (auto refusal = move_refusal(game_.board(), *parsed.move, true)) {
        out_ << *refusal << "\n";
        continue;
      }
      play(me, *parsed.move);
      return true;
    }
  }

  bool ai_turn() {
    AiOptions ai;
    ai.level = options_.level;
    ai.seed = game_.moves().size();
    const Move move = calculate_next_move(game_.board(), Player::O, ai);
    out_ << "O plays " << cell_name(move) << "\n";
    play(Player::O, move);
    return true;
  }

  void play(Player player, Move move) {
    game_.play(player, move.row, move.col);
    last_ = move;
    show_board();
    if (options_.verbose) out_ << "board: " << board_as_list(game_.board()) << "\n";
  }

  void show_board() {
    out_ << render_board(BoardView{game_.board(), last_, game_.winning_line()},
                         RenderStyle{options_.color});
  }

  const OfflineOptions& options_;
  std::istream& in_;
  std::ostream& out_;
  Game game_;
  std::optional<Move> last_;
};

}  // namespace

int play_offline(const OfflineOptions& options, std::istream& in, std::ostream& out) {
  return OfflineGame(options, in, out).run();
}

}  // namespace ttt::client
