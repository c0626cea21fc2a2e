// Perfect on 3×3 against every possible sequence of opponent moves, checked
// against a plain minimax written independently of the engine: it never
// loses, as X or as O, every move keeps the game value (so it wins every game
// the opponent's mistakes make winnable, as fast as possible), and it loses
// no position it can still not lose.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "ai_test_support.hpp"

namespace ttt {
namespace {

// The game value for the player to move, scored like the engine: a game that
// ends with e empty cells is worth 1 + e to the winner, -(1 + e) to the loser.
class PlainMinimax {
 public:
  int value(const Board& board) {
    const std::string key = board.to_string();
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    const int v = compute(board);
    memo_.emplace(key, v);
    return v;
  }

  // The value for the mover of playing m.
  int value_of_move(const Board& board, Move m) {
    const Board next = make_move(board, m.row, m.col, next_player(board));
    const int empties = next.cell_count() - next.count(Player::X) - next.count(Player::O);
    if (winner(next)) return 1 + empties;
    if (next.full()) return 0;
    return -value(next);
  }

 private:
  int compute(const Board& board) {
    int best = -100;
    for (int r = 0; r < board.size(); ++r) {
      for (int c = 0; c < board.size(); ++c) {
        if (board.at(r, c) == Cell::Empty) best = std::max(best, value_of_move(board, {r, c}));
      }
    }
    return best;
  }

  std::map<std::string, int> memo_;
};

struct Tally {
  int games = 0;
  int losses = 0;
  int winnable = 0;  // games where Perfect reached a won position
  int won = 0;
  int value_drops = 0;
};

// Walks every opponent sequence against Perfect (playing `perfect`) from game.
void explore(const Game& game, Player perfect, PlainMinimax& minimax, Tally& tally,
             bool reached_win) {
  if (game.over()) {
    ++tally.games;
    const int result = testing::result_for(game, perfect);
    tally.losses += result < 0;
    tally.winnable += reached_win;
    tally.won += reached_win && result > 0;
    return;
  }
  const Board& board = game.board();
  if (game.to_move() == perfect) {
    const int value = minimax.value(board);
    const Move m = calculate_next_move(board, perfect);
    tally.value_drops += minimax.value_of_move(board, m) != value;
    Game next = game;
    next.play(perfect, m.row, m.col);
    explore(next, perfect, minimax, tally, reached_win || value > 0);
    return;
  }
  for (int r = 0; r < board.size(); ++r) {
    for (int c = 0; c < board.size(); ++c) {
      Game next = game;
      if (!next.play(game.to_move(), r, c)) explore(next, perfect, minimax, tally, reached_win);
    }
  }
}

Tally explore_all(Player perfect) {
  PlainMinimax minimax;
  Tally tally;
  explore(Game(3), perfect, minimax, tally, false);
  return tally;
}

TEST(PerfectAi, NeverLosesAsXAgainstEveryOpponentSequenceOn3x3) {
  const Tally t = explore_all(Player::X);
  EXPECT_GT(t.games, 50);
  EXPECT_EQ(t.losses, 0);
  EXPECT_EQ(t.value_drops, 0);
}

TEST(PerfectAi, NeverLosesAsOAgainstEveryOpponentSequenceOn3x3) {
  const Tally t = explore_all(Player::O);
  EXPECT_GT(t.games, 50);
  EXPECT_EQ(t.losses, 0);
  EXPECT_EQ(t.value_drops, 0);
}

TEST(PerfectAi, WinsEveryGameTheOpponentsMistakesMakeWinnableOn3x3) {
  for (Player perfect : {Player::X, Player::O}) {
    const Tally t = explore_all(perfect);
    EXPECT_GT(t.winnable, 0);
    EXPECT_EQ(t.won, t.winnable) << "as " << to_string(perfect);
  }
}

// Every reachable 3×3 position with the game still open: Perfect's move keeps
// the exact value, wherever it is dropped in.
TEST(PerfectAi, KeepsTheGameValueInEveryReachable3x3Position) {
  PlainMinimax minimax;
  std::map<std::string, Board> positions;
  std::vector<Board> frontier{Board(3)};
  while (!frontier.empty()) {
    const Board board = frontier.back();
    frontier.pop_back();
    if (winner(board) || board.full() || !positions.emplace(board.to_string(), board).second) {
      continue;
    }
    for (int cell = 0; cell < 9; ++cell) {
      if (board.at_index(cell) != Cell::Empty) continue;
      frontier.push_back(make_move(board, cell / 3, cell % 3, next_player(board)));
    }
  }
  EXPECT_EQ(positions.size(), 4520u);  // non-final positions of the 5478 reachable
  int drops = 0;
  for (const auto& [key, board] : positions) {
    const Move m = calculate_next_move(board, next_player(board));
    drops += minimax.value_of_move(board, m) != minimax.value(board);
  }
  EXPECT_EQ(drops, 0);
}

// 4×4 is too big for the plain minimax from the start, so: random positions
// with at least 7 marks, where it can check every line of play.
TEST(PerfectAi, KeepsTheGameValueInRandom4x4Positions) {
  std::mt19937 rng(44);
  PlainMinimax minimax;
  int checked = 0;
  int winning = 0;
  while (checked < testing::scaled(150, 20)) {
    Board board(4);
    const int marks = 7 + static_cast<int>(rng() % 7);
    for (int i = 0; i < marks && !winner(board); ++i) {
      std::vector<int> empty;
      for (int c = 0; c < 16; ++c) {
        if (board.at_index(c) == Cell::Empty) empty.push_back(c);
      }
      board.place(empty[rng() % empty.size()], next_player(board));
    }
    if (winner(board) || board.full()) continue;
    const int value = minimax.value(board);
    const Move m = calculate_next_move(board, next_player(board), {.seed = rng()});
    ASSERT_EQ(minimax.value_of_move(board, m), value) << board.to_string();
    ++checked;
    winning += value > 0;
  }
  EXPECT_GT(winning, 0);
}

}  // namespace
}  // namespace ttt
