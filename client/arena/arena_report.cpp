#include "arena/arena_report.hpp"

#include <cmath>
#include <cstdio>

#include "arena/elo.hpp"
#include "view/board_name.hpp"
#include "view/move_input.hpp"

namespace ttt::client {
namespace {

std::string signed_elo(double value) {
  if (std::isinf(value)) return value > 0 ? "+inf" : "-inf";
  if (std::fabs(value) < 0.05) return "+0.0";  // never "-0.0"
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f", value);
  return text;
}

std::string moves_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " move" : " moves"); }

}  // namespace

std::string header_line(const std::string& a, const std::string& b, int games, int size,
                        int win_length, const ArenaClock& clock) {
  std::string line = "arena: " + a + " vs " + b + ", " + std::to_string(games) +
                     (games == 1 ? " game" : " games") + " on " + board_name(size, win_length) +
                     ", " + std::to_string(clock.per_move.count()) + " ms a move";
  if (clock.per_game.count() > 0) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g",
                  static_cast<double>(clock.per_game.count()) / 1000);
    line += std::string(", ") + seconds + " s a game";
  }
  return line;
}

std::string game_line(int number, const std::string& x_name, const std::string& o_name,
                      const std::vector<Move>& opening, const ArenaGame& game) {
  std::string line =
      "game " + std::to_string(number) + ": " + x_name + " (X) vs " + o_name + " (O), ";
  if (opening.empty()) {
    line += "no opening";
  } else {
    line += "opening";
    for (const Move& m : opening) line += " " + cell_name(m);
  }
  line += ": ";
  if (game.interrupted) return line + "interrupted after " + moves_text(game.moves.size());
  if (!game.winner) {
    line += "draw (full board)";
  } else {
    line += std::string(to_string(*game.winner)) + " wins (";
    if (game.forfeited) {
      line += std::string(to_string(*game.forfeited)) + " forfeits: " + game.failure + ")";
    } else {
      line += (game.line ? line_name(*game.line) : std::string("a line")) + ")";
    }
  }
  return line + " after " + moves_text(game.moves.size());
}

std::string record_text(const std::string& game_line, const ArenaGame& game) {
  std::string text = "# " + game_line + "\n";
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    text += (i == 0 ? "" : " ") + cell_name(game.moves[i]);
  }
  return text + "\n";
}

std::string summary_line(const ArenaTally& t) {
  std::string line =
      "arena summary: games=" + std::to_string(t.games) + " wins=" + std::to_string(t.wins) +
      " losses=" + std::to_string(t.losses) + " draws=" + std::to_string(t.draws) +
      " forfeits_a=" + std::to_string(t.forfeits_a) + " forfeits_b=" + std::to_string(t.forfeits_b);
  if (t.games == 0) return line + " score=- elo=- ci95=-";
  const EloEstimate e = estimate_elo(t.wins, t.losses, t.draws);
  char score[32];
  std::snprintf(score, sizeof score, "%.3f", e.score);
  return line + " score=" + score + " elo=" + signed_elo(e.elo) + " ci95=" + signed_elo(e.low) +
         ".." + signed_elo(e.high);
}

void count_game(ArenaTally& tally, const ArenaGame& game, Player a_side) {
  if (game.interrupted) return;
  ++tally.games;
  if (!game.winner) {
    ++tally.draws;
  } else if (*game.winner == a_side) {
    ++tally.wins;
  } else {
    ++tally.losses;
  }
  if (game.forfeited) ++(*game.forfeited == a_side ? tally.forfeits_a : tally.forfeits_b);
}

}  // namespace ttt::client
