// EngineBrain, the bridge to Gomocup engines: whole games against ttt-engine
// (five in a row, and other win lengths through ttt's extension), the
// commands it sends (START, RESTART, BEGIN, TURN, BOARD ... DONE, INFO),
// and a scripted fake engine that misbehaves in every way the issue lists:
// each gives a clear reason, and no engine process is left behind.
#include "engine/engine_brain.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "client_support/child_process.hpp"
#include "engine/ai_brain.hpp"
#include "ttt/rules.hpp"

namespace ttt::client {
namespace {

using namespace std::chrono_literals;
using ttt::testing::bin_dir;
using ttt::testing::TempDir;

EngineOptions engine(const std::string& command) {
  EngineOptions options;
  options.command = command;
  options.grace = 300ms;
  options.start_timeout = 3s;
  return options;
}

EngineOptions fake(const std::string& args = "") {
  return engine(bin_dir() + "/fake-engine " + args);
}

Turn first_turn(int size = 9, int win_length = 5) {
  Turn turn;
  turn.board = Board(size, win_length);
  turn.me = Player::X;
  turn.time = 200ms;
  return turn;
}

// The turn after `played` (by turn.me) and the opponent's answer at `reply`.
Turn next_turn(Turn turn, Move played, Move reply) {
  turn.board.place(played.row * turn.board.size() + played.col, turn.me);
  turn.board.place(reply.row * turn.board.size() + reply.col, opponent(turn.me));
  turn.last_move = reply;
  return turn;
}

// True when pid, a child of this process, has been reaped.
bool reaped(int pid) {
  return pid > 0 && ::waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

// A whole game between two brains from `opening`; the failure of the first
// brain that fails, or empty.
struct Played {
  Game game;
  std::string failure;
};
Played play(Brain& x, Brain& o, int size, int win_length, const std::vector<Move>& opening) {
  Played played{Game(size, win_length), {}};
  std::optional<Move> last;
  for (const Move& m : opening) {
    played.game.play(played.game.to_move(), m.row, m.col);
    last = m;
  }
  while (!played.game.over()) {
    Turn turn;
    turn.board = played.game.board();
    turn.me = played.game.to_move();
    turn.last_move = last;
    turn.time = 100ms;
    const BrainMove chosen = (turn.me == Player::X ? x : o).choose(turn);
    if (!chosen.move) {
      played.failure = chosen.failure;
      break;
    }
    EXPECT_FALSE(played.game.play(turn.me, chosen.move->row, chosen.move->col));
    last = chosen.move;
  }
  x.game_over();
  o.game_over();
  return played;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(EngineBridge, TttEnginePlaysWholeGamesAgainstTttsAi) {
  EngineBrain ttt_engine(engine(bin_dir() + "/ttt-engine --level easy --seed 1"));
  AiOptions ai;
  ai.level = Level::Medium;
  ai.budget = 20ms;
  AiBrain medium(ai);
  for (int colours = 0; colours < 2; ++colours) {
    Brain& x = colours == 0 ? static_cast<Brain&>(ttt_engine) : medium;
    Brain& o = colours == 0 ? static_cast<Brain&>(medium) : ttt_engine;
    const Played played = play(x, o, 9, 5, {Move{4, 4}});
    EXPECT_EQ(played.failure, "");
    EXPECT_TRUE(played.game.over());
  }
}

TEST(EngineBridge, TttEnginePlaysOtherWinLengthsThroughTheExtension) {
  EngineBrain ttt_engine(engine(bin_dir() + "/ttt-engine --level perfect --seed 2"));
  std::string why;
  ASSERT_TRUE(ttt_engine.plays(4, 3, why)) << why;
  AiOptions ai;
  ai.level = Level::Random;
  AiBrain random(ai);
  const Played played = play(ttt_engine, random, 4, 3, {});
  EXPECT_EQ(played.failure, "");
  EXPECT_TRUE(played.game.over());
  EXPECT_EQ(played.game.win_length(), 3);
  EXPECT_TRUE(contains(ttt_engine.name(), "(ttt-engine 0.1.0)")) << ttt_engine.name();
}

TEST(EngineBridge, AnEngineWithoutTheExtensionPlaysFiveInARowOnly) {
  EngineBrain brain(fake());
  std::string why;
  EXPECT_TRUE(brain.plays(15, 5, why)) << why;
  EXPECT_TRUE(brain.plays(5, 0, why)) << "5x5's whole line is five in a row";
  EXPECT_FALSE(brain.plays(9, 4, why));
  EXPECT_TRUE(contains(why,
                       "speaks the Gomocup protocol, which plays five in a row only: it "
                       "can't play 9x9 won by 4 in a row"))
      << why;
  Turn turn = first_turn(7, 4);
  const BrainMove move = brain.choose(turn);
  EXPECT_FALSE(move.move);
  EXPECT_TRUE(contains(move.failure, "five in a row only")) << move.failure;
}

TEST(EngineBridge, FollowsAGameWithTurnAndJoinsOneWithBoard) {
  TempDir dir;
  const std::string log = dir.path() + "/commands";
  {
    EngineBrain brain(fake("--log " + log));
    Turn turn = first_turn();
    const BrainMove first = brain.choose(turn);
    ASSERT_TRUE(first.move) << first.failure;
    EXPECT_EQ(*first.move, (Move{0, 0})) << "the fake plays the first empty cell";
    turn = next_turn(turn, *first.move, Move{4, 4});
    const BrainMove second = brain.choose(turn);
    ASSERT_TRUE(second.move) << second.failure;
    EXPECT_EQ(*second.move, (Move{0, 1}));
    // A position the engine has not seen: a new game from a board.
    Turn other = first_turn();
    other.me = Player::O;
    other.board.place(40, Player::X);
    other.last_move = Move{4, 4};
    const BrainMove joined = brain.choose(other);
    ASSERT_TRUE(joined.move) << joined.failure;
    EXPECT_EQ(*joined.move, (Move{0, 0}));
  }
  const std::vector<std::string> expected = {
      "ABOUT",   "START", "INFO", "INFO", "INFO", "INFO",  "BEGIN",  // rule, timeouts
      "INFO",    "INFO",  "INFO", "TURN",                            // timeouts each move
      "RESTART", "INFO",  "INFO", "INFO", "INFO", "BOARD", "4,4,2", "DONE", "END"};
  EXPECT_EQ(lines_of(log), expected);
}

TEST(EngineBridge, AnEngineWithoutRestartIsStartedAgain) {
  TempDir dir;
  const std::string log = dir.path() + "/commands";
  {
    EngineBrain brain(fake("--no-restart --log " + log));
    ASSERT_TRUE(brain.choose(first_turn()).move);
    brain.game_over();
    const BrainMove again = brain.choose(first_turn());
    ASSERT_TRUE(again.move) << again.failure;
  }
  const auto lines = lines_of(log);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "START"), 2);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "RESTART"), 1);
}

