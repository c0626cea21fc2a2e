#include "engine/engine_loop.hpp"

#include <algorithm>
#include <cctype>
#include <exception>

#include "engine/pbrain_protocol.hpp"
#include "text/safe_text.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/rules.hpp"
#include "version.hpp"

namespace ttt::client {
namespace {

using std::chrono::milliseconds;

constexpr int kMinSize = 3;
constexpr int kDefaultWinLength = 5;  // what every Gomocup manager means

// The manager's text quoted back in an ERROR: one line, no escapes, cut.
std::string shown(std::string_view text) { return safe_text(text, 40); }

}  // namespace

EngineLoop::EngineLoop(EngineLoopOptions options, std::ostream& out)
    : options_(options), out_(out) {}

void EngineLoop::answer(const std::string& line) { out_ << line << "\n" << std::flush; }

void EngineLoop::error(const std::string& why) { answer("ERROR " + why); }

void EngineLoop::handle(std::string_view line) {
  if (ended_) return;
  const pbrain::CommandLine command = pbrain::split_command(line);
  if (command.name.empty()) return;
  if (!unknown_block_.empty()) {
    // A command with lines of its own that ttt-engine does not know: one
    // UNKNOWN for the whole of it, at its DONE.
    if (command.name == "DONE") {
      answer("UNKNOWN ttt-engine does not know " + shown(unknown_block_));
      unknown_block_.clear();
    }
    return;
  }
  if (in_board_) {
    if (command.name == "DONE") {
      in_board_ = false;
      if (!board_error_.empty()) {
        error(board_error_);
        return;
      }
      move();
      return;
    }
    board_line(line);
    return;
  }
  const std::string& name = command.name;
  const std::string_view args = command.args;
  if (name == "START") {
    const auto size = cli::parse_int(args, 0, 1'000'000);
    if (!size || *size < kMinSize || *size > Board::kMaxSize) {
      error("ttt-engine plays boards of " + std::to_string(kMinSize) + " to " +
            std::to_string(Board::kMaxSize) + ", not '" + shown(args) + "'");
      return;
    }
    start(static_cast<int>(*size));
    answer("OK");
  } else if (name == "RECTSTART") {
    const auto point = pbrain::parse_point(args);
    if (!point || point->x != point->y || point->x < kMinSize || point->x > Board::kMaxSize) {
      error("ttt-engine plays square boards of " + std::to_string(kMinSize) + " to " +
            std::to_string(Board::kMaxSize) + " only, not '" + shown(args) + "'");
      return;
    }
    start(point->x);
    answer("OK");
  } else if (name == "RESTART") {
    if (size_ == 0) {
      error("RESTART before START");
      return;
    }
    start(size_);
    answer("OK");
  } else if (name == "BEGIN") {
    if (size_ == 0) return error("BEGIN before START");
    if (moves_ != 0) return error("BEGIN on a board that is not empty");
    move();
  } else if (name == "TURN") {
    turn(args);
  } else if (name == "BOARD") {
    if (size_ == 0) return error("BOARD before START");
    std::fill(fields_.begin(), fields_.end(), kEmpty);
    moves_ = 0;
    in_board_ = true;
    board_error_.clear();
  } else if (name == "TAKEBACK") {
    takeback(args);
  } else if (name == "PLAY") {
    play(args);
  } else if (name == "INFO") {
    const pbrain::CommandLine pair = pbrain::split_command(args);
    std::string key = pair.name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    info(key, pair.args);
  } else if (name == "ABOUT") {
    answer(std::string("name=\"ttt-engine\", version=\"") + kVersion +
           "\", author=\"the ttt team\", country=\"\", " + std::string(pbrain::kWinLengthKey) +
           "=\"yes\"");
  } else if (name == "END") {
    ended_ = true;
  } else if (name == "SWAP2BOARD" || name == "YXBOARD") {
    unknown_block_ = name;
  } else {
    answer("UNKNOWN ttt-engine does not know " + shown(name));
  }
}

void EngineLoop::start(int size) {
  size_ = size;
  fields_.assign(static_cast<std::size_t>(size * size), kEmpty);
  moves_ = 0;
  in_board_ = false;
}

void EngineLoop::info(std::string_view key, std::string_view value) {
  const auto number = cli::parse_int(value, -2'147'483'648LL, 2'147'483'647LL);
  if (key == "timeout_turn" && number) {
    timeout_turn_ = std::max<long long>(*number, 0);
  } else if (key == "time_left" && number) {
    time_left_ = *number;
  } else if (key == "rule" && number) {
    // Bits: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    rule_ = GomokuRule::Freestyle;
    note_.clear();
    if ((*number & (4 | 8)) != 0) {
      note_ =
          "ttt-engine plays freestyle (five or more in a row win) and the standard rule "
          "(exactly five), not renju or caro: rule " +
          std::to_string(*number) + " is played as freestyle";
    } else if ((*number & 1) != 0) {
      rule_ = GomokuRule::Standard;
    }
  } else if (key == pbrain::kWinLengthKey && number) {
    win_length_ = static_cast<int>(*number);
  }
  // timeout_match, max_memory, game_type, evaluate, folder: nothing to do.
}

bool EngineLoop::parse_cell(std::string_view args, std::string_view command, int& index) {
  if (size_ == 0) {
    error(std::string(command) + " before START");
    return false;
  }
  const auto point = pbrain::parse_point(args);
  if (!point) {
    error(std::string(command) + " needs a cell x,y, not '" + shown(args) + "'");
    return false;
  }
  if (point->x >= size_ || point->y >= size_) {
    error(std::string(command) + " " + pbrain::point_text(*point) + " is off the " +
          std::to_string(size_) + "x" + std::to_string(size_) + " board");
    return false;
  }
  index = point->y * size_ + point->x;
  return true;
}

void EngineLoop::turn(std::string_view args) {
  int index = 0;
  if (!parse_cell(args, "TURN", index)) return;
  if (fields_[static_cast<std::size_t>(index)] != kEmpty) {
    error("TURN " + shown(args) + ": that cell is taken");
    return;
  }
  fields_[static_cast<std::size_t>(index)] = kTheirs;
  ++moves_;
  move();
}

void EngineLoop::board_line(std::string_view line) {
  if (!board_error_.empty()) return;
  const auto stone = pbrain::parse_stone(line);
  if (!stone) {
    board_error_ = "BOARD: '" + shown(line) + "' is not x,y,field";
    return;
  }
  if (stone->point.x >= size_ || stone->point.y >= size_) {
    board_error_ = "BOARD: " + pbrain::point_text(stone->point) + " is off the board";
    return;
  }
  int& field = fields_[static_cast<std::size_t>(stone->point.y * size_ + stone->point.x)];
  if (field != kEmpty) {
    board_error_ = "BOARD: " + pbrain::point_text(stone->point) + " is listed twice";
    return;
  }
  field = stone->field == 1 ? kOwn : kTheirs;
  ++moves_;
}

void EngineLoop::takeback(std::string_view args) {
  int index = 0;
  if (!parse_cell(args, "TAKEBACK", index)) return;
  if (fields_[static_cast<std::size_t>(index)] == kEmpty) {
    error("TAKEBACK " + shown(args) + ": that cell is empty");
    return;
  }
  fields_[static_cast<std::size_t>(index)] = kEmpty;
  --moves_;
  answer("OK");
}

void EngineLoop::play(std::string_view args) {
  int index = 0;
  if (!parse_cell(args, "PLAY", index)) return;
  if (fields_[static_cast<std::size_t>(index)] != kEmpty) {
    error("PLAY " + shown(args) + ": that cell is taken");
    return;
  }
  fields_[static_cast<std::size_t>(index)] = kOwn;
  ++moves_;
  answer(pbrain::point_text({index % size_, index / size_}));
}

milliseconds EngineLoop::move_budget() const {
  long long turn = timeout_turn_ >= 0 ? timeout_turn_ : options_.ai.budget.count();
  if (time_left_ >= 0 && time_left_ < pbrain::kUnlimitedMs) {
    const long long empty = static_cast<long long>(fields_.size()) - moves_;
    turn = std::min(turn, time_left_ / std::max<long long>(8, empty / 4));
  }
  // Room for the process and the pipes: the AI stops within a millisecond of
  // its budget, the answer still has to reach the manager.
  return milliseconds(std::max<long long>(0, turn - std::max<long long>(25, turn / 20)));
}

void EngineLoop::move() {
  int own = 0;
  int theirs = 0;
  for (int f : fields_) {
    own += f == kOwn;
    theirs += f == kTheirs;
  }
  Player me = Player::X;
  if (theirs == own + 1) {
    me = Player::O;
  } else if (theirs != own) {
    error("this position can't come from a game: " + std::to_string(own) + " stones of mine and " +
          std::to_string(theirs) + " of the opponent's, to move (X moves first, turns alternate)");
    return;
  }
  const int k = win_length_ != 0 ? win_length_ : std::min(kDefaultWinLength, size_);
  if (!Board::valid_win_length(size_, k)) {
    error("no " + std::to_string(size_) + "x" + std::to_string(size_) + " board is won by " +
          std::to_string(k) + " in a row (INFO " + std::string(pbrain::kWinLengthKey) + ")");
    return;
  }
  Board board(size_, k);
  for (int i = 0; i < static_cast<int>(fields_.size()); ++i) {
    const int f = fields_[static_cast<std::size_t>(i)];
    if (f != kEmpty) board.place(i, f == kOwn ? me : opponent(me));
  }
  if ((rule_ == GomokuRule::Freestyle && winner(board)) || board.full()) {
    error("the game on this board is over");
    return;
  }
  AiOptions ai = options_.ai;
  ai.rule = rule_;
  ai.budget = move_budget();
  ai.seed = options_.ai.seed + static_cast<std::uint64_t>(moves_);
  Move chosen{};
  try {
    chosen = calculate_next_move(board, me, ai);
  } catch (const std::exception& e) {
    error(std::string("the search failed: ") + e.what());
    return;
  }
  fields_[static_cast<std::size_t>(chosen.row * size_ + chosen.col)] = kOwn;
  ++moves_;
  if (!note_.empty()) {
    answer("MESSAGE " + note_);
    note_.clear();
  }
  answer(pbrain::point_text(pbrain::point_of(chosen)));
}

}  // namespace ttt::client
