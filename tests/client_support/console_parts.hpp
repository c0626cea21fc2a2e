// What the unit tests of the console client's parts share: a Terminal that
// keeps what is printed, a RequestSender that keeps what is sent, and games
// as the server reports them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "console/request_sender.hpp"
#include "console/terminal.hpp"
#include "ttt.pb.h"

namespace ttt::testing {

// A stand-in Terminal (line mode unless interactive) whose output is kept.
class Screen {
 public:
  explicit Screen(bool interactive = false, client::ScreenSize size = {24, 80})
      : terminal_(
            interactive, false, [this](std::string_view text) { out_ += text; }, size) {}

  client::Terminal& terminal() noexcept { return terminal_; }
  // What was printed since the last take.
  std::string take() { return std::exchange(out_, {}); }

 private:
  std::string out_;
  client::Terminal terminal_;
};

// A RequestSender that keeps every request; ids count from 1, and 0 comes
// back while it is "not connected".
class FakeSender : public client::RequestSender {
 public:
  struct Sent {
    wire::ClientMessage message;
    bool awaited = false;  // sent with awaits_reply (false for send_quietly)
    bool quiet = false;    // sent with send_quietly
  };

  std::uint32_t send(wire::ClientMessage message, bool awaits_reply) override {
    return keep(std::move(message), awaits_reply, false);
  }
  std::uint32_t send_quietly(wire::ClientMessage message) override {
    return keep(std::move(message), false, true);
  }

  bool connected = true;
  std::vector<Sent> sent;

 private:
  std::uint32_t keep(wire::ClientMessage message, bool awaited, bool quiet) {
    if (!connected) return 0;
    sent.push_back({std::move(message), awaited, quiet});
    return static_cast<std::uint32_t>(sent.size());
  }
};

// Game 4, 3x3: alice (player 1) as X against bob (player 2) as O, in
// progress, cells as given (row-major X/O/E), to_move as given.
inline wire::GameState game_in_progress(std::string cells = "EEEEEEEEE",
                                        wire::Side to_move = wire::SIDE_X) {
  wire::GameState s;
  s.set_game_id(4);
  s.set_size(3);
  s.set_round(1);
  s.set_cells(cells);
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(to_move);
  std::uint32_t marks = 0;
  for (char c : cells) marks += c != 'E';
  s.set_move_count(marks);
  s.mutable_x()->set_player_id(1);
  s.mutable_x()->set_name("alice");
  s.mutable_x()->set_connected(true);
  s.mutable_o()->set_player_id(2);
  s.mutable_o()->set_name("bob");
  s.mutable_o()->set_connected(true);
  return s;
}

inline wire::Joined joined(const wire::GameState& state, wire::Side side) {
  wire::Joined j;
  j.set_side(side);
  *j.mutable_state() = state;
  return j;
}

// The state after the mover plays a cell (row-major index): the turn passes.
inline wire::GameState after_move(wire::GameState s, int cell) {
  std::string cells = s.cells();
  cells[static_cast<std::size_t>(cell)] = s.to_move() == wire::SIDE_X ? 'X' : 'O';
  s.set_cells(cells);
  s.set_move_count(s.move_count() + 1);
  s.set_to_move(s.to_move() == wire::SIDE_X ? wire::SIDE_O : wire::SIDE_X);
  s.mutable_last_move()->set_row(cell / s.size());
  s.mutable_last_move()->set_col(cell % s.size());
  return s;
}

inline bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ttt::testing
