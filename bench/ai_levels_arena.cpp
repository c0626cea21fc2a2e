// ai_levels_arena: plays the AI's levels against each other on one board
// size and win length (colours alternating, each opening played from both
// sides) and prints each pairing's wins, losses and draws and the time each
// level took per move against its budget. The numbers behind docs/ai.md's
// level table; `ttt-arena` is the general tool for bots and engines.
//
//   ai_levels_arena --size 15 --win 5 --games 20 --budget 0.2
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ttt/ai.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/game.hpp"
#include "ttt/rules.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Settings {
  std::int64_t size = 15;
  std::int64_t win = 5;
  std::int64_t games = 10;
  std::int64_t nodes = 0;
  std::int64_t opening = 2;
  std::chrono::milliseconds budget{100};
  bool round_robin = false;
  bool clock_only = false;

  std::uint64_t node_cap() const {
    return clock_only ? std::numeric_limits<std::uint64_t>::max()
                      : static_cast<std::uint64_t>(nodes);
  }
};

struct Timing {
  int moves = 0;
  double total_ms = 0;
  double max_ms = 0;
  double max_cpu_ms = 0;  // this thread's CPU time: what a loaded machine cannot inflate
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

std::map<ttt::Level, Timing> timings;

// A few seeded random marks near the centre that both colours play from.
std::vector<ttt::Move> opening_of(int index, const Settings& s) {
  std::mt19937 rng(static_cast<unsigned>(index) * 7919u + 1);
  const int centre = static_cast<int>(s.size) / 2;
  const int spread = std::max(1, static_cast<int>(s.size) / 5);
  std::uniform_int_distribution<int> offset(-spread, spread);
  std::vector<ttt::Move> moves;
  while (static_cast<std::int64_t>(moves.size()) < s.opening) {
    const ttt::Move m{centre + offset(rng), centre + offset(rng)};
    if (std::find(moves.begin(), moves.end(), m) == moves.end()) moves.push_back(m);
  }
  return moves;
}

// +1 if x won, -1 if o won, 0 for a draw.
int play(ttt::Level x, ttt::Level o, int game_index, const Settings& s) {
  ttt::Game game(static_cast<int>(s.size), static_cast<int>(s.win));
  for (const ttt::Move& m : opening_of(game_index / 2, s)) {
    if (!game.over()) game.play(game.to_move(), m.row, m.col);
  }
  while (!game.over()) {
    const ttt::Player p = game.to_move();
    const ttt::Level level = p == ttt::Player::X ? x : o;
    const std::uint64_t seed = static_cast<std::uint64_t>(game_index) * 1000 + game.moves().size();
    const auto start = Clock::now();
    const double cpu_start = thread_cpu_ms();
    const ttt::Move m =
        ttt::calculate_next_move(game.board(), p, {level, s.budget, seed, s.node_cap()});
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    Timing& t = timings[level];
    ++t.moves;
    t.total_ms += ms;
    t.max_ms = std::max(t.max_ms, ms);
    t.max_cpu_ms = std::max(t.max_cpu_ms, thread_cpu_ms() - cpu_start);
    game.play(p, m.row, m.col);
  }
  if (game.status() == ttt::GameStatus::XWon) return 1;
  if (game.status() == ttt::GameStatus::OWon) return -1;
  return 0;
}

void match(ttt::Level a, ttt::Level b, const Settings& s) {
  int wins = 0;
  int losses = 0;
  int draws = 0;
  for (int g = 0; g < s.games; ++g) {
    const bool a_is_x = g % 2 == 0;
    const int r = play(a_is_x ? a : b, a_is_x ? b : a, g, s);
    const int for_a = a_is_x ? r : -r;
    wins += for_a > 0;
    losses += for_a < 0;
    draws += for_a == 0;
  }
  std::printf("%-8s vs %-8s  %3d wins %3d losses %3d draws  score %+d\n",
              std::string(ttt::to_string(a)).c_str(), std::string(ttt::to_string(b)).c_str(), wins,
              losses, draws, wins - losses);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  ttt::cli::Flags flags("ai_levels_arena", "plays the AI's levels against each other");
  flags.add_int("--size", "", &s.size, 3, ttt::Board::kMaxSize, "N", "board size");
  flags.add_int("--win", "", &s.win, 3, ttt::Board::kMaxSize, "K", "win length");
  flags.add_int("--games", "", &s.games, 2, 100000, "N", "games per pairing (colours alternate)");
  flags.add_int("--nodes", "", &s.nodes, 0, 1'000'000'000, "N", "node cap per move (0: derived)");
  flags.add_int("--opening", "", &s.opening, 0, 10, "N", "random marks each game starts from");
  flags.add_seconds("--budget", &s.budget, 60, "time budget per move");
  flags.add_bool("--round-robin", "", &s.round_robin, "every pairing, not only neighbours");
  flags.add_bool("--clock-only", "", &s.clock_only,
                 "no node cap: only the budget's clock stops a search (the worst case for time)");
  const auto parsed = flags.parse(argc, argv);
  if (parsed.help) {
    std::fputs(flags.usage().c_str(), stdout);
    return 0;
  }
  if (!parsed.ok ||
      !ttt::Board::valid_win_length(static_cast<int>(s.size), static_cast<int>(s.win))) {
    std::fprintf(stderr, "ai_levels_arena: %s\n",
                 parsed.ok ? "--win must be 3..--size" : parsed.error.c_str());
    return 2;
  }
  std::printf("%lldx%lld, %lld in a row, %lld games per pairing, budget %lld ms, node cap %s\n",
              static_cast<long long>(s.size), static_cast<long long>(s.size),
              static_cast<long long>(s.win), static_cast<long long>(s.games),
              static_cast<long long>(s.budget.count()),
              s.clock_only ? "none"
              : s.nodes    ? std::to_string(s.nodes).c_str()
                           : "derived");
  using L = ttt::Level;
  const std::vector<L> levels = {L::Perfect, L::Hard, L::Medium, L::Easy, L::Random};
  for (std::size_t i = 0; i < levels.size(); ++i) {
    for (std::size_t j = i + 1; j < levels.size(); ++j) {
      if (s.round_robin || j == i + 1) match(levels[i], levels[j], s);
    }
  }
  for (const auto& [level, t] : timings) {
    std::printf("%-8s %6d moves, mean %7.2f ms, max %7.2f ms (CPU %7.2f ms) per move\n",
                std::string(ttt::to_string(level)).c_str(), t.moves, t.total_ms / t.moves, t.max_ms,
                t.max_cpu_ms);
  }
  return 0;
}
