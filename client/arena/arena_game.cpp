#include "arena/arena_game.hpp"

#include <algorithm>

namespace ttt::client {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

}  // namespace

ArenaGame play_arena_game(Brain& x, Brain& o, int size, int win_length,
                          const std::vector<Move>& opening, const ArenaClock& clock,
                          std::uint64_t variation, const std::atomic<bool>& stop) {
  ArenaGame result;
  Game game(size, win_length);
  for (const Move& m : opening) {
    if (game.over() || game.play(game.to_move(), m.row, m.col)) break;
    result.moves.push_back(m);
  }
  milliseconds left[2] = {clock.per_game, clock.per_game};
  while (!game.over()) {
    if (stop) {
      result.interrupted = true;
      break;
    }
    const Player me = game.to_move();
    Brain& brain = me == Player::X ? x : o;
    milliseconds& my_left = left[me == Player::X ? 0 : 1];
    Turn turn;
    turn.board = game.board();
    turn.me = me;
    if (!result.moves.empty()) turn.last_move = result.moves.back();
    turn.time = clock.per_move;
    if (clock.per_game.count() > 0) {
      turn.match_time = clock.per_game;
      turn.match_left = my_left;
      turn.time = std::min(turn.time, std::max(my_left, milliseconds(0)));
    }
    turn.variation = variation;
    const auto started = Clock::now();
    const BrainMove chosen = brain.choose(turn);
    my_left -= std::chrono::duration_cast<milliseconds>(Clock::now() - started);
    if (!chosen.move) {
      result.forfeited = me;
      result.failure = chosen.failure;
      break;
    }
    if (clock.per_game.count() > 0 && my_left.count() < 0) {
      result.forfeited = me;
      result.failure = brain.name() + " ran out of time: its " +
                       std::to_string(clock.per_game.count()) + " ms for the game are used up";
      break;
    }
    if (auto refused = game.play(me, chosen.move->row, chosen.move->col)) {
      result.forfeited = me;
      result.failure =
          brain.name() + " chose a move the rules refuse: " + std::string(to_string(*refused));
      break;
    }
    result.moves.push_back(*chosen.move);
  }
  x.game_over();
  o.game_over();
  if (result.forfeited) {
    result.winner = opponent(*result.forfeited);
  } else if (game.status() == GameStatus::XWon || game.status() == GameStatus::OWon) {
    result.winner = game.status() == GameStatus::XWon ? Player::X : Player::O;
    result.line = game.winning_line();
  }
  return result;
}

}  // namespace ttt::client
