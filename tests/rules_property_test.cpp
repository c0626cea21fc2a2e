// Properties of the rules over thousands of random legal games on every size
// from 1 to Board::kMaxSize, with the origin's whole-line rule and with win
// lengths k < N, checked against brute-force line scans.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ttt/rules.hpp"

namespace ttt {
namespace {

// The obvious O(N^2) winner: every row, column and both diagonals, cell by cell.
std::optional<Player> brute_force_winner(const Board& b) {
  const int n = b.size();
  auto all = [&](auto cell_at, Cell c) {
    for (int i = 0; i < n; ++i) {
      if (cell_at(i) != c) return false;
    }
    return n > 0;
  };
  for (Cell c : {Cell::X, Cell::O}) {
    bool won = false;
    for (int k = 0; k < n; ++k) {
      won = won || all([&](int i) { return b.at(k, i); }, c);
      won = won || all([&](int i) { return b.at(i, k); }, c);
    }
    won = won || all([&](int i) { return b.at(i, i); }, c);
    won = won || all([&](int i) { return b.at(i, n - 1 - i); }, c);
    if (won) return c == Cell::X ? Player::X : Player::O;
  }
  return std::nullopt;
}

// The obvious winner for k < N: from every cell, k cells in each direction.
std::optional<Player> brute_force_run_winner(const Board& b) {
  const int n = b.size();
  const int k = b.win_length();
  const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (Cell c : {Cell::X, Cell::O}) {
    for (int row = 0; row < n; ++row) {
      for (int col = 0; col < n; ++col) {
        for (const auto& step : steps) {
          int held = 0;
          while (held < k && b.contains(row + step[0] * held, col + step[1] * held) &&
                 b.at(row + step[0] * held, col + step[1] * held) == c) {
            ++held;
          }
          if (held == k) return c == Cell::X ? Player::X : Player::O;
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<Player> brute_force(const Board& b) {
  return b.whole_lines() ? brute_force_winner(b) : brute_force_run_winner(b);
}

// Tries moves that must be refused and checks that each changes nothing.
void expect_refusals_change_nothing(Game& game, std::mt19937& rng) {
  const Game before = game;
  const int n = game.board().size();
  std::uniform_int_distribution<int> wild(-3, n + 3);
  for (int attempt = 0; attempt < 4; ++attempt) {
    const int row = wild(rng);
    const int col = wild(rng);
    const Player wrong = opponent(game.to_move());
    ASSERT_TRUE(game.play(wrong, row, col).has_value());
    if (!game.board().contains(row, col) && !game.over()) {
      EXPECT_EQ(game.play(game.to_move(), row, col), MoveError::OutOfRange);
    }
    EXPECT_EQ(game.board(), before.board());
    EXPECT_EQ(game.moves(), before.moves());
    EXPECT_EQ(game.status(), before.status());
  }
  if (!game.moves().empty() && !game.over()) {
    const Move taken = game.moves().back();
    EXPECT_EQ(game.play(game.to_move(), taken.row, taken.col), MoveError::Occupied);
  }
}

// Plays one random legal game of size n and win length k (0: n) to its end,
// checking every rule after every move.
void play_random_game(int n, int k, std::mt19937& rng) {
  Game game(n, k);
  std::vector<int> order(n * n);
  for (int i = 0; i < n * n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  Player expected = Player::X;
  for (int index : order) {
    if (game.over()) break;
    const int row = index / n;
    const int col = index % n;
    ASSERT_EQ(next_player(game.board()), expected);
    ASSERT_TRUE(is_valid_move(game.board(), row, col, expected));
    const Board predicted = make_move(game.board(), row, col, expected);
    ASSERT_EQ(game.play(expected, row, col), std::nullopt);
    ASSERT_EQ(game.board(), predicted);

    const Board& b = game.board();
    ASSERT_TRUE(is_board(b.to_string()));
    ASSERT_EQ(Board::parse(b.to_string(), k), b);
    const auto expected_winner = brute_force(b);
    ASSERT_EQ(winner(b), expected_winner) << b.to_string() << " k=" << b.win_length();
    ASSERT_EQ(winner_at(b, row, col), expected_winner) << b.to_string();
    ASSERT_EQ(is_draw(b), b.full() && !expected_winner);
    ASSERT_EQ(winning_line(b).has_value(), expected_winner.has_value());
    if (expected_winner) {
      ASSERT_EQ(game.status(), *expected_winner == Player::X ? GameStatus::XWon : GameStatus::OWon);
      ASSERT_EQ(game.winning_line(), winning_line(b));
      const std::vector<Move> cells = line_cells(*winning_line(b), n);
      ASSERT_EQ(static_cast<int>(cells.size()), b.win_length());
      for (Move m : cells) ASSERT_EQ(b.at(m.row, m.col), cell_of(*expected_winner));
    } else {
      ASSERT_EQ(game.status(), b.full() ? GameStatus::Draw : GameStatus::InProgress);
    }
    if (game.moves().size() % 7 == 0) expect_refusals_change_nothing(game, rng);
    expected = opponent(expected);
  }
  ASSERT_TRUE(game.over());
  expect_refusals_change_nothing(game, rng);
}

TEST(RulesProperty, RandomGamesKeepEveryInvariant) {
  std::mt19937 rng(20261122);
  int games = 0;
  for (int n = 1; n <= Board::kMaxSize; ++n) {
    const int games_for_size = n <= 4 ? 400 : 120;
    for (int g = 0; g < games_for_size; ++g, ++games) {
      play_random_game(n, 0, rng);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(games, 2000);
}

TEST(RulesProperty, RandomGamesWithAWinLengthBelowTheSizeKeepEveryInvariant) {
  std::mt19937 rng(515);
  int games = 0;
  for (int n = 4; n <= Board::kMaxSize; ++n) {
    for (int k : {3, 4, 5, n - 1}) {
      if (k >= n) continue;
      for (int g = 0; g < (n <= 8 ? 40 : 6); ++g, ++games) {
        play_random_game(n, k, rng);
        if (HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GT(games, 500);
}

TEST(RulesProperty, IsBoardAgreesWithItsDefinitionOnRandomStrings) {
  std::mt19937 rng(7);
  const char letters[] = {'X', 'O', 'E', 'x', '.'};
  for (int trial = 0; trial < 20000; ++trial) {
    const int length = std::uniform_int_distribution<int>(0, 30)(rng);
    const int alphabet = trial % 2 ? 3 : 5;
    std::string cells(length, 'E');
    for (char& c : cells) c = letters[std::uniform_int_distribution<int>(0, alphabet - 1)(rng)];
    int side = 0;
    while (side * side < length) ++side;
    const auto xs = std::count(cells.begin(), cells.end(), 'X');
    const auto os = std::count(cells.begin(), cells.end(), 'O');
    const bool letters_ok = cells.find_first_not_of("XOE") == std::string::npos;
    const bool expected = side * side == length && letters_ok && (xs - os == 0 || xs - os == 1);
    ASSERT_EQ(is_board(cells), expected) << cells;
    ASSERT_EQ(Board::parse(cells).has_value(), expected) << cells;
  }
}

}  // namespace
}  // namespace ttt
