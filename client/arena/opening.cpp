#include "arena/opening.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>

#include "text/safe_text.hpp"
#include "ttt/rules.hpp"
#include "view/move_input.hpp"

namespace ttt::client {
namespace {

constexpr int kAttempts = 1000;

}  // namespace

int default_opening_plies(int size) { return size >= 9 ? 3 : 1; }

bool balanced(const Board& board) {
  const int n = board.size();
  const int k = board.win_length();
  const int threshold = std::max(2, k - 2);
  static constexpr int kDirections[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (const auto& [dr, dc] : kDirections) {
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < n; ++col) {
        const int end_row = row + dr * (k - 1);
        const int end_col = col + dc * (k - 1);
        if (end_row < 0 || end_row >= n || end_col < 0 || end_col >= n) continue;
        int x = 0;
        int o = 0;
        for (int i = 0; i < k; ++i) {
          const Cell cell = board.at(row + dr * i, col + dc * i);
          x += cell == Cell::X;
          o += cell == Cell::O;
        }
        if ((x >= threshold && o == 0) || (o >= threshold && x == 0)) return false;
      }
    }
  }
  return true;
}

std::vector<Move> random_opening(int size, int win_length, int plies, std::mt19937_64& rng) {
  const int side = std::min(size, std::max(3, size / 2));
  const int first = (size - side) / 2;
  plies = std::clamp(plies, 0, side * side);
  std::vector<Move> best;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Board board(size, win_length);
    std::vector<Move> moves;
    std::uniform_int_distribution<int> cell(0, side - 1);
    while (static_cast<int>(moves.size()) < plies) {
      const Move m{first + cell(rng), first + cell(rng)};
      if (board.at(m.row, m.col) != Cell::Empty) continue;
      board = make_move(board, m.row, m.col, next_player(board));
      moves.push_back(m);
    }
    if (!winner(board) && balanced(board)) return moves;
    if (!winner(board)) best = moves;
  }
  return best;  // every try leaned one way: the last that is not won
}

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// The cells of the Gomocup form "x,y, x,y, ...", or nullopt.
std::optional<std::vector<Move>> offsets(std::string_view line, int size) {
  std::vector<int> numbers;
  std::size_t i = 0;
  while (i <= line.size()) {
    const std::size_t comma = std::min(line.find(',', i), line.size());
    const std::string_view field = trimmed(line.substr(i, comma - i));
    int value = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || ec != std::errc() || end != field.data() + field.size() ||
        std::abs(value) > 100) {
      return std::nullopt;
    }
    numbers.push_back(value);
    i = comma + 1;
  }
  if (numbers.size() % 2 != 0) return std::nullopt;
  std::vector<Move> moves;
  for (std::size_t j = 0; j < numbers.size(); j += 2) {
    moves.push_back({size / 2 + numbers[j + 1], size / 2 + numbers[j]});
  }
  return moves;
}

}  // namespace

std::optional<std::vector<Move>> parse_opening(std::string_view line, int size, int win_length,
                                               std::string& why) {
  line = trimmed(line);
  std::vector<Move> moves;
  if (line.find(',') != std::string_view::npos) {
    const auto cells = offsets(line, size);
    if (!cells) {
      why = "'" + safe_text(line, 60) +
            "' is no opening: cells like h8 i9 g7, or offsets from the centre like 0,0, 1,-1";
      return std::nullopt;
    }
    moves = *cells;
  } else {
    for (std::size_t i = 0; i < line.size();) {
      const std::size_t space = std::min(line.find(' ', i), line.size());
      const std::string_view word = line.substr(i, space - i);
      i = space + 1;
      if (word.empty()) continue;
      const MoveParse parsed = parse_move(word, size);
      if (!parsed.move || !looks_like_move(word) || word.find(' ') != std::string_view::npos) {
        why = "'" + safe_text(word, 20) + "' is no cell of the " + std::to_string(size) + "x" +
              std::to_string(size) + " board" + (parsed.error.empty() ? "" : ": " + parsed.error);
        return std::nullopt;
      }
      moves.push_back(*parsed.move);
    }
  }
  if (moves.empty()) {
    why = "an opening needs a cell";
    return std::nullopt;
  }
  Game game(size, win_length);
  for (const Move& m : moves) {
    if (!game.board().contains(m.row, m.col)) {
      why = "a cell " + std::to_string(m.col - size / 2) + "," + std::to_string(m.row - size / 2) +
            " from the centre is off the board";
      return std::nullopt;
    }
    if (game.over()) {
      why = "the game is over before " + cell_name(m);
      return std::nullopt;
    }
    if (const auto refused = game.play(game.to_move(), m.row, m.col)) {
      why = cell_name(m) + ": " + std::string(to_string(*refused));
      return std::nullopt;
    }
  }
  if (game.over()) {
    why = "the opening ends the game";
    return std::nullopt;
  }
  return moves;
}

std::optional<std::vector<std::vector<Move>>> load_openings(const std::string& path, int size,
                                                            int win_length, std::string& why) {
  std::ifstream in(path);
  if (!in) {
    why = "can't read the openings file '" + safe_text(path, 80) + "'";
    return std::nullopt;
  }
  std::vector<std::vector<Move>> openings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string_view text = line;
    text = trimmed(text.substr(0, text.find('#')));  // a comment runs to the end of the line
    if (text.empty()) continue;
    std::string problem;
    auto opening = parse_opening(text, size, win_length, problem);
    if (!opening) {
      why = safe_text(path, 80) + " line " + std::to_string(number) + ": " + problem;
      return std::nullopt;
    }
    openings.push_back(std::move(*opening));
  }
  if (openings.empty()) {
    why = "the openings file '" + safe_text(path, 80) + "' has no opening";
    return std::nullopt;
  }
  return openings;
}

}  // namespace ttt::client
