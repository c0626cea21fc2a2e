// Positions for the tests of the k-in-a-row engine (15×15, five in a row),
// found by searching random positions with the engine's threat searches and
// checked by the tests themselves.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "ttt/board.hpp"

namespace ttt::internal::ai {

// Positions with X to move and a shortest VCF of 7 fours and the five: 15
// plies (and one of 10 fours, 21 plies), found by searching random positions.
inline const std::vector<std::vector<std::string>> kLongVcfs = {
    {"...............", "...............", "...............", "...............", "...O...........",
     "......XOO......", ".....O.X.......", "....O..O...O...", ".....XX........", "......X...X....",
     ".........X.X...", "..........O....", "...............", "...............", "..............."},
    {"...............", "...............", "...............", "......O.O......", ".....O.........",
     "...O...........", ".....XO........", "...O...O.X.X...", "...............", ".......X.......",
     ".......O...X...", ".....X..XX.....", "...............", "...............", "..............."},
    {"...............", "...............", "...............", "....X.....XX...", "....OO...O.O...",
     "...X.....X.....", "...............", ".....OXX.......", "...O.X...X.....", "......O........",
     ".....O..X......", ".......OO......", "...............", "...............", "..............."},
    {"...............", "...............", "...............", "...............", "..........O....",
     ".....X.........", ".........X.....", ".....XX..X.....", "...............", "....O..O.X.....",
     "...OX..O.O.....", "......O..XO....", "...............", "...............", "..............."},
};
inline constexpr int kLongVcfFours[] = {7, 7, 7, 10};

// Positions where X has a VCT of four threats and no VCF: Perfect converts
// them, Hard (which has no VCT) does not.
inline const std::vector<std::vector<std::string>> kVcts = {
    {"...............", "...............", "...............", "...............", "....XO.XX......",
     ".....O.O..X....", ".......O.......", ".......X.O.....", ".......X.......", "....O..O.X.....",
     "...............", "...............", "...............", "...............", "..............."},
    {"...............", "...............", "...............", "...............", "........O......",
     ".........OX....", "........X......", "....X...XXO....", "........O.O....", "......X........",
     "....O..O.X.....", "...............", "...............", "...............", "..............."},
};

// Positions with O to move where X would win by a VCF of 5 or more fours
// if O did nothing: Hard finds the defence, Medium (which has no threat
// search) does not.
inline const std::vector<std::vector<std::string>> kVcfThreats = {
    {"...............", "...............", "...............", "...............", ".....O.........",
     "........O......", "......O.XX.....", "........O......", "....X.OX..X....", "..........O....",
     "....O.X.X.X....", "...............", "...............", "...............", "..............."},
    {"...............", "...............", "...............", "...............", "......O.O......",
     ".....XO.OOX....", ".........X.....", "...............", ".....X...X.....", "....X.X.X......",
     ".......O.O.....", "...............", "...............", "...............", "..............."},
};

// The board of rows of '.', 'X' and 'O' with win length k. Throws unless it
// is a position of play.
inline Board from_rows(const std::vector<std::string>& rows, int k) {
  std::string cells;
  for (const std::string& row : rows) cells += row;
  for (char& c : cells) c = c == '.' ? 'E' : c;
  auto board = Board::parse(cells, k);
  if (!board) throw std::invalid_argument("not a position of play");
  return *board;
}

// The 15×15 board after moves named as cells (column letter, row number from
// 1: "h8" is the centre), X first, with win length k.
inline Board from_moves(const std::vector<std::string>& moves, int k) {
  Board board(15, k);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string& m = moves[i];
    board.place((std::stoi(m.substr(1)) - 1) * 15 + (m[0] - 'a'),
                i % 2 == 0 ? Player::X : Player::O);
  }
  return board;
}

}  // namespace ttt::internal::ai
