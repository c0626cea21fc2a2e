// ttt-arena: the Elo estimate and its interval, the words it prints,
// openings, one game with its clock and forfeits, and the program itself
// against ttt's AI, ttt-engine and a crashing fake engine.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <thread>

#include "arena/arena_config.hpp"
#include "arena/arena_game.hpp"
#include "arena/arena_report.hpp"
#include "arena/elo.hpp"
#include "arena/opening.hpp"
#include "client_support/child_process.hpp"
#include "engine/ai_brain.hpp"
#include "engine/engine_config.hpp"
#include "ttt/rules.hpp"

namespace ttt::client {
namespace {

using namespace std::chrono_literals;
using ttt::testing::bin_dir;
using ttt::testing::run_command;
using ttt::testing::TempDir;

TEST(ArenaElo, AnEvenScoreIsNoDifference) {
  const EloEstimate e = estimate_elo(5, 5, 2);
  EXPECT_DOUBLE_EQ(e.score, 0.5);
  EXPECT_NEAR(e.elo, 0.0, 1e-9);
  EXPECT_NEAR(e.low, -e.high, 1e-9);
  EXPECT_LT(e.low, 0.0);
}

TEST(ArenaElo, FollowsTheLogisticModelAndTheNormalApproximation) {
  // 3 wins and a loss: score 0.75, 400 log10(3) = +190.8; the per-game
  // variance is (3 * 0.25^2 + 0.75^2) / 4 = 0.1875, so the score's 95%
  // interval is 0.75 -+ 1.96 sqrt(0.1875 / 4).
  const EloEstimate e = estimate_elo(3, 1, 0);
  EXPECT_DOUBLE_EQ(e.score, 0.75);
  EXPECT_NEAR(e.elo, 190.849, 1e-3);
  const double margin = 1.959964 * std::sqrt(0.1875 / 4);
  EXPECT_NEAR(e.low, -400 * std::log10(1 / (0.75 - margin) - 1), 1e-9);
  EXPECT_TRUE(std::isinf(e.high) && e.high > 0) << "0.75 + margin is over 1";
  EXPECT_NEAR(elo_of_score(0.25), -190.849, 1e-3);
}

TEST(ArenaElo, AllOrNothingHasNoFiniteEstimate) {
  EXPECT_TRUE(std::isinf(estimate_elo(4, 0, 0).elo));
  EXPECT_GT(estimate_elo(4, 0, 0).elo, 0);
  EXPECT_LT(estimate_elo(0, 4, 0).elo, 0);
}

TEST(ArenaReport, TheSummaryLineIsExact) {
  ArenaTally t;
  EXPECT_EQ(summary_line(t),
            "arena summary: games=0 wins=0 losses=0 draws=0 forfeits_a=0 forfeits_b=0 score=- "
            "elo=- ci95=-");
  t = ArenaTally{10, 5, 3, 2, 0, 1};
  EXPECT_EQ(summary_line(t),
            "arena summary: games=10 wins=5 losses=3 draws=2 forfeits_a=0 forfeits_b=1 "
            "score=0.600 elo=+70.4 ci95=-123.2..+330.5");
  t = ArenaTally{6, 3, 3, 0, 0, 0};
  EXPECT_NE(summary_line(t).find(" score=0.500 elo=+0.0 "), std::string::npos) << summary_line(t);
  t = ArenaTally{4, 4, 0, 0, 0, 0};
  EXPECT_EQ(summary_line(t),
            "arena summary: games=4 wins=4 losses=0 draws=0 forfeits_a=0 forfeits_b=0 "
            "score=1.000 elo=+inf ci95=+inf..+inf");
}

TEST(ArenaReport, HeaderAndGameLinesAreExact) {
  EXPECT_EQ(header_line("hard", "engine:ttt-engine", 10, 15, 5, ArenaClock{1000ms, 0ms}),
            "arena: hard vs engine:ttt-engine, 10 games on 15x15, 5 in a row, 1000 ms a move");
  EXPECT_EQ(header_line("a", "b", 1, 3, 0, ArenaClock{5ms, 90'500ms}),
            "arena: a vs b, 1 game on 3x3, 5 ms a move, 90.5 s a game");
  ArenaGame won;
  won.winner = Player::X;
  won.line = Line{LineKind::Row, 7, Move{7, 3}, 5};
  won.moves.assign(31, Move{0, 0});
  const std::vector<Move> opening{{7, 7}, {8, 6}, {6, 8}};
  EXPECT_EQ(game_line(3, "hard", "engine:e", opening, won),
            "game 3: hard (X) vs engine:e (O), opening h8 g9 i7: X wins (row 8 from d8 to h8) "
            "after 31 moves");
  ArenaGame drawn;
  drawn.moves.assign(9, Move{0, 0});
  EXPECT_EQ(game_line(1, "a", "b", {}, drawn),
            "game 1: a (X) vs b (O), no opening: draw (full board) after 9 moves");
  ArenaGame forfeit;
  forfeit.winner = Player::O;
  forfeit.forfeited = Player::X;
  forfeit.failure = "engine 'e' printed garbage";
  forfeit.moves.assign(1, Move{0, 0});
  EXPECT_EQ(game_line(2, "engine:e", "hard", {Move{0, 0}}, forfeit),
            "game 2: engine:e (X) vs hard (O), opening a1: O wins (X forfeits: engine 'e' printed "
            "garbage) after 1 move");
}

TEST(ArenaReport, CountsEachGameFromTheFirstPlayersSide) {
  ArenaTally t;
  ArenaGame a_wins_as_o;
  a_wins_as_o.winner = Player::O;
  count_game(t, a_wins_as_o, Player::O);
  ArenaGame b_forfeits;
  b_forfeits.winner = Player::X;
  b_forfeits.forfeited = Player::O;
  count_game(t, b_forfeits, Player::X);
  ArenaGame draw;
  count_game(t, draw, Player::X);
  ArenaGame stopped;
  stopped.interrupted = true;
  count_game(t, stopped, Player::X);
  EXPECT_EQ(t.games, 3);
  EXPECT_EQ(t.wins, 2);
  EXPECT_EQ(t.draws, 1);
  EXPECT_EQ(t.forfeits_b, 1);
  EXPECT_EQ(t.forfeits_a, 0);
}

TEST(ArenaOpening, IsLegalNearTheCentreBalancedAndRepeatable) {
  std::mt19937_64 rng(5);
  std::mt19937_64 again(5);
  for (int i = 0; i < 50; ++i) {
    const auto opening = random_opening(15, 5, 6, rng);
    EXPECT_EQ(opening, random_opening(15, 5, 6, again));
    ASSERT_EQ(opening.size(), 6u);
    Board board(15, 5);
    for (const Move& m : opening) {
      EXPECT_GE(m.row, 4);
      EXPECT_LE(m.row, 10);
      EXPECT_GE(m.col, 4);
      EXPECT_LE(m.col, 10);
      ASSERT_TRUE(is_valid_move(board, m.row, m.col, next_player(board)));
      board = make_move(board, m.row, m.col, next_player(board));
    }
    EXPECT_TRUE(balanced(board));
  }
  EXPECT_EQ(default_opening_plies(15), 3);
  EXPECT_EQ(default_opening_plies(3), 1);
}

TEST(ArenaOpening, AThreatIsNotBalanced) {
  Board board(9, 5);
  for (int col = 2; col < 5; ++col) board.place(4 * 9 + col, Player::X);
  board.place(0, Player::O);
  board.place(80, Player::O);
  EXPECT_FALSE(balanced(board)) << "three of X in a window of five, none of O";
  board.place(4 * 9 + 5, Player::O);
  board.place(4 * 9 + 1, Player::O);
  EXPECT_TRUE(balanced(board)) << "both ends blocked: no window of five is X's alone";
}

// A brain for the arena's rules: plays the first empty cell, or fails, or
// takes its time.
class ScriptedBrain : public Brain {
 public:
  explicit ScriptedBrain(int fail_at = -1, std::chrono::milliseconds think = 0ms)
      : fail_at_(fail_at), think_(think) {}
  BrainMove choose(const Turn& turn) override {
    ++calls;
    if (calls == fail_at_) return BrainMove{std::nullopt, "scripted failure"};
    // Thinking spends the arena's clock, which is the wall clock: the time
    // must pass (zero unless a test gives its brain a thinking time).
    std::this_thread::sleep_for(think_);
    times.push_back(turn.time);
    for (int i = 0; i < turn.board.cell_count(); ++i) {
      if (turn.board.at_index(i) == Cell::Empty)
        return BrainMove{Move{i / turn.board.size(), i % turn.board.size()}, {}};
    }
    return BrainMove{std::nullopt, "no empty cell"};
  }
  bool plays(int, int, std::string&) override { return true; }
  void game_over() override { ++games_over; }
  std::string name() const override { return "scripted"; }

  int calls = 0;
  int games_over = 0;
  std::vector<std::chrono::milliseconds> times;

 private:
  int fail_at_;
  std::chrono::milliseconds think_;
};

TEST(ArenaOpening, ReadsCellNamesAndTheGomocupOffsetsFromTheCentre) {
  std::string why;
  EXPECT_EQ(parse_opening("h8 i9 g7", 15, 5, why), (std::vector<Move>{{7, 7}, {8, 8}, {6, 6}}));
  EXPECT_EQ(parse_opening("  0,0, 1,-1,-1,1 ", 15, 5, why),
            (std::vector<Move>{{7, 7}, {6, 8}, {8, 6}}));
  EXPECT_EQ(parse_opening("0,0", 9, 5, why), (std::vector<Move>{{4, 4}}));
}

TEST(ArenaOpening, RefusesWhatIsNoOpeningSayingWhy) {
  std::string why;
  EXPECT_FALSE(parse_opening("h8 h8", 15, 5, why));
  EXPECT_EQ(why, "h8: that cell is already taken");
  EXPECT_FALSE(parse_opening("h8 z99", 15, 5, why));
  EXPECT_TRUE(why.starts_with("'z99' is no cell of the 15x15 board")) << why;
  EXPECT_FALSE(parse_opening("1,2,3", 15, 5, why));
  EXPECT_TRUE(why.starts_with("'1,2,3' is no opening")) << why;
  EXPECT_FALSE(parse_opening("8,0", 15, 5, why));
  EXPECT_EQ(why, "a cell 8,0 from the centre is off the board");
  EXPECT_FALSE(parse_opening("a1 b1 a2 b2 a3 b3 a4 b4 a5", 15, 5, why));
  EXPECT_EQ(why, "the opening ends the game");
  EXPECT_FALSE(parse_opening("\x1b[2J", 15, 5, why));
  EXPECT_TRUE(why.starts_with("'^[[2J' is no cell")) << why;
}

TEST(ArenaOpening, LoadsAFileWithCommentsAndNamesTheLineOfAFault) {
  TempDir dir;
  const std::string path = dir.path() + "/openings";
  std::ofstream(path) << "# balanced ones\n\nh8 i9 g7  # a comment\n0,0, 1,1\n";
  std::string why;
  const auto openings = load_openings(path, 15, 5, why);
  ASSERT_TRUE(openings) << why;
  EXPECT_EQ(openings->size(), 2u);
  std::ofstream(path, std::ios::app) << "h8 h8\n";
  EXPECT_FALSE(load_openings(path, 15, 5, why));
  EXPECT_EQ(why, path + " line 5: h8: that cell is already taken");
  std::ofstream(path) << "# nothing\n";
  EXPECT_FALSE(load_openings(path, 15, 5, why));
  EXPECT_EQ(why, "the openings file '" + path + "' has no opening");
  EXPECT_FALSE(load_openings(dir.path() + "/none", 15, 5, why));
  EXPECT_EQ(why, "can't read the openings file '" + dir.path() + "/none'");
}

TEST(ArenaGame, PlaysFromTheOpeningToTheEnd) {
  ScriptedBrain x;
  ScriptedBrain o;
  const ArenaGame game = play_arena_game(x, o, 3, 0, {Move{1, 1}}, ArenaClock{10ms, 0ms}, 0, false);
  ASSERT_GE(game.moves.size(), 5u);
  EXPECT_EQ(game.moves[0], (Move{1, 1}));
  EXPECT_EQ(game.moves[1], (Move{0, 0})) << "O moves first after X's opening move";
  EXPECT_TRUE(game.winner || game.moves.size() == 9u);
  EXPECT_FALSE(game.forfeited);
  EXPECT_EQ(x.games_over + o.games_over, 2);
}

TEST(ArenaGame, AFailingBrainForfeits) {
  ScriptedBrain x;
  ScriptedBrain o(2);
  const ArenaGame game = play_arena_game(x, o, 9, 5, {}, ArenaClock{10ms, 0ms}, 0, false);
  EXPECT_EQ(game.forfeited, Player::O);
  EXPECT_EQ(game.winner, Player::X);
  EXPECT_EQ(game.failure, "scripted failure");
  EXPECT_EQ(game.moves.size(), 3u);
}

TEST(ArenaGame, TheGameClockIsToldAndRunningOutOfItForfeits) {
  ScriptedBrain x(-1, 30ms);
  ScriptedBrain o;
  const ArenaGame game = play_arena_game(x, o, 9, 5, {}, ArenaClock{500ms, 100ms}, 0, false);
  EXPECT_EQ(game.forfeited, Player::X);
  EXPECT_EQ(game.failure, "scripted ran out of time: its 100 ms for the game are used up");
  ASSERT_FALSE(x.times.empty());
  EXPECT_EQ(x.times[0], 100ms) << "the move's time never exceeds what is left of the game";
}

TEST(ArenaGame, StopsWhenAsked) {
  ScriptedBrain x;
  ScriptedBrain o;
  const ArenaGame game = play_arena_game(x, o, 9, 5, {}, ArenaClock{10ms, 0ms}, 0, true);
  EXPECT_TRUE(game.interrupted);
  EXPECT_FALSE(game.winner);
}

// --- the command lines -----------------------------------------------------------

// argv for a parse: the program's name, then args.
std::vector<const char*> argv_of(const char* program, const std::vector<const char*>& args) {
  std::vector<const char*> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

TEST(ArenaArgs, ThePlayersComeFirstThenTheFlags) {
  ArenaConfig config;
  const auto argv = argv_of("ttt-arena", {"hard", "engine:ttt-engine", "--games", "4", "--size",
                                          "9", "--seed", "7", "--budget", "20"});
  const auto args = parse_arena_args(static_cast<int>(argv.size()), argv.data(), config);
  ASSERT_TRUE(args.result.ok) << args.result.error;
  EXPECT_EQ(config.a, "hard");
  EXPECT_EQ(config.b, "engine:ttt-engine");
  EXPECT_EQ(config.games, 4);
  EXPECT_EQ(config.size, 9);
  EXPECT_EQ(config.win_length, 5) << "five in a row by default";
  EXPECT_TRUE(config.seeded);
  EXPECT_EQ(config.seed, 7u);
  EXPECT_EQ(config.clock.per_move, 20ms);
  EXPECT_NE(args.effective_config.find("games = 4"), std::string::npos) << args.effective_config;
}

TEST(ArenaArgs, ABadCommandLineIsRefusedNamingWhatIsWrong) {
  ArenaConfig config;
  auto argv = argv_of("ttt-arena", {"hard", "--games", "2"});
  auto args = parse_arena_args(static_cast<int>(argv.size()), argv.data(), config);
  EXPECT_FALSE(args.result.ok);
  EXPECT_NE(args.result.error.find("name two players first"), std::string::npos)
      << args.result.error;
  argv = argv_of("ttt-arena", {"hard", "easy", "--size", "7", "--win", "9"});
  args = parse_arena_args(static_cast<int>(argv.size()), argv.data(), config);
  EXPECT_FALSE(args.result.ok);
  EXPECT_NE(args.result.error.find("--win expects 3 to 7"), std::string::npos) << args.result.error;
  argv = argv_of("ttt-arena", {"hard", "easy", "--games", "0"});
  args = parse_arena_args(static_cast<int>(argv.size()), argv.data(), config);
  EXPECT_FALSE(args.result.ok);
  EXPECT_NE(args.result.error.find("--games"), std::string::npos) << args.result.error;
}

TEST(EngineArgs, LevelBudgetAndSeedAreRead) {
  EngineLoopOptions options;
  const auto argv = argv_of("ttt-engine", {"--level", "easy", "--budget", "250", "--seed", "42"});
  const auto args = parse_engine_args(static_cast<int>(argv.size()), argv.data(), options);
  ASSERT_TRUE(args.result.ok) << args.result.error;
  EXPECT_EQ(options.ai.level, Level::Easy);
  EXPECT_EQ(options.ai.budget, 250ms);
  EXPECT_EQ(options.ai.seed, 42u);
  EXPECT_NE(args.usage.find("--level"), std::string::npos);
}

TEST(EngineArgs, ByDefaultASecondAMove) {
  EngineLoopOptions options;
  const auto argv = argv_of("ttt-engine", {});
  const auto args = parse_engine_args(static_cast<int>(argv.size()), argv.data(), options);
  ASSERT_TRUE(args.result.ok) << args.result.error;
  EXPECT_EQ(options.ai.budget, 1000ms);
}

TEST(EngineArgs, AnUnknownLevelIsRefusedNamingTheFlag) {
  EngineLoopOptions options;
  const auto argv = argv_of("ttt-engine", {"--level", "wizard"});
  const auto args = parse_engine_args(static_cast<int>(argv.size()), argv.data(), options);
  EXPECT_FALSE(args.result.ok);
  EXPECT_NE(args.result.error.find("--level"), std::string::npos) << args.result.error;
}

// --- the program ----------------------------------------------------------------

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

TEST(ArenaProgram, PrintsAHeaderEveryGameAndTheSummaryWithColoursAndOpeningsPaired) {
  const auto run = run_command({bin_dir() + "/ttt-arena", "easy", "random", "--games", "4",
                                "--size", "5", "--win", "4", "--budget", "5", "--seed", "3"},
                               30s);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto lines = lines_of(run.output);
  ASSERT_EQ(lines.size(), 6u) << run.output;
  EXPECT_EQ(lines[0], "arena: easy vs random, 4 games on 5x5, 4 in a row, 5 ms a move");
  const std::regex game(
      R"(game (\d): (easy|random) \(X\) vs (easy|random) \(O\), opening ([a-e][1-5]): (X wins \(.+\)|O wins \(.+\)|draw \(full board\)) after \d+ moves?)");
  std::vector<std::string> openings;
  for (int i = 1; i <= 4; ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[static_cast<std::size_t>(i)], m, game))
        << lines[static_cast<std::size_t>(i)];
    EXPECT_EQ(m[1], std::to_string(i));
    EXPECT_EQ(m[2], i % 2 == 1 ? "easy" : "random") << "colours alternate";
    openings.push_back(m[4]);
  }
  EXPECT_EQ(openings[0], openings[1]) << "each opening with both colours";
  EXPECT_EQ(openings[2], openings[3]);
  EXPECT_TRUE(std::regex_match(
      lines[5], std::regex(R"(arena summary: games=4 wins=\d losses=\d draws=\d forfeits_a=0 )"
                           R"(forfeits_b=0 score=\d\.\d{3} elo=([+-]\d+\.\d|[+-]inf) )"
                           R"(ci95=([+-]\d+\.\d|[+-]inf)\.\.([+-]\d+\.\d|[+-]inf))")))
      << lines[5];
  const auto again = run_command({bin_dir() + "/ttt-arena", "easy", "random", "--games", "4",
                                  "--size", "5", "--win", "4", "--budget", "5", "--seed", "3"},
                                 30s);
  EXPECT_EQ(lines_of(again.output)[1], lines[1]) << "--seed repeats the openings";
}

TEST(ArenaProgram, PlaysTheOpeningsOfAFileInTurnWithBothColours) {
  TempDir dir;
  const std::string path = dir.path() + "/openings";
  std::ofstream(path) << "h8 i9 g7\n0,0, 1,-1\n";
  const auto run = run_command({bin_dir() + "/ttt-arena", "easy", "random", "--games", "6",
                                "--budget", "5", "--seed", "3", "--openings", path});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  for (const char* line : {"game 1: easy (X) vs random (O), opening h8 i9 g7:",
                           "game 2: random (X) vs easy (O), opening h8 i9 g7:",
                           "game 3: easy (X) vs random (O), opening h8 i7:",
                           "game 4: random (X) vs easy (O), opening h8 i7:",
                           "game 5: easy (X) vs random (O), opening h8 i9 g7:"}) {
    EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
  }
  std::ofstream(path) << "h8 h8\n";
  const auto bad = run_command({bin_dir() + "/ttt-arena", "easy", "random", "--openings", path});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("line 1: h8: that cell is already taken"), std::string::npos)
      << bad.output;
}

TEST(ArenaProgram, PlaysTttEngineThroughTheBridge) {
  const auto run = run_command(
      {bin_dir() + "/ttt-arena", "medium", "engine:" + bin_dir() + "/ttt-engine --level medium",
       "--games", "2", "--size", "9", "--budget", "20", "--seed", "1"},
      30s);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("arena summary: games=2 "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("forfeits_a=0 forfeits_b=0"), std::string::npos) << run.output;
}

TEST(ArenaProgram, AnEngineThatCrashesForfeitsAndTheExitCodeSaysSo) {
  const std::string engine = "engine:" + bin_dir() + "/fake-engine --misbehave crash --at 2";
  const auto run = run_command({bin_dir() + "/ttt-arena", "easy", engine, "--games", "2", "--size",
                                "9", "--budget", "50", "--seed", "2"},
                               30s);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("O wins (X forfeits: engine '"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("X wins (O forfeits: engine '"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("crashed before answering TURN"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("wins=2 losses=0 draws=0 forfeits_a=0 forfeits_b=2"), std::string::npos)
      << run.output;
}

TEST(ArenaProgram, ExitCodesForABadCommandLineAndAGameAPlayerCannotPlay) {
  auto bad = run_command({bin_dir() + "/ttt-arena", "hard"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("name two players first"), std::string::npos) << bad.output;
  bad = run_command({bin_dir() + "/ttt-arena", "hard", "wizard"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("'wizard' is not a player"), std::string::npos) << bad.output;
  bad = run_command({bin_dir() + "/ttt-arena", "hard", "easy", "--size", "7", "--win", "9"});
  EXPECT_EQ(bad.exit_code, 2);
  const auto cannot =
      run_command({bin_dir() + "/ttt-arena", "hard", "engine:" + bin_dir() + "/fake-engine",
                   "--size", "9", "--win", "4"});
  EXPECT_EQ(cannot.exit_code, 3);
  EXPECT_NE(cannot.output.find("five in a row only"), std::string::npos) << cannot.output;
  const auto help = run_command({bin_dir() + "/ttt-arena", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--match-time"), std::string::npos) << help.output;
}

}  // namespace
}  // namespace ttt::client
