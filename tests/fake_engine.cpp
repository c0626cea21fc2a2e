// fake-engine: a scripted Gomocup engine for the bridge's tests. It plays
// legally (the first empty cell, row by row) until the move named by
// --at N, where it misbehaves as told:
//
//   fake-engine [--misbehave WHAT] [--at N] [--log FILE] [--max-size N] [--no-restart]
//
//   WHAT: none (default), crash (abort, after a line on stderr), exit (exit 3
//   without a word), garbage (a line that is no answer), illegal (a cell off
//   the board), occupied (a taken cell), timeout (never answers), silent
//   (never answers ABOUT, so never gets going), long (a 10000-byte line),
//   chatty (MESSAGE and DEBUG lines before every move: allowed), noisy
//   (ERROR, UNKNOWN, OK, SUGGEST and a broken line before every move, what
//   the managers skip), drops (takes no command for the first line that
//   follows each of its moves, as Rapfi's multi-threaded build does while it
//   finishes a move: the line is lost, or read word by word), hostile
//   (terminal escapes, bidi controls and bytes that are not UTF-8 in its
//   ABOUT name, a MESSAGE before every move, and then garbage), hostile-exit
//   (the same on stderr, then exit 3).
//   --log FILE appends every command's name to FILE; --max-size refuses
//   larger boards at START; --no-restart answers UNKNOWN to RESTART.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string misbehave = "none";
  int at = 1;
  std::string log;
  int max_size = 100;
  bool no_restart = false;
};

int size = 0;
std::vector<int> board;  // 0 empty, 1 mine, 2 theirs
int moves_answered = 0;
int last_theirs = -1;

void say(const std::string& line) { std::cout << line << "\r\n" << std::flush; }

// Clears the screen, paints it red, sends a C1 CSI, reverses what follows,
// and ends with a byte that is not UTF-8.
const std::string kHostile =
    "\x1b[2J\x1b[31mRED\xc2\x9b"
    "0m\xe2\x80\xae"
    "esrever\xff";

void misbehave(const Options& o) {
  if (o.misbehave == "crash") {
    std::fprintf(stderr, "fake-engine: crashing as asked\n");
    std::abort();
  }
  if (o.misbehave == "exit") std::exit(3);
  if (o.misbehave == "garbage") say("I think therefore I am");
  if (o.misbehave == "illegal") say("99,99");
  if (o.misbehave == "occupied") {
    const int cell = last_theirs >= 0 ? last_theirs : 0;
    say(std::to_string(cell % size) + "," + std::to_string(cell / size));
  }
  if (o.misbehave == "timeout") {
    for (;;) ::pause();
  }
  if (o.misbehave == "long") say(std::string(10000, 'x'));
  if (o.misbehave == "hostile") say(kHostile);
  if (o.misbehave == "hostile-exit") {
    std::fprintf(stderr, "\x1b]52;c;cHduZWQ=\x07%s\n", kHostile.c_str());
    std::exit(3);
  }
}

void move(const Options& o) {
  ++moves_answered;
  const bool plays_on = o.misbehave == "none" || o.misbehave == "chatty" ||
                        o.misbehave == "silent" || o.misbehave == "noisy" || o.misbehave == "drops";
  if (moves_answered == o.at && !plays_on) {
    misbehave(o);
    return;
  }
  if (o.misbehave.starts_with("hostile")) say("MESSAGE \x1b]0;title\x07" + kHostile);
  if (o.misbehave == "chatty") {
    say("MESSAGE thinking hard");
    say("DEBUG depth 3");
  }
  if (o.misbehave == "noisy") {
    say("ERROR Unknown command: timeout_turn");
    say("UNKNOWN what is this");
    say("OK");
    say("SUGGEST 1,1");
    say("- ev 12 nd 4k tm 3");  // a debug line cut in two by a stray newline
  }
  for (int i = 0; i < size * size; ++i) {
    if (board[static_cast<std::size_t>(i)] != 0) continue;
    board[static_cast<std::size_t>(i)] = 1;
    say(std::to_string(i % size) + "," + std::to_string(i / size));
    return;
  }
  say("ERROR the board is full");
}

bool place(const std::string& args, int field) {
  int x = -1, y = -1;
  if (std::sscanf(args.c_str(), "%d,%d", &x, &y) != 2 || x < 0 || y < 0 || x >= size || y >= size) {
    return false;
  }
  board[static_cast<std::size_t>(y * size + x)] = field;
  if (field == 2) last_theirs = y * size + x;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--misbehave")
      o.misbehave = argv[++i];
    else if (flag == "--at")
      o.at = std::atoi(argv[++i]);
    else if (flag == "--log")
      o.log = argv[++i];
    else if (flag == "--max-size")
      o.max_size = std::atoi(argv[++i]);
  }
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-restart") == 0) o.no_restart = true;
  }
  std::string line;
  bool in_board = false;
  int answered = 0;  // moves_answered when the last line was read
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (o.misbehave == "drops" && moves_answered != answered) {
      // The first line after a move is lost; its words come as commands of
      // their own, each answered as unknown, as Rapfi answers them.
      answered = moves_answered;
      std::istringstream words(line);
      std::string word;
      words >> word;
      while (words >> word) say("ERROR Unknown command: " + word);
      if (!o.log.empty()) std::ofstream(o.log, std::ios::app) << "(dropped)\n";
      continue;
    }
    const auto space = line.find(' ');
    const std::string name = line.substr(0, space);
    const std::string args = space == std::string::npos ? "" : line.substr(space + 1);
    if (!o.log.empty()) std::ofstream(o.log, std::ios::app) << name << "\n";
    if (in_board) {
      if (name == "DONE") {
        in_board = false;
        move(o);
      } else {
        int x = 0, y = 0, field = 0;
        if (std::sscanf(line.c_str(), "%d,%d,%d", &x, &y, &field) == 3) {
          place(std::to_string(x) + "," + std::to_string(y), field == 1 ? 1 : 2);
        }
      }
      continue;
    }
    if (name == "ABOUT") {
      if (o.misbehave == "silent") {
        for (;;) ::pause();
      }
      if (o.misbehave.starts_with("hostile")) {
        say("name=\"\x1b]0;pwned\x07"
            "fake\xe2\x80\xae\", version=\"1.0\x1b[2J\"");
        continue;
      }
      say("name=\"fake-engine\", version=\"1.0\", author=\"ttt tests\"");
    } else if (name == "START") {
      const int n = std::atoi(args.c_str());
      if (n < 5 || n > o.max_size) {
        say("ERROR unsupported size " + args);
        continue;
      }
      size = n;
      board.assign(static_cast<std::size_t>(n * n), 0);
      last_theirs = -1;
      say("OK");
    } else if (name == "RESTART") {
      if (o.no_restart) {
        say("UNKNOWN RESTART");
        continue;
      }
      board.assign(board.size(), 0);
      last_theirs = -1;
      say("OK");
    } else if (name == "BEGIN") {
      move(o);
    } else if (name == "TURN") {
      if (!place(args, 2)) {
        say("ERROR bad TURN " + args);
        continue;
      }
      move(o);
    } else if (name == "BOARD") {
      board.assign(board.size(), 0);
      in_board = true;
    } else if (name == "INFO") {
      // nothing to do
    } else if (name == "END") {
      return 0;
    } else {
      say("UNKNOWN " + name);
    }
  }
  return 0;
}
