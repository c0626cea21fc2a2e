// NewNameAllowance alone: new names per address an hour, and per IPv6 /48
// in all, with a refusal that says how long to wait and costs nothing.
#include "lobby/new_name_allowance.hpp"

#include <gtest/gtest.h>

#include "net/peer_address.hpp"

namespace ttt::server {
namespace {

using std::chrono::minutes;

TEST(NewNameAllowance, AnAddressRegistersItsShareAnHourThenWaits) {
  NewNameAllowance names(2);
  const auto t0 = NewNameAllowance::Clock::now();
  EXPECT_FALSE(names.spend("192.0.2.1", t0));
  EXPECT_FALSE(names.spend("192.0.2.1", t0));
  const auto refused = names.spend("192.0.2.1", t0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused,
            "your address has registered 2 new names within the hour: try again in 31 min, or "
            "use a name you already have");
  EXPECT_FALSE(names.spend("192.0.2.2", t0)) << "another address has its own";
  EXPECT_FALSE(names.spend("192.0.2.1", t0 + minutes(31))) << "half an hour on: one name back";
}

TEST(NewNameAllowance, TheAddressesOfOneIpv6NetworkShareALargerAllowance) {
  NewNameAllowance names(1);
  const auto t0 = NewNameAllowance::Clock::now();
  std::size_t allowed = 0;
  for (int i = 0; i < 100; ++i) {
    // Each a /64 of the same /48: an address of its own, one network.
    if (!names.spend("2001:db8:1:" + std::to_string(i) + "::/64", t0)) ++allowed;
  }
  EXPECT_EQ(allowed, kNetworkShare);
  EXPECT_FALSE(names.spend("2001:db8:2:1::/64", t0)) << "another /48 is not held back";
}

TEST(NewNameAllowance, NoLimitOrAnUnknownAddressIsNeverHeldBack) {
  NewNameAllowance unlimited(0);
  NewNameAllowance names(1);
  for (int i = 0; i < 50; ++i) {
    EXPECT_FALSE(unlimited.spend("192.0.2.1"));
    EXPECT_FALSE(names.spend(""));
  }
}

}  // namespace
}  // namespace ttt::server