TEST(EngineBridge, MessagesAndDebugLinesAreNotMoves) {
  EngineBrain brain(fake("--misbehave chatty"));
  const BrainMove move = brain.choose(first_turn());
  ASSERT_TRUE(move.move) << move.failure;
  EXPECT_EQ(*move.move, (Move{0, 0}));
}

TEST(EngineBridge, TheEngineIsToldItsTimeAndEndedWhenTheBrainGoes) {
  TempDir dir;
  const std::string log = dir.path() + "/commands";
  int pid = -1;
  {
    EngineBrain brain(fake("--log " + log));
    Turn turn = first_turn();
    turn.match_time = 60'000ms;
    turn.match_left = 42'000ms;
    ASSERT_TRUE(brain.choose(turn).move);
    pid = brain.pid();
  }
  EXPECT_TRUE(reaped(pid));
  EXPECT_EQ(lines_of(log).back(), "END");
}

// One misbehaviour of the fake engine at its second move: the reason the
// bridge gives, after checking the engine process is gone.
std::string failure_at_second_move(const std::string& misbehave) {
  EngineBrain brain(fake("--misbehave " + misbehave + " --at 2"));
  Turn turn = first_turn();
  const BrainMove first = brain.choose(turn);
  EXPECT_TRUE(first.move) << misbehave << ": " << first.failure;
  if (!first.move) return first.failure;
  const int pid = brain.pid();
  const BrainMove second = brain.choose(next_turn(turn, *first.move, Move{4, 4}));
  EXPECT_FALSE(second.move) << misbehave;
  EXPECT_TRUE(reaped(pid)) << misbehave << ": the engine process was not reaped";
  EXPECT_EQ(brain.pid(), -1);
  // The next game starts a fresh engine, which plays.
  const BrainMove fresh = brain.choose(first_turn());
  EXPECT_TRUE(fresh.move) << misbehave << ": " << fresh.failure;
  return second.failure;
}

