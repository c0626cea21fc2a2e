// Game states a fake server sends the clients under test: one game, scripted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

#include "ttt.pb.h"

namespace ttt::testing {

// Game 7 on 3x3 just begun: player 1 `name` (X, to move) against player 2 "rival".
inline wire::GameState fresh_game(const std::string& name) {
  wire::GameState s;
  s.set_game_id(7);
  s.set_size(3);
  s.set_cells(std::string(9, 'E'));
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(wire::SIDE_X);
  s.set_round(1);
  for (auto [info, id, who] : {std::tuple{s.mutable_x(), 1, name}, {s.mutable_o(), 2, "rival"}}) {
    info->set_player_id(static_cast<std::uint64_t>(id));
    info->set_name(who);
    info->set_connected(true);
    info->set_rating(1200);
  }
  return s;
}

// The game after X's move, which O answers by resigning.
inline wire::GameState won_by_resignation(wire::GameState s, const wire::MakeMove& move) {
  s.mutable_cells()->at(static_cast<std::size_t>(move.row() * 3 + move.col())) = 'X';
  s.set_move_count(1);
  s.mutable_last_move()->set_row(move.row());
  s.mutable_last_move()->set_col(move.col());
  s.set_status(wire::GAME_STATUS_X_WON);
  s.set_end_reason(wire::END_REASON_RESIGNATION);
  s.set_to_move(wire::SIDE_NONE);
  return s;
}

}  // namespace ttt::testing
