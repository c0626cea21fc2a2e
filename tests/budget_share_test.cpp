// BudgetShare alone: a read buffer's share of the ReadBudget beyond the
// allowance, the exact share of a TLS state, and all of it given back when
// the share ends.
#include "net/budget_share.hpp"

#include <gtest/gtest.h>

namespace ttt::server {
namespace {

constexpr std::size_t kAllowance = ReadBudget::kAllowance;

TEST(BudgetShare, ABufferWithinTheAllowanceTakesNothing) {
  ReadBudget budget(1000);
  BudgetShare share(budget);
  EXPECT_TRUE(share.cover(kAllowance));
  EXPECT_EQ(budget.used(), 0u);
}

TEST(BudgetShare, ABufferBeyondTheAllowanceTakesTheRestAndGivesItBack) {
  ReadBudget budget(1000);
  BudgetShare share(budget);
  EXPECT_TRUE(share.cover(kAllowance + 600));
  EXPECT_EQ(budget.used(), 600u);
  EXPECT_TRUE(share.cover(kAllowance + 100));  // held already
  EXPECT_EQ(budget.used(), 600u);
  share.fit(kAllowance + 100);
  EXPECT_EQ(budget.used(), 100u);
  share.fit(kAllowance + 500);  // fitting never takes
  EXPECT_EQ(budget.used(), 100u);
}

TEST(BudgetShare, RefusesWhatTheBudgetCannotGiveAndKeepsWhatItHeld) {
  ReadBudget budget(1000);
  BudgetShare other(budget);
  ASSERT_TRUE(other.resize(700));
  BudgetShare share(budget);
  EXPECT_TRUE(share.cover(kAllowance + 200));
  EXPECT_FALSE(share.cover(kAllowance + 400));
  EXPECT_EQ(share.held(), 200u);
  EXPECT_EQ(budget.used(), 900u);
}

TEST(BudgetShare, ResizesExactlyAndGivesEverythingBackWhenItEnds) {
  ReadBudget budget(0);  // no limit
  {
    BudgetShare share(budget);
    EXPECT_TRUE(share.resize(5000));
    EXPECT_TRUE(share.resize(300));
    EXPECT_EQ(budget.used(), 300u);
  }
  EXPECT_EQ(budget.used(), 0u);
}

}  // namespace
}  // namespace ttt::server
