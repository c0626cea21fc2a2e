// The rules functions on the hot path of the server and the AI: winner (full
// scan and through the last move), is_valid_move, and a random playout.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "ttt/rules.hpp"

namespace {

// A mid-game board with no winner: random moves, stopping before any win.
ttt::Board mid_game_board(int n) {
  std::mt19937 rng(n);
  ttt::Board board(n);
  std::vector<int> order(n * n);
  for (int i = 0; i < n * n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int index : order) {
    if (board.count(ttt::Player::X) + board.count(ttt::Player::O) >= n * n / 2) break;
    ttt::Board next = board;
    next.place(index, ttt::next_player(board));
    if (ttt::winner(next)) continue;
    board = next;
  }
  return board;
}

void BM_WinnerFullScan(benchmark::State& state) {
  const ttt::Board board = mid_game_board(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ttt::winner(board));
}
BENCHMARK(BM_WinnerFullScan)->Arg(3)->Arg(4)->Arg(8)->Arg(15);

void BM_WinnerLastMove(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const ttt::Board board = mid_game_board(n);
  int cell = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ttt::winner_at(board, cell / n, cell % n));
    cell = cell + 1 == n * n ? 0 : cell + 1;
  }
}
BENCHMARK(BM_WinnerLastMove)->Arg(3)->Arg(4)->Arg(8)->Arg(15);

void BM_IsValidMove(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const ttt::Board board = mid_game_board(n);
  const ttt::Player p = ttt::next_player(board);
  int cell = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ttt::is_valid_move(board, cell / n, cell % n, p));
    cell = cell + 1 == n * n ? 0 : cell + 1;
  }
}
BENCHMARK(BM_IsValidMove)->Arg(3)->Arg(4)->Arg(8)->Arg(15);

// A whole random game through Game::play, from the empty board to its end.
void BM_RandomPlayout(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937 rng(42);
  std::vector<int> order(n * n);
  for (int i = 0; i < n * n; ++i) order[i] = i;
  std::int64_t moves = 0;
  for (auto _ : state) {
    std::shuffle(order.begin(), order.end(), rng);
    ttt::Game game(n);
    for (int index : order) {
      if (game.over()) break;
      benchmark::DoNotOptimize(game.play(game.to_move(), index / n, index % n));
      ++moves;
    }
  }
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomPlayout)->Arg(3)->Arg(4)->Arg(8)->Arg(15);

}  // namespace