TEST(EngineBridge, ACrashIsNamedWithTheSignalAndTheEnginesLastWords) {
  const std::string why = failure_at_second_move("crash");
  EXPECT_TRUE(
      contains(why, "engine '" + bin_dir() +
                        "/fake-engine --misbehave crash --at 2' "
                        "(fake-engine 1.0) crashed before answering TURN 4,4: it was killed "
                        "by signal 6"))
      << why;
  EXPECT_TRUE(contains(why, "its stderr: fake-engine: crashing as asked")) << why;
}

TEST(EngineBridge, AnEngineThatExitsIsNamedWithItsExitCode) {
  const std::string why = failure_at_second_move("exit");
  EXPECT_TRUE(contains(why, "crashed before answering TURN 4,4: it exited with code 3")) << why;
}

TEST(EngineBridge, GarbageIsSkippedUntilTheDeadlineAndThenQuoted) {
  const std::string why = failure_at_second_move("garbage");
  EXPECT_TRUE(contains(why,
                       "ran out of time: no move within 500 ms (its 200 ms for the move and "
                       "300 ms of grace) after TURN 4,4; the last line it printed was 'I think "
                       "therefore I am'"))
      << why;
}

// A whole game against an engine that prints what is no move before each of
// its moves (ERROR, UNKNOWN, OK, SUGGEST, a broken line), as the managers
// allow: it plays every move, and it is never forfeited.
TEST(EngineBridge, LinesThatAreNoMoveAreSkippedAsTheManagersSkipThem) {
  EngineBrain brain(fake("--misbehave noisy"));
  Turn turn = first_turn();
  for (int i = 0; i < 6; ++i) {
    const BrainMove move = brain.choose(turn);
    ASSERT_TRUE(move.move) << move.failure;
    EXPECT_EQ(turn.board.at(move.move->row, move.move->col), Cell::Empty);
    turn = next_turn(turn, *move.move, Move{8, i});
  }
}

// An engine that drops the first line after each of its moves (Rapfi's
// multi-threaded build, still finishing the move, does): the bridge's INFO
// lines come first and take the loss, so every TURN and BOARD arrives; a
// RESTART that gets no answer is said again.
TEST(EngineBridge, ACommandDroppedAfterAMoveCostsNothing) {
  TempDir dir;
  const std::string log = dir.path() + "/commands";
  EngineBrain brain(fake("--misbehave drops --log " + log));
  for (int game = 0; game < 2; ++game) {
    Turn turn = first_turn();
    for (int i = 0; i < 4; ++i) {
      const BrainMove move = brain.choose(turn);
      ASSERT_TRUE(move.move) << move.failure;
      turn = next_turn(turn, *move.move, Move{8, i});
    }
    brain.game_over();
  }
  const auto lines = lines_of(log);
  EXPECT_GE(std::count(lines.begin(), lines.end(), "(dropped)"), 7);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "START"), 1);
}

TEST(EngineBridge, AnIllegalCellIsRefused) {
  const std::string why = failure_at_second_move("illegal");
  EXPECT_TRUE(contains(why,
                       "answered an illegal cell: 99,99 is off the 9x9 board (x and y are 0 "
                       "to 8)"))
      << why;
}

TEST(EngineBridge, AnOccupiedCellIsRefused) {
  const std::string why = failure_at_second_move("occupied");
  EXPECT_TRUE(contains(why, "answered an occupied cell: 4,4 (e5) is taken by O")) << why;
}

TEST(EngineBridge, RunningOutOfTimeIsAForfeitWithTheTimes) {
  const std::string why = failure_at_second_move("timeout");
  EXPECT_TRUE(contains(why,
                       "ran out of time: no move within 500 ms (its 200 ms for the move and "
                       "300 ms of grace) after TURN 4,4"))
      << why;
}

TEST(EngineBridge, AnOverLongLineIsRefused) {
  const std::string why = failure_at_second_move("long");
  EXPECT_TRUE(contains(why, "answered TURN 4,4 with a line of over 4096 bytes, starting 'xxx"))
      << why;
}

