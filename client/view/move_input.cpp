#include "view/move_input.hpp"

#include <cctype>
#include <charconv>

namespace ttt::client {
namespace {

std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool all_digits(std::string_view text) noexcept {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// A small decimal number; huge ones saturate so they stay off the board.
int to_number(std::string_view digits) noexcept {
  int value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return 1'000'000;
  return value;
}

// The two numbers of "ROW COL" (also "ROW,COL"), or nullopt.
std::optional<std::pair<std::string_view, std::string_view>> split_numbers(std::string_view text) {
  const auto sep = text.find_first_of(" \t,");
  if (sep == std::string_view::npos) return std::nullopt;
  const std::string_view row = trim(text.substr(0, sep));
  std::string_view col = trim(text.substr(sep + 1));
  if (!col.empty() && col.front() == ',') col = trim(col.substr(1));
  if (!all_digits(row) || !all_digits(col)) return std::nullopt;
  return std::pair{row, col};
}

// Letter then digits, e.g. "b2" or "B12".
bool is_letter_cell(std::string_view text) noexcept {
  return text.size() >= 2 && std::isalpha(static_cast<unsigned char>(text[0])) &&
         all_digits(text.substr(1));
}

std::string board_labels(int size) {
  return "columns a-" + std::string(1, column_label(size - 1)) + ", rows 1-" + std::to_string(size);
}

}  // namespace

char column_label(int col) noexcept { return static_cast<char>('a' + col); }

std::string cell_name(Move move) {
  return std::string(1, column_label(move.col)) + std::to_string(move.row + 1);
}

bool looks_like_move(std::string_view text) noexcept {
  text = trim(text);
  return is_letter_cell(text) || split_numbers(text).has_value();
}

MoveParse parse_move(std::string_view text, int size) {
  text = trim(text);
  MoveParse result;
  int row = -1;
  int col = -1;
  if (is_letter_cell(text)) {
    col = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
    row = to_number(text.substr(1)) - 1;
  } else if (auto numbers = split_numbers(text)) {
    row = to_number(numbers->first) - 1;
    col = to_number(numbers->second) - 1;
  } else {
    result.error = "Not a move: type a cell like b2, or row and column like 2 2 (/help for more)";
    return result;
  }
  if (row < 0 || col < 0 || row >= size || col >= size) {
    result.error = std::string(text) + " is off the board (" + board_labels(size) + ")";
    return result;
  }
  result.move = Move{row, col};
  return result;
}

std::optional<std::string> move_refusal(const Board& board, Move move, bool my_turn) {
  if (!board.contains(move.row, move.col)) {
    return cell_name(move) + " is off the board (" + board_labels(board.size()) + ")";
  }
  if (board.at(move.row, move.col) != Cell::Empty) return std::string(kCellTaken);
  if (!my_turn) return std::string("It is not your turn");
  return std::nullopt;
}

}  // namespace ttt::client
