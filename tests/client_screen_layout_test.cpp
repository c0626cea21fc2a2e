// Where the full-screen client draws things (screen_layout.hpp): bordered
// cells when they fit, compact ones when not, a clear word when nothing
// fits, and a click's screen position back to its cell.
#include <gtest/gtest.h>

#include "console/screen_layout.hpp"

namespace ttt::client {
namespace {

TEST(ScreenLayout, BordersWhenTheyFitCompactCellsWhenNot) {
  const auto roomy = layout_screen(30, 100, 3);
  ASSERT_TRUE(roomy.fits);
  EXPECT_TRUE(roomy.board.bordered);
  EXPECT_EQ(roomy.board.lines(), 8);
  EXPECT_EQ(roomy.board.mark_at(1, 1), (std::pair<int, int>{4, 9}));
  EXPECT_EQ(roomy.board.cell_at(4, 9), (Move{1, 1}));
  EXPECT_EQ(roomy.board.cell_at(4, 8), (Move{1, 1})) << "a cell's box, not only its mark";
  EXPECT_EQ(roomy.board.cell_at(3, 9), std::nullopt) << "a border";
  EXPECT_EQ(roomy.board.cell_at(4, 7), std::nullopt) << "a border";
  const auto big = layout_screen(24, 80, 15);
  ASSERT_TRUE(big.fits);
  EXPECT_FALSE(big.board.bordered) << "15 rows of 2 lines don't fit in 24";
  EXPECT_EQ(big.board.label_width, 2);
  EXPECT_EQ(big.board.cell_at(big.board.mark_at(14, 14).first, big.board.mark_at(14, 14).second),
            (Move{14, 14}));
  const auto tiny = layout_screen(8, 30, 3);
  EXPECT_FALSE(tiny.fits);
  EXPECT_NE(tiny.why.find("too small"), std::string::npos);
  const auto lobby = layout_screen(24, 80, 0);
  ASSERT_TRUE(lobby.fits);
  EXPECT_EQ(lobby.board.lines(), 0);
  EXPECT_GT(lobby.log_height, 3);
}

}  // namespace
}  // namespace ttt::client