TEST(EngineBridge, ABoardTheEngineRefusesIsNamed) {
  EngineBrain brain(fake("--max-size 9"));
  const BrainMove move = brain.choose(first_turn(15, 5));
  EXPECT_FALSE(move.move);
  EXPECT_TRUE(contains(move.failure,
                       "refused a 15x15 board: it answered 'ERROR unsupported size "
                       "15' to START 15"))
      << move.failure;
}

// Whether text is one line a terminal only displays: valid UTF-8 without C0
// or C1 controls, DEL or bidi controls (what safe_text guarantees).
bool harmless(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    char32_t cp = byte;
    std::size_t length = 1;
    if (byte >= 0xf0) {
      cp = byte & 0x07u, length = 4;
    } else if (byte >= 0xe0) {
      cp = byte & 0x0fu, length = 3;
    } else if (byte >= 0xc0) {
      cp = byte & 0x1fu, length = 2;
    } else if (byte >= 0x80) {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t j = 1; j < length; ++j) {
      const auto next = static_cast<unsigned char>(text[i + j]);
      if ((next & 0xc0u) != 0x80u) return false;
      cp = (cp << 6) | (next & 0x3fu);
    }
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
        (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      return false;
    }
    i += length;
  }
  return true;
}

// Everything the bridge logs while alive, at every level.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    sink->set_pattern("%v");
    auto logger = std::make_shared<spdlog::logger>("capture", sink);
    logger->set_level(spdlog::level::trace);
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return out_.str(); }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream out_;
};

TEST(EngineBridge, AnEnginesTextIsShownAndLoggedHarmlessly) {
  // ABOUT's name, a MESSAGE and the garbage it answers carry terminal
  // escapes, a C1 control, a bidi override and a byte that is not UTF-8.
  LogCapture log;
  const std::string why = failure_at_second_move("hostile");
  EXPECT_TRUE(harmless(why)) << why;
  EXPECT_TRUE(contains(why,
                       "(^[]0;pwned^Gfake<U+202E> 1.0^[[2J) ran out of time: no move within 500 "
                       "ms (its 200 ms for the move and 300 ms of grace) after TURN 4,4; the last "
                       "line it printed was '^[[2J^[[31mRED<U+009B>0m<U+202E>esrever\xef\xbf\xbd'"))
      << why;
  const std::string logged = log.text();
  EXPECT_TRUE(contains(logged, "says: ^[]0;title^G^[[2J^[[31mRED")) << logged;
  EXPECT_TRUE(contains(logged, "-> ^[[2J^[[31mRED")) << logged;
  std::istringstream lines(logged);
  for (std::string line; std::getline(lines, line);) EXPECT_TRUE(harmless(line)) << line;
}

TEST(EngineBridge, AnEnginesStderrIsQuotedHarmlessly) {
  const std::string why = failure_at_second_move("hostile-exit");
  EXPECT_TRUE(harmless(why)) << why;
  EXPECT_TRUE(contains(why, "it exited with code 3; its stderr: ?]52;c;cHduZWQ=??[2J?[31mRED"))
      << why;
  EXPECT_TRUE(contains(why, "<U+202E>esrever")) << why;
}

TEST(EngineBridge, AnEngineThatNeverAnswersIsGivenUpOnAtStart) {
  EngineOptions options = fake("--misbehave silent");
  options.start_timeout = 300ms;
  EngineBrain brain(options);
  std::string why;
  EXPECT_FALSE(brain.plays(15, 5, why));
  EXPECT_TRUE(contains(why, "gave no answer to ABOUT within 300 ms")) << why;
  EXPECT_EQ(brain.pid(), -1);
}

TEST(EngineBridge, AnEngineThatCannotBeFoundSaysSo) {
  EngineBrain brain(engine("./no-such-engine-here --hash 64"));
  std::string why;
  EXPECT_FALSE(brain.plays(15, 5, why));
  EXPECT_TRUE(contains(why,
                       "engine './no-such-engine-here --hash 64' stopped before answering "
                       "ABOUT: it exited with code 127"))
      << why;
  EXPECT_TRUE(contains(why, "not found")) << why;
}

}  // namespace
}  // namespace ttt::client
