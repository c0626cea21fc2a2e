// ttt-arena: two players (ttt levels or Gomocup engines) play a match of
// games against each other; the result and the Elo difference it shows.

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

#include "arena/arena_config.hpp"
#include "arena/arena_game.hpp"
#include "arena/arena_player.hpp"
#include "arena/arena_report.hpp"
#include "arena/opening.hpp"
#include "ttt/cli/invocation.hpp"
#include "ttt/cli/program.hpp"

namespace {

// The program as the user ran it, for hints ("./ttt arena" through ./ttt).
std::string arena_command() { return ttt::cli::invocation_name("ttt-arena"); }

using namespace ttt::client;

constexpr int kExitForfeits = 1;
constexpr int kExitBadCommandLine = 2;
constexpr int kExitCannotPlay = 3;
constexpr int kExitInterrupted = 130;

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop = true; }

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

int run(const ArenaConfig& config) {
  const std::uint64_t seed = config.seeded ? config.seed : std::random_device{}();
  ArenaPlayerOptions options;
  options.budget = config.clock.per_move;
  options.engine_grace = config.engine_grace;
  std::string error;
  options.seed = seed;
  auto a = make_arena_player(config.a, options, error);
  options.seed = seed ^ 0x9e3779b97f4a7c15ull;
  auto b = a ? make_arena_player(config.b, options, error) : nullptr;
  if (!a || !b) {
    std::fprintf(stderr, "ttt-arena: %s\n(see %s --help)\n", error.c_str(),
                 arena_command().c_str());
    return kExitBadCommandLine;
  }
  for (ttt::client::Brain* player : {a.get(), b.get()}) {
    std::string why;
    if (!player->plays(config.size, config.win_length, why)) {
      std::fprintf(stderr, "ttt-arena: %s\n", why.c_str());
      return kExitCannotPlay;
    }
  }
  std::vector<std::vector<ttt::Move>> openings;
  if (!config.openings.empty()) {
    std::string why;
    auto loaded = load_openings(config.openings, config.size, config.win_length, why);
    if (!loaded) {
      std::fprintf(stderr, "ttt-arena: %s\n", why.c_str());
      return kExitBadCommandLine;
    }
    openings = std::move(*loaded);
  }
  std::ofstream record;
  if (!config.record.empty()) {
    record.open(config.record, std::ios::trunc);
    if (!record) {
      std::fprintf(stderr, "ttt-arena: --record: can't write %s: %s\n", config.record.c_str(),
                   std::strerror(errno));
      return kExitBadCommandLine;
    }
  }
  say(header_line(config.a, config.b, config.games, config.size, config.win_length, config.clock));
  std::mt19937_64 rng(seed);
  const int plies =
      config.opening_plies >= 0 ? config.opening_plies : default_opening_plies(config.size);
  ArenaTally tally;
  std::vector<ttt::Move> opening;
  for (int g = 0; g < config.games && !g_stop; ++g) {
    // Each opening twice: A as X, then B as X.
    if (g % 2 == 0) {
      opening = openings.empty() ? random_opening(config.size, config.win_length, plies, rng)
                                 : openings[static_cast<std::size_t>(g / 2) % openings.size()];
    }
    const bool a_is_x = g % 2 == 0;
    Brain& x = a_is_x ? *a : *b;
    Brain& o = a_is_x ? *b : *a;
    const ArenaGame game =
        play_arena_game(x, o, config.size, config.win_length, opening, config.clock,
                        seed + static_cast<std::uint64_t>(g) * 0x2545f4914f6cdd1dull, g_stop);
    const std::string line =
        game_line(g + 1, a_is_x ? config.a : config.b, a_is_x ? config.b : config.a, opening, game);
    say(line);
    if (record.is_open()) record << record_text(line, game) << std::flush;
    count_game(tally, game, a_is_x ? ttt::Player::X : ttt::Player::O);
  }
  say(summary_line(tally));
  if (g_stop) return kExitInterrupted;
  return tally.forfeits_a + tally.forfeits_b > 0 ? kExitForfeits : 0;
}

}  // namespace

int main(int argc, char** argv) {
  ArenaConfig config;
  const auto args = parse_arena_args(argc, argv, config);
  if (const auto done = ttt::cli::answer_command_line("ttt-arena", args)) return *done;
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  // Log lines are coloured only on a terminal, never with NO_COLOR set (as ttt-bot's).
  ttt::cli::log_to_stderr("ttt-arena", config.log_level, !ttt::cli::no_color_requested());
  try {
    return run(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-arena: %s\n", e.what());
    return 1;
  }
}
