// What ttt-arena prints: a header line, one line per game and the summary
// line `arena summary: games=N wins=W losses=L draws=D forfeits_a=FA
// forfeits_b=FB score=S elo=E ci95=LOW..HIGH` (from the first player's side).
// Pure functions, so tests check the exact words.
#pragma once

#include <string>
#include <vector>

#include "arena/arena_game.hpp"

namespace ttt::client {

// The match so far, from the first player's (A's) side.
struct ArenaTally {
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  int forfeits_a = 0;  // games A lost by a failure of its brain
  int forfeits_b = 0;
};

// "arena: hard vs engine:ttt-engine, 10 games on 15x15, 5 in a row, 1000 ms
// a move" (and ", 60 s a game" when the game has a clock).
std::string header_line(const std::string& a, const std::string& b, int games, int size,
                        int win_length, const ArenaClock& clock);

// "game 3: hard (X) vs engine:ttt-engine (O), opening h8 g9 i7: X wins (row
// 8 from d8 to h8) after 31 moves"; a draw "draw (full board)"; a forfeit
// "O wins (X forfeits: WHY)"; "interrupted" when stopped.
std::string game_line(int number, const std::string& x_name, const std::string& o_name,
                      const std::vector<Move>& opening, const ArenaGame& game);

// A game for --record: "# " and its game_line, then its moves, the opening
// included, as cell names on one line ("h8 g9 i7 ..."), each line ended.
std::string record_text(const std::string& game_line, const ArenaGame& game);

// The summary line; elo and its interval with one decimal and a sign, "+inf"
// or "-inf" when the score is all or nothing.
std::string summary_line(const ArenaTally& tally);

// Adds one game's result for A (who played `a_side`).
void count_game(ArenaTally& tally, const ArenaGame& game, Player a_side);

}  // namespace ttt::client
