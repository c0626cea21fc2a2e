// Board rendering: golden text of a few boards, with and without colour.
#include <gtest/gtest.h>

#include "console/board_render.hpp"

namespace ttt::client {
namespace {

BoardView view_of(std::string_view cells, std::optional<Move> last = std::nullopt,
                  std::optional<Line> line = std::nullopt) {
  return BoardView{*Board::from_cells(cells), last, line};
}

TEST(BoardRender, EmptyThreeByThree) {
  EXPECT_EQ(render_board(BoardView{Board(3), std::nullopt, std::nullopt}),
            "    a   b   c\n"
            "  +---+---+---+\n"
            "1 |   |   |   |\n"
            "  +---+---+---+\n"
            "2 |   |   |   |\n"
            "  +---+---+---+\n"
            "3 |   |   |   |\n"
            "  +---+---+---+\n");
}

TEST(BoardRender, MidGameMarksTheLastMove) {
  EXPECT_EQ(render_board(view_of("XEEEOEEEX", Move{2, 2})),
            "    a   b   c\n"
            "  +---+---+---+\n"
            "1 | X |   |   |\n"
            "  +---+---+---+\n"
            "2 |   | O |   |\n"
            "  +---+---+---+\n"
            "3 |   |   |[X]|\n"
            "  +---+---+---+\n");
}

TEST(BoardRender, WonFourByFourStarsTheWinningLine) {
  EXPECT_EQ(render_board(view_of("OXEEOXEEEXEOEXEE", Move{3, 1}, Line{LineKind::Column, 1})),
            "    a   b   c   d\n"
            "  +---+---+---+---+\n"
            "1 | O |*X*|   |   |\n"
            "  +---+---+---+---+\n"
            "2 | O |*X*|   |   |\n"
            "  +---+---+---+---+\n"
            "3 |   |*X*|   | O |\n"
            "  +---+---+---+---+\n"
            "4 |   |*X*|   |   |\n"
            "  +---+---+---+---+\n");
}

TEST(BoardRender, AntiDiagonalIsStarredCornerToCorner) {
  const std::string out =
      render_board(view_of("XXOXOEOEE", Move{2, 0}, Line{LineKind::AntiDiagonal, 0}));
  EXPECT_NE(out.find("1 | X | X |*O*|"), std::string::npos) << out;
  EXPECT_NE(out.find("2 | X |*O*|   |"), std::string::npos) << out;
  EXPECT_NE(out.find("3 |*O*|   |   |"), std::string::npos) << out;
}

TEST(BoardRender, MidGameInColour) {
  EXPECT_EQ(render_board(view_of("XEEEOEEEX", Move{2, 2}), RenderStyle{true}),
            "    \x1b[2ma\x1b[0m   \x1b[2mb\x1b[0m   \x1b[2mc\x1b[0m\n"
            "  +---+---+---+\n"
            "\x1b[2m1\x1b[0m | \x1b[1;31mX\x1b[0m |   |   |\n"
            "  +---+---+---+\n"
            "\x1b[2m2\x1b[0m |   | \x1b[1;36mO\x1b[0m |   |\n"
            "  +---+---+---+\n"
            "\x1b[2m3\x1b[0m |   |   |\x1b[1;7m[\x1b[0m\x1b[1;31mX\x1b[0m\x1b[1;7m]\x1b[0m|\n"
            "  +---+---+---+\n");
}

TEST(BoardRender, ColourKeepsTheLayout) {
  const BoardView won = view_of("OXEEOXEEEXEOEXEE", Move{3, 1}, Line{LineKind::Column, 1});
  std::string coloured = render_board(won, RenderStyle{true});
  // Dropping the escape codes gives the plain rendering back.
  std::string stripped;
  for (std::size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\x1b') {
      while (i < coloured.size() && coloured[i] != 'm') ++i;
      continue;
    }
    stripped += coloured[i];
  }
  EXPECT_EQ(stripped, render_board(won));
}

TEST(BoardRender, TwoDigitRowsStayAligned) {
  const std::string out = render_board(BoardView{Board(10), std::nullopt, std::nullopt});
  EXPECT_EQ(out.substr(0, out.find('\n')), "     a   b   c   d   e   f   g   h   i   j");
  EXPECT_NE(out.find("\n 9 |"), std::string::npos);
  EXPECT_NE(out.find("\n10 |"), std::string::npos);
}

TEST(BoardRender, NineteenByNineteenHasColumnsAToSAndRows1To19) {
  Board board(19, 5);
  board.place(18 * 19 + 18, Player::X);
  const std::string out = render_board(BoardView{board, Move{18, 18}, std::nullopt});
  EXPECT_EQ(out.substr(0, out.find('\n')),
            "     a   b   c   d   e   f   g   h   i   j   k   l   m   n   o   p   q   r   s");
  EXPECT_NE(out.find("\n 1 |   |"), std::string::npos);
  EXPECT_NE(out.find("\n19 |   |"), std::string::npos);
  EXPECT_NE(out.find("|   |[X]|\n"), std::string::npos) << "s19, the last cell";
  std::size_t lines = 0;
  std::size_t widest = 0;
  for (std::size_t start = 0; start < out.size();) {
    const std::size_t end = out.find('\n', start);
    widest = std::max(widest, end - start);
    ++lines;
    start = end + 1;
  }
  EXPECT_EQ(lines, 1u + 1u + 19u * 2u);
  EXPECT_EQ(widest, 80u) << "fits an 80-column terminal";
}

TEST(BoardRender, ARunIsStarredAndNothingElse) {
  Board board(7, 4);
  for (int i = 0; i < 4; ++i) board.place((1 + i) * 7 + (5 - i), Player::O);
  const std::string out =
      render_board(BoardView{board, std::nullopt, Line{LineKind::AntiDiagonal, 0, Move{1, 5}, 4}});
  EXPECT_NE(out.find("\n2 |   |   |   |   |   |*O*|   |"), std::string::npos) << out;
  EXPECT_NE(out.find("\n5 |   |   |*O*|   |   |   |   |"), std::string::npos) << out;
  EXPECT_EQ(out.find("*O*", out.find("\n6 |")), std::string::npos) << out;
}

TEST(BoardRender, ALineOffTheBoardFromAPeerIsNotDrawn) {
  const std::string out =
      render_board(BoardView{Board(3), std::nullopt, Line{LineKind::Row, 1000}});
  EXPECT_EQ(out.find('*'), std::string::npos);
}

TEST(BoardRender, BoardAsTheOriginList) {
  EXPECT_EQ(board_as_list(*Board::parse("EEEEXEEEE")), "(E E E E X E E E E)");
}

}  // namespace
}  // namespace ttt::client
