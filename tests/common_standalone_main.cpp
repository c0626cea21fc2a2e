// Built by the common.StandaloneLink test with nothing but the compiler and the
// standard library: g++ -std=c++20 -Icommon/include common/src/*.cpp this.cpp
#include <cstdio>

#include "ttt/ai.hpp"
#include "ttt/rules.hpp"

int main() {
  ttt::Game game(3);
  while (!game.over()) {
    const ttt::Move move = ttt::calculate_next_move(game.board(), game.to_move());
    if (game.play(game.to_move(), move.row, move.col)) return 1;
  }
  std::printf("%s\n", std::string(ttt::to_string(game.status())).c_str());
  return game.status() == ttt::GameStatus::Draw ? 0 : 1;
}
