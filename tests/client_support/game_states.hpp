// Games as a server reports them, for the unit tests of the clients' parts.
#pragma once

#include <cstdint>
#include <string>

#include "ttt.pb.h"

namespace ttt::testing {

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

}  // namespace ttt::testing
