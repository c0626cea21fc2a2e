#include "ttt/ai.hpp"

#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

#include "ai/ai_run_levels.hpp"
#include "ai/ai_strong_levels.hpp"
#include "ai/ai_turn.hpp"
#include "ai/ai_weak_levels.hpp"
#include "ttt/rules.hpp"

namespace ttt {
namespace {

constexpr std::array<std::string_view, 5> kLevelNames = {"random", "easy", "medium", "hard",
                                                         "perfect"};

bool same_name(std::string_view name, std::string_view lower) {
  if (name.size() != lower.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != lower[i]) return false;
  }
  return true;
}

// Whether a run of exactly k equal marks lies in a row, column or diagonal
// (a win under the standard rule, where an overline is none).
bool has_exact_run(const Board& board) {
  static constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  const int n = board.size();
  const int k = board.win_length();
  for (const auto& [dr, dc] : kSteps) {
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < n; ++col) {
        const Cell mark = board.at(row, col);
        // Only runs that start here: the cell before is another.
        if (mark == Cell::Empty ||
            (board.contains(row - dr, col - dc) && board.at(row - dr, col - dc) == mark)) {
          continue;
        }
        int length = 0;
        for (int r = row, c = col; board.contains(r, c) && board.at(r, c) == mark;
             r += dr, c += dc) {
          ++length;
        }
        if (length == k) return true;
      }
    }
  }
  return false;
}

bool won(const Board& board, GomokuRule rule) {
  if (board.whole_lines() || rule == GomokuRule::Freestyle) return winner(board).has_value();
  return has_exact_run(board);
}

// Why there is no move for `player` to choose on `board`, or empty.
std::string precondition_failure(const Board& board, Player player, GomokuRule rule) {
  const int lead = board.count(Player::X) - board.count(Player::O);
  if (lead != 0 && lead != 1) return "the board is not a position of play";
  if (won(board, rule)) return "the game is already won";
  if (board.full()) return "the board is full";
  if (next_player(board) != player)
    return "it is not " + std::string(to_string(player)) + "'s turn";
  return {};
}

}  // namespace

std::string_view to_string(Level level) noexcept {
  const auto i = static_cast<std::size_t>(level);
  return i < kLevelNames.size() ? kLevelNames[i] : "unknown";
}

std::optional<Level> parse_level(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (same_name(name, kLevelNames[i])) return static_cast<Level>(i);
  }
  return std::nullopt;
}

Move calculate_next_move(const Board& board, Player player, const AiOptions& options) {
  if (const std::string why = precondition_failure(board, player, options.rule); !why.empty()) {
    throw std::invalid_argument("calculate_next_move: " + why + " (" + board.to_string() + ")");
  }
  if (options.level != Level::Random && options.level != Level::Easy) {
    internal::ai::prepare_tables(board.size());
  }
  internal::ai::Turn turn = internal::ai::start_turn(board, options);
  if (!board.whole_lines()) return internal::ai::run_level_move(turn);
  switch (options.level) {
    case Level::Random:
      return internal::ai::random_move(turn);
    case Level::Easy:
      return internal::ai::easy_move(turn);
    case Level::Medium:
      return internal::ai::medium_move(turn);
    case Level::Hard:
      return internal::ai::hard_move(turn);
    case Level::Perfect:
      break;
  }
  return internal::ai::perfect_move(turn);
}

}  // namespace ttt
