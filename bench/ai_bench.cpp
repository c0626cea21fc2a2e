// The AI engine: the exact solver on the empty 4×4 and 3×3 boards from a cold
// table (time and nodes), search speed in nodes per second, time per move on
// 3×3 and 4×4 (cold and warm table), the time per move against the budget on
// 5×5, 9×9 and 15×15, and the memory of the tables. For k in a row (k < N):
// the alpha-beta search's nodes per second, the time to a 15-ply VCF on
// 15×15, the cost of a VCF search that finds none, and each level's time per
// move against its budget.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ai/ai_exact_solver.hpp"
#include "ai/ai_heuristic_search.hpp"
#include "ai/ai_run_board.hpp"
#include "ai/ai_run_prover.hpp"
#include "ai/ai_run_search.hpp"
#include "ai/ai_run_threats.hpp"
#include "ai/ai_search_table.hpp"
#include "ai_run_positions.hpp"
#include "ttt/ai.hpp"
#include "ttt/game.hpp"
#include "ttt/rules.hpp"

namespace {

using ttt::internal::ai::ExactSolver;
using ttt::internal::ai::ExactTable;
using ttt::internal::ai::SearchLimits;
using ttt::internal::ai::SmallPosition;
using Clock = std::chrono::steady_clock;

double millis_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Solves the empty size×size board with a table cleared before every run.
void solve_cold(benchmark::State& state, int size) {
  ExactTable table;
  std::uint64_t nodes = 0;
  int value = 0;
  for (auto _ : state) {
    state.PauseTiming();
    table.clear();
    SearchLimits limits = SearchLimits::unlimited();
    ExactSolver solver(table, limits);
    state.ResumeTiming();
    value = *solver.value({&ttt::internal::ai::small_geometry(size), 0, 0});
    nodes = limits.nodes();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["value"] = value;
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["table_entries"] = static_cast<double>(table.used());
}

void BM_Solve4x4Cold(benchmark::State& state) { solve_cold(state, 4); }
BENCHMARK(BM_Solve4x4Cold)->Unit(benchmark::kMillisecond);

void BM_Solve3x3Cold(benchmark::State& state) { solve_cold(state, 3); }
BENCHMARK(BM_Solve3x3Cold)->Unit(benchmark::kMicrosecond);

// A position of play with about half the cells marked and no winner.
ttt::Board half_full(int size) {
  std::mt19937 rng(static_cast<unsigned>(size));
  ttt::Board board(size);
  while (board.count(ttt::Player::X) + board.count(ttt::Player::O) < size * size / 2) {
    ttt::Board next = board;
    next.place(static_cast<int>(rng() % (size * size)), ttt::next_player(board));
    if (next.count(ttt::Player::X) + next.count(ttt::Player::O) ==
        board.count(ttt::Player::X) + board.count(ttt::Player::O)) {
      continue;  // the cell was taken
    }
    if (!ttt::winner(next)) board = next;
  }
  return board;
}

// Nodes per second of the heuristic search (sizes 5 and up) on a half-full board.
void BM_HeuristicSearchNodesPerSecond(benchmark::State& state) {
  using namespace ttt::internal::ai;
  const LineBoard board(half_full(static_cast<int>(state.range(0))));
  const std::vector<int> moves = useful_moves(board);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    SearchLimits limits(SearchLimits::Clock::time_point::max(), 100000);
    benchmark::DoNotOptimize(
        iterative_deepening(board, moves, limits, SearchTable::for_this_thread(), {}));
    nodes += limits.nodes();
  }
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HeuristicSearchNodesPerSecond)->Arg(5)->Arg(9)->Arg(15)->Unit(benchmark::kMillisecond);

// One Perfect move on the empty board; `cold` clears the shared table first.
void perfect_opening(benchmark::State& state, int size, bool cold) {
  const ttt::Board board(size);
  ttt::calculate_next_move(board, ttt::Player::X);  // allocates the table
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      ExactTable::shared().clear();
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(ttt::calculate_next_move(board, ttt::Player::X));
  }
}

void BM_PerfectMove3x3Cold(benchmark::State& state) { perfect_opening(state, 3, true); }
BENCHMARK(BM_PerfectMove3x3Cold)->Unit(benchmark::kMicrosecond);
void BM_PerfectMove3x3Warm(benchmark::State& state) { perfect_opening(state, 3, false); }
BENCHMARK(BM_PerfectMove3x3Warm)->Unit(benchmark::kMicrosecond);
void BM_PerfectMove4x4Cold(benchmark::State& state) { perfect_opening(state, 4, true); }
BENCHMARK(BM_PerfectMove4x4Cold)->Unit(benchmark::kMillisecond);
void BM_PerfectMove4x4Warm(benchmark::State& state) { perfect_opening(state, 4, false); }
BENCHMARK(BM_PerfectMove4x4Warm)->Unit(benchmark::kMicrosecond);

