#include "engine/engine_brain.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/pbrain_protocol.hpp"
#include "text/safe_text.hpp"
#include "ttt/rules.hpp"

namespace ttt::client {
namespace {

using std::chrono::milliseconds;
using Clock = ChildProcess::Clock;
using pbrain::Answer;

constexpr std::size_t kCommandWidth = 120;  // an engine's command line in messages
constexpr std::size_t kStderrWidth = 400;   // the tail of its stderr in messages

// "h8" as the clients name cells, for messages.
std::string cell_label(Move move) {
  return std::string(1, static_cast<char>('a' + move.col)) + std::to_string(move.row + 1);
}

std::string side_text(int size) {
  const std::string n = std::to_string(size);
  return n + "x" + n;
}

// Text an engine printed, fit for a terminal and a log: an engine is as
// untrusted as a server, so its text goes through safe_text (escapes and
// controls shown as text, bidi and invisible characters marked, invalid UTF-8
// repaired), at most `width` columns.
std::string printable(std::string_view text, std::size_t width = field_width::kMessage) {
  return safe_text(text, width);
}

// A line an engine printed, quoted for a message.
std::string quoted(std::string_view text) { return "'" + printable(text, 60) + "'"; }

// The BOARD lines of a position from the engine's point of view (1 its own
// stones, 2 the opponent's), as the Gomocup managers send them: in the order
// of play, X's stones and O's alternating from X's first, the last move last
// (some engines play the lines in order as moves and ignore the fields). The
// real order is not known: each side's other stones go row by row.
std::vector<std::string> board_lines(const Board& board, Player me, std::optional<Move> last) {
  std::vector<Move> stones[2];  // X's, O's
  for (int row = 0; row < board.size(); ++row) {
    for (int col = 0; col < board.size(); ++col) {
      const Cell cell = board.at(row, col);
      if (cell == Cell::Empty || (last && *last == Move{row, col})) continue;
      stones[cell == Cell::X ? 0 : 1].push_back({row, col});
    }
  }
  if (last && board.contains(last->row, last->col) &&
      board.at(last->row, last->col) != Cell::Empty) {
    stones[board.at(last->row, last->col) == Cell::X ? 0 : 1].push_back(*last);
  }
  // X moved first; with as many stones as X, O moved last.
  std::vector<std::string> lines;
  const std::size_t total = stones[0].size() + stones[1].size();
  std::size_t next[2] = {0, 0};
  for (std::size_t i = 0; i < total; ++i) {
    int side = static_cast<int>(i % 2);
    if (next[side] == stones[side].size()) side = 1 - side;  // not a position of play
    const Move m = stones[side][next[side]++];
    const int field = (side == 0) == (me == Player::X) ? 1 : 2;
    lines.push_back(pbrain::point_text(pbrain::point_of(m)) + "," + std::to_string(field));
  }
  return lines;
}

}  // namespace

EngineBrain::EngineBrain(EngineOptions options) : options_(std::move(options)) {}

EngineBrain::~EngineBrain() {
  if (!process_) return;
  std::string ignored;
  send("END", ignored);
  process_->stop(milliseconds(500));
}

int EngineBrain::pid() const noexcept { return process_ ? process_->pid() : -1; }

std::string EngineBrain::name() const {
  std::string text = "engine '" + printable(options_.command, kCommandWidth) + "'";
  if (auto it = about_.find("name"); it != about_.end() && !it->second.empty()) {
    text += " (" + it->second;
    if (auto v = about_.find("version"); v != about_.end() && !v->second.empty()) {
      text += " " + v->second;
    }
    text += ")";
  }
  return text;
}

// --- talking ----------------------------------------------------------------

bool EngineBrain::send(const std::string& line, std::string& why) {
  if (!process_) {
    why = "the engine is not running";
    return false;
  }
  spdlog::debug("{} <- {}", name(), line);
  if (process_->write_line(line, Clock::now() + options_.grace)) return true;
  if (!process_->exited() && !process_->wait_exit(Clock::now() + milliseconds(200))) {
    why = "did not take the command " + printable(line, 40) + " within " +
          std::to_string(options_.grace.count()) + " ms";
    return false;
  }
  why = "stopped before answering " + printable(line, 40) + ": " + ended_text();
  return false;
}

std::string EngineBrain::ended_text() {
  // A process whose pipe just closed gets a moment to exit, for its status.
  process_->wait_exit(Clock::now() + milliseconds(500));
  std::string text = process_->exited() ? "it " + process_->exit_text() : "it closed its output";
  const std::string said = process_->stderr_tail();
  if (!said.empty()) text += "; its stderr: " + printable(said, kStderrWidth);
  return text;
}

std::optional<std::string> EngineBrain::answer(Clock::time_point deadline,
                                               const std::string& command, std::string& why) {
  for (;;) {
    const auto read = process_->read_line(deadline);
    switch (read.status) {
      case ChildProcess::ReadStatus::Timeout:
        why = "gave no answer to " + command;
        return std::nullopt;
      case ChildProcess::ReadStatus::Closed:
        why = "stopped before answering " + command + ": " + ended_text();
        return std::nullopt;
      case ChildProcess::ReadStatus::TooLong:
        why = "answered " + command + " with a line of over " +
              std::to_string(ChildProcess::kMaxLine) + " bytes, starting " + quoted(read.line);
        return std::nullopt;
      case ChildProcess::ReadStatus::Line:
        break;
    }
    spdlog::debug("{} -> {}", name(), printable(read.line));
    const Answer a = pbrain::parse_answer(read.line);
    if (a.kind == Answer::Kind::Message) {
      spdlog::info("{} says: {}", name(), printable(a.text));
      continue;
    }
    if (a.kind == Answer::Kind::Debug) continue;
    return read.line;
  }
}

std::optional<std::string> EngineBrain::setup_answer(const std::string& command, std::string& why) {
  if (!send(command, why)) return std::nullopt;
  std::string silent;
  auto line = answer(Clock::now() + kResendAfter, command, silent);
  if (line) return line;
  if (!silent.starts_with("gave no answer")) {
    why = silent;
    return std::nullopt;
  }
  // Dropped, most likely: say it again (a second answer is skipped later).
  spdlog::debug("{} said nothing to {} within {} ms: sending it again", name(), command,
                kResendAfter.count());
  if (!send(command, why)) return std::nullopt;
  line = answer(Clock::now() + options_.start_timeout, command, why);
  if (!line && why.starts_with("gave no answer")) {
    why += " within " + std::to_string((kResendAfter + options_.start_timeout).count()) + " ms";
  }
  return line;
}

bool EngineBrain::expect_ok(const std::string& command, std::string& why) {
  const auto line = setup_answer(command, why);
  if (!line) return false;
  const Answer a = pbrain::parse_answer(*line);
  if (a.kind == Answer::Kind::Ok) return true;
  why = "answered " + quoted(*line) + " to " + command + " where OK was due";
  return false;
}

// --- starting ---------------------------------------------------------------

bool EngineBrain::ensure_started(std::string& why) {
  if (process_) return true;
  std::string error;
  process_ = ChildProcess::start(options_.command, error);
  if (!process_) {
    why = "could not be started: " + error;
    return false;
  }
  about_.clear();
  spdlog::info("{} started (pid {})", name(), process_->pid());
  knows_win_length_ = false;
  started_size_ = 0;
  in_game_ = false;
  known_.reset();
  if (!send("ABOUT", why)) return false;
  const auto line = answer(Clock::now() + options_.start_timeout, "ABOUT", why);
  if (!line) {
    if (why.starts_with("gave no answer")) {
      why += " within " + std::to_string(options_.start_timeout.count()) +
             " ms (an engine answers every command, UNKNOWN to those it does not know)";
    }
    return false;
  }
  const Answer a = pbrain::parse_answer(*line);
  if (a.kind == Answer::Kind::Other) {
    for (auto& [key, value] : pbrain::parse_about(*line)) about_[key] = printable(value, 60);
  }
  if (auto it = about_.find(std::string(pbrain::kWinLengthKey)); it != about_.end()) {
    knows_win_length_ = it->second == "yes";
  }
  return true;
}

bool EngineBrain::plays(int size, int win_length, std::string& why) {
  if (win_length == 0) win_length = size;
  if (!ensure_started(why)) {
    why = fail(why).failure;
    return false;
  }
  if (win_length == 5 || knows_win_length_) return true;
  why = name() + " speaks the Gomocup protocol, which plays five in a row only: it can't play " +
        side_text(size) + " won by " + std::to_string(win_length) +
        " in a row (ttt-engine can: its ABOUT says ttt_win_length=\"yes\")";
  return false;
}

void EngineBrain::game_over() { in_game_ = false; }

bool EngineBrain::continues(const Turn& turn) const {
  if (!in_game_ || !known_ || turn.me != side_ || !turn.last_move) return false;
  const Board& known = *known_;
  const Board& now = turn.board;
  if (known.size() != now.size() || known.win_length() != now.win_length()) return false;
  const Move m = *turn.last_move;
  if (!known.contains(m.row, m.col) || known.at(m.row, m.col) != Cell::Empty) return false;
  Board next = known;
  next.place(m.row * known.size() + m.col, opponent(side_));
  return next == now;
}

bool EngineBrain::new_game(const Turn& turn, std::string& why) {
  const int size = turn.board.size();
  const std::string start = "START " + std::to_string(size);
  bool started = false;
  if (started_size_ == size) {
    // An engine that does not know RESTART gets START again.
    std::string restart_why;
    started = expect_ok("RESTART", restart_why);
    if (!started && !process_) {
      why = restart_why;
      return false;
    }
  }
  if (!started) {
    const auto line = setup_answer(start, why);
    if (!line) return false;
    const Answer a = pbrain::parse_answer(*line);
    if (a.kind == Answer::Kind::Error || a.kind == Answer::Kind::Unknown) {
      why =
          "refused a " + side_text(size) + " board: it answered " + quoted(*line) + " to " + start;
      return false;
    }
    if (a.kind != Answer::Kind::Ok) {
      why = "answered " + quoted(*line) + " to " + start + " where OK was due";
      return false;
    }
    started_size_ = size;
  }
  const int k = turn.board.win_length();
  if (k == 5 && !send("INFO rule " + std::to_string(pbrain::kFreestyleRule), why)) return false;
  if (knows_win_length_ &&
      !send("INFO " + std::string(pbrain::kWinLengthKey) + " " + std::to_string(k), why)) {
    return false;
  }
  in_game_ = true;
  known_.reset();
  return true;
}

// --- moving -----------------------------------------------------------------

BrainMove EngineBrain::fail(const std::string& why) {
  const std::string text = name() + " " + why;
  spdlog::debug("{}", text);  // the caller reports it
  if (process_) process_->kill();
  process_.reset();
  in_game_ = false;
  known_.reset();
  return BrainMove{std::nullopt, text};
}

BrainMove EngineBrain::choose(const Turn& turn) {
  std::string why;
  if (!plays(turn.board.size(), turn.board.win_length(), why)) {
    return BrainMove{std::nullopt, why};
  }
  const bool next_move = continues(turn);
  if (!next_move && !new_game(turn, why)) return fail(why);
  const long long match = turn.match_time.count();
  const long long left =
      match > 0 ? std::max<long long>(turn.match_left.count(), 0) : pbrain::kUnlimitedMs;
  for (const std::string& info :
       {"INFO timeout_turn " + std::to_string(turn.time.count()),
        "INFO timeout_match " + std::to_string(match), "INFO time_left " + std::to_string(left)}) {
    if (!send(info, why)) return fail(why);
  }
  std::string command;
  if (next_move) {
    command = "TURN " + pbrain::point_text(pbrain::point_of(*turn.last_move));
    if (!send(command, why)) return fail(why);
  } else if (turn.board.count(Player::X) + turn.board.count(Player::O) == 0) {
    command = "BEGIN";
    if (!send(command, why)) return fail(why);
  } else {
    command = "BOARD";
    if (!send(command, why)) return fail(why);
    for (const std::string& line : board_lines(turn.board, turn.me, turn.last_move)) {
      if (!send(line, why)) return fail(why);
    }
    if (!send("DONE", why)) return fail(why);
  }
  side_ = turn.me;
  return await_move(command, turn);
}

BrainMove EngineBrain::await_move(const std::string& command, const Turn& turn) {
  const auto limit = turn.time + options_.grace;
  const auto deadline = Clock::now() + limit;
  // Lines that are no move are skipped until the deadline, as the Gomocup
  // managers skip them: an ERROR or UNKNOWN (a command the engine did not
  // take), OK, SUGGEST or garbage (a broken debug line). The last one is
  // named if no move comes.
  std::string skipped;
  Answer a;
  for (;;) {
    std::string why;
    const auto line = answer(deadline, command, why);
    if (!line) {
      if (why.starts_with("gave no answer")) {
        std::string text = "ran out of time: no move within " + std::to_string(limit.count()) +
                           " ms (its " + std::to_string(turn.time.count()) +
                           " ms for the move and " + std::to_string(options_.grace.count()) +
                           " ms of grace) after " + command;
        if (!skipped.empty()) text += "; the last line it printed was " + quoted(skipped);
        return fail(text);
      }
      if (why.starts_with("stopped before answering")) {
        return fail("crashed before answering " + command + ": " + ended_text());
      }
      return fail(why);
    }
    a = pbrain::parse_answer(*line);
    if (a.kind == Answer::Kind::Move) break;
    spdlog::debug("{} printed {} while a move was due after {} (skipped)", name(), quoted(*line),
                  command);
    skipped = *line;
  }
  const int size = turn.board.size();
  const Move move = pbrain::move_of(a.point);
  if (!turn.board.contains(move.row, move.col)) {
    return fail("answered an illegal cell: " + pbrain::point_text(a.point) + " is off the " +
                side_text(size) + " board (x and y are 0 to " + std::to_string(size - 1) + ")");
  }
  if (turn.board.at(move.row, move.col) != Cell::Empty) {
    const char* holder = turn.board.at(move.row, move.col) == Cell::X ? "X" : "O";
    return fail("answered an occupied cell: " + pbrain::point_text(a.point) + " (" +
                cell_label(move) + ") is taken by " + holder);
  }
  Board after = turn.board;
  after.place(move.row * size + move.col, turn.me);
  known_ = after;
  return BrainMove{move, {}};
}

}  // namespace ttt::client
