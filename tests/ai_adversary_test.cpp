// Perfect never loses, as X or as O, against thousands of seeded adversaries
// (random play, the Medium level, a line builder) on 4×4 through 9×9, with
// small budgets so that the pairing strategy, not deep search, carries the
// promise from 5×5 up. It also converts enough of the adversaries' mistakes.
#include <gtest/gtest.h>

#include "ai_test_support.hpp"

namespace ttt {
namespace {

using std::chrono::milliseconds;

// Perfect's search effort per move: small, to keep thousands of games fast.
constexpr std::uint64_t kPerfectNodes = 500;

struct Record {
  int games = 0;
  int wins = 0;
  int losses = 0;
};

// Plays `games` games (Perfect alternately X and O) against the adversary made
// for each game by `adversary(seed)`.
template <typename MakeAdversary>
Record play_series(int size, int games, std::uint64_t max_nodes, MakeAdversary adversary) {
  Record record;
  for (int g = 0; g < games; ++g) {
    const testing::Policy perfect =
        testing::engine(Level::Perfect, g, milliseconds(size == 4 ? 1000 : 20), max_nodes);
    const testing::Policy other = adversary(1000 + g);
    const Player perfect_side = g % 2 ? Player::O : Player::X;
    const Game game = perfect_side == Player::X ? testing::play_game(size, perfect, other)
                                                : testing::play_game(size, other, perfect);
    const int result = testing::result_for(game, perfect_side);
    ++record.games;
    record.wins += result > 0;
    record.losses += result < 0;
    if (result < 0)
      ADD_FAILURE() << "Perfect lost on " << size << "x" << size << ": "
                    << game.board().to_string();
  }
  return record;
}

testing::Policy random_adversary(std::uint64_t seed) {
  return testing::engine(Level::Random, seed, milliseconds(0));
}

testing::Policy medium_adversary(std::uint64_t seed) {
  return testing::engine(Level::Medium, seed, milliseconds(20), 1000);
}

// Games per size: many on the small boards, fewer where a game is long.
int games_for(int size, int base) { return testing::scaled(base * 6 / (size + 2), 4); }

TEST(PerfectAi, NeverLosesAgainstRandomPlayOn4x4To9x9) {
  int total = 0;
  for (int n = 4; n <= 9; ++n) {
    const Record r = play_series(n, games_for(n, 350), kPerfectNodes, random_adversary);
    EXPECT_EQ(r.losses, 0) << n;
    EXPECT_GT(r.wins, r.games / 2) << "Perfect should punish random play on " << n << "x" << n;
    total += r.games;
  }
  RecordProperty("games", total);
}

TEST(PerfectAi, NeverLosesAgainstTheMediumLevelOn4x4To9x9) {
  for (int n = 4; n <= 9; ++n) {
    const Record r = play_series(n, games_for(n, 70), kPerfectNodes, medium_adversary);
    EXPECT_EQ(r.losses, 0) << n;
  }
}

TEST(PerfectAi, NeverLosesAgainstALineBuilderOn4x4To9x9) {
  for (int n = 4; n <= 9; ++n) {
    const Record r = play_series(n, games_for(n, 140), kPerfectNodes, testing::line_builder);
    EXPECT_EQ(r.losses, 0) << n;
  }
}

TEST(PerfectAi, NeverLosesWithTheSmallestBudgetOnLargeBoards) {
  // With no time to search, the pairing alone must still hold every line.
  for (int n : {5, 8, 12, 16}) {
    for (int g = 0; g < testing::scaled(8, 2); ++g) {
      const testing::Policy perfect = testing::engine(Level::Perfect, g, milliseconds(0));
      const testing::Policy builder = testing::line_builder(g);
      const Player side = g % 2 ? Player::O : Player::X;
      const Game game = side == Player::X ? testing::play_game(n, perfect, builder)
                                          : testing::play_game(n, builder, perfect);
      EXPECT_GE(testing::result_for(game, side), 0) << n << " " << game.board().to_string();
    }
  }
}

// A roomy search may leave the fixed pairing for another safe move; a move
// with no search budget after that must still find a safe move (a fresh
// pairing) rather than fall back to unproven moves.
TEST(PerfectAi, NeverLosesWhenStarvedMovesFollowRoomyOnes) {
  for (int n = 5; n <= 10; ++n) {
    for (int g = 0; g < testing::scaled(24, 4); ++g) {
      const testing::Policy roomy = testing::engine(Level::Perfect, g, milliseconds(50), 3000);
      const testing::Policy starved = testing::engine(Level::Perfect, g, milliseconds(0), 1);
      const testing::Policy perfect = [&](const Board& board, Player p) {
        return (board.count(p) % 2 ? starved : roomy)(board, p);
      };
      const testing::Policy other = g % 4 < 2 ? testing::line_builder(g) : random_adversary(g);
      const Player side = g % 2 ? Player::O : Player::X;
      const Game game = side == Player::X ? testing::play_game(n, perfect, other)
                                          : testing::play_game(n, other, perfect);
      EXPECT_GE(testing::result_for(game, side), 0) << n << " " << game.board().to_string();
    }
  }
}

}  // namespace
}  // namespace ttt