// Perfect's time per move against the budget over two games against Medium
// (Perfect as X, then as O). range(1) = 1 lifts the node cap so that only the
// clock stops the search: the worst case for honouring the budget.
void BM_PerfectMoveTimeVsBudget(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const bool clock_only = state.range(1) != 0;
  const ttt::AiOptions perfect{ttt::Level::Perfect, std::chrono::milliseconds(200), 1,
                               clock_only ? std::numeric_limits<std::uint64_t>::max() : 0};
  double worst = 0;
  double total = 0;
  int moves = 0;
  for (auto _ : state) {
    for (ttt::Player side : {ttt::Player::X, ttt::Player::O}) {
      ttt::Game game(size);
      while (!game.over()) {
        const ttt::Player p = game.to_move();
        const auto start = Clock::now();
        const ttt::Move m = ttt::calculate_next_move(
            game.board(), p,
            p == side ? perfect
                      : ttt::AiOptions{ttt::Level::Medium, std::chrono::milliseconds(20), 7});
        if (p == side) {
          const double ms = millis_since(start);
          worst = std::max(worst, ms);
          total += ms;
          ++moves;
        }
        game.play(p, m.row, m.col);
      }
    }
  }
  state.counters["budget_ms"] = 200;
  state.counters["max_ms"] = worst;
  state.counters["mean_ms"] = total / std::max(moves, 1);
  state.counters["moves"] = moves;
}
BENCHMARK(BM_PerfectMoveTimeVsBudget)
    ->ArgsProduct({{5, 9, 15}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// --- k in a row ---------------------------------------------------------------

// A 15×15 board (k = 5) from rows of '.', 'X' and 'O'.
ttt::Board rows_board(const std::vector<std::string>& rows) {
  std::string cells;
  for (const std::string& row : rows) cells += row;
  for (char& c : cells) c = c == '.' ? 'E' : c;
  return *ttt::Board::parse(cells, 5);
}

// A middle game reached by Perfect against itself (X to move), and a
// position with a shortest VCF of 7 fours and the five (15 plies).
const std::vector<std::string> kMiddleGame = {
    "...............", "...............", "...............", "...............", ".......O.......",
    "....O..XX......", ".....XOXO......", ".....OXX.......", ".....O.X.......", ".......O.......",
    "...............", "...............", "...............", "...............", "..............."};
const std::vector<std::string> kVcf15 = {
    "...............", "...............", "...............", "...............", "...O...........",
    "......XOO......", ".....O.X.......", "....O..O...O...", ".....XX........", "......X...X....",
    ".........X.X...", "..........O....", "...............", "...............", "..............."};

void BM_RunSearchNodesPerSecond(benchmark::State& state) {
  using namespace ttt::internal::ai;
  const RunBoard board(rows_board(kMiddleGame));
  const std::vector<int> moves = run_candidates(board);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    SearchLimits limits(SearchLimits::Clock::time_point::max(), 200000);
    benchmark::DoNotOptimize(
        run_iterative_deepening(board, moves, limits, SearchTable::for_this_thread(), {}));
    nodes += limits.nodes();
  }
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RunSearchNodesPerSecond)->Unit(benchmark::kMillisecond);

// The time to find the 15-ply VCF (range 0) or to prove the middle game has
// no VCF of up to 12 fours (range 1), with a fresh table each time.
void BM_RunVcf(benchmark::State& state) {
  using namespace ttt::internal::ai;
  const bool miss = state.range(0) != 0;
  const RunBoard board(rows_board(miss ? kMiddleGame : kVcf15));
  std::uint64_t nodes = 0;
  int attacks = 0;
  for (auto _ : state) {
    state.PauseTiming();
    SearchTable table(16);
    SearchLimits limits = SearchLimits::unlimited();
    state.ResumeTiming();
    const auto win = find_vcf(board, limits, table, 12);
    attacks = win ? win->attacks : 0;
    nodes = limits.nodes();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["plies"] = attacks > 0 ? 2 * attacks - 1 : 0;
}
BENCHMARK(BM_RunVcf)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The time to find the shortest VCF of each of the tests' long-VCF positions
// (7, 7, 7 and 10 fours), with a fresh table each time. (Their VCTs: the
// threat prover's benchmark below.)
void BM_RunThreatPositions(benchmark::State& state) {
  using namespace ttt::internal::ai;
  const auto index = static_cast<std::size_t>(state.range(0));
  const RunBoard board(from_rows(kLongVcfs.at(index), 5));
  std::uint64_t nodes = 0;
  int attacks = 0;
  for (auto _ : state) {
    state.PauseTiming();
    SearchTable table(18);
    SearchLimits limits = SearchLimits::unlimited();
    state.ResumeTiming();
    const auto win = find_vcf(board, limits, table, 12);
    attacks = win ? win->attacks : 0;
    nodes = limits.nodes();
  }
  state.SetLabel("vcf");
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["attacks"] = attacks;
}
BENCHMARK(BM_RunThreatPositions)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// The threat prover (df-pn, as Perfect runs it) on the same positions: the
// long VCFs (range 0: 0 to 3, fours only), the VCTs (range 1: 0 and 1), and
// the nine-move VCT of a lost game (range 2), with a fresh table each time.
void BM_RunProverPositions(benchmark::State& state) {
  using namespace ttt::internal::ai;
  const auto kind = state.range(0);
  const auto index = static_cast<std::size_t>(state.range(1));
  const RunBoard board(kind == 0   ? from_rows(kLongVcfs.at(index), 5)
                       : kind == 1 ? from_rows(kVcts.at(index), 5)
                                   : from_moves({"f11", "j9", "i8", "j7", "g10", "k7", "h10"}, 5));
  ProverSettings settings;
  settings.fours_only = kind == 0;
  std::uint64_t nodes = 0;
  bool proven = false;
  for (auto _ : state) {
    state.PauseTiming();
    ProofTable table(18);
    SearchLimits limits = SearchLimits::unlimited();
    state.ResumeTiming();
    proven = prove_threat_win(board, limits, table, settings).has_value();
    nodes = limits.nodes();
  }
  state.SetLabel(kind == 0 ? "vcf" : kind == 1 ? "vct" : "deep vct");
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["proven"] = proven ? 1 : 0;
}
BENCHMARK(BM_RunProverPositions)
    ->ArgsProduct({{0}, {0, 1, 2, 3}})
    ->ArgsProduct({{1}, {0, 1}})
    ->Args({2, 0})
    ->Unit(benchmark::kMillisecond);

// Each level's time per move against a 200 ms budget at 15×15 with five in a
// row, in two games against Perfect (one as X, one as O); range(1) = 1 lifts
// the node cap so that only the clock stops the searches.
void BM_RunMoveTimeVsBudget(benchmark::State& state) {
  const auto level = static_cast<ttt::Level>(state.range(0));
  const bool clock_only = state.range(1) != 0;
  const ttt::AiOptions mine{level, std::chrono::milliseconds(200), 1,
                            clock_only ? std::numeric_limits<std::uint64_t>::max() : 0};
  double worst = 0;
  double total = 0;
  int moves = 0;
  for (auto _ : state) {
    for (ttt::Player side : {ttt::Player::X, ttt::Player::O}) {
      ttt::Game game(15, 5);
      while (!game.over()) {
        const ttt::Player p = game.to_move();
        const auto start = Clock::now();
        const ttt::Move m = ttt::calculate_next_move(
            game.board(), p,
            p == side ? mine
                      : ttt::AiOptions{ttt::Level::Perfect, std::chrono::milliseconds(20), 7});
        if (p == side) {
          const double ms = millis_since(start);
          worst = std::max(worst, ms);
          total += ms;
          ++moves;
        }
        game.play(p, m.row, m.col);
      }
    }
  }
  state.SetLabel(std::string(ttt::to_string(level)));
  state.counters["budget_ms"] = 200;
  state.counters["max_ms"] = worst;
  state.counters["mean_ms"] = total / std::max(moves, 1);
  state.counters["moves"] = moves;
}
BENCHMARK(BM_RunMoveTimeVsBudget)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

void BM_TableMemory(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(ExactTable::shared().bytes());
  state.counters["exact_table_bytes_shared"] = static_cast<double>(ExactTable::shared().bytes());
  state.counters["search_table_bytes_per_thread"] =
      static_cast<double>(ttt::internal::ai::SearchTable::for_this_thread().bytes());
}
BENCHMARK(BM_TableMemory);

}  // namespace
