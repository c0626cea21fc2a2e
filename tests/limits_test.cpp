// The server's limits, unit by unit: buckets per address, the log's
// allowance per address, the read-buffer budget, game seats per address,
// the bots' fair search queue, resume tokens that expire, and invite codes
// from the cryptographic generator.
#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "game/bot_search_queue.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/address_quotas.hpp"
#include "lobby/resume_tokens.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/connection_slots.hpp"
#include "net/message_rate.hpp"
#include "net/peer_address.hpp"
#include "net/read_budget.hpp"
#include "net/read_turn.hpp"
#include "store/stored_accounts.hpp"

namespace ttt::server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(AddressKey, IPv4AsWrittenIPv6ByItsSlash64) {
  namespace ip = boost::asio::ip;
  EXPECT_EQ(address_key(ip::make_address("192.0.2.7")), "192.0.2.7");
  EXPECT_EQ(address_key(ip::make_address("::ffff:192.0.2.7")), "192.0.2.7");
  EXPECT_EQ(address_key(ip::make_address("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
  EXPECT_EQ(address_key(ip::make_address("2001:db8:1:2:bbbb::9")), "2001:db8:1:2::/64")
      << "one subscriber's /64 is one address";
}

TEST(AddressKey, AnIPv6Slash64BelongsToItsSlash48) {
  EXPECT_EQ(network_key("2001:db8:1:2::/64"), "2001:db8:1::/48");
  EXPECT_EQ(network_key("2001:db8:1:ffff::/64"), "2001:db8:1::/48");
  EXPECT_EQ(network_key("192.0.2.7"), "192.0.2.7") << "an IPv4 address is its own network";
  EXPECT_EQ(network_key("unknown"), "unknown");
}

TEST(ConnectionSlots, AnIPv6Slash48HoldsSoManyAddressesShares) {
  auto slots = std::make_shared<ConnectionSlots>(1000, 2);
  std::vector<std::shared_ptr<void>> held;
  ConnectionSlots::Refusal why{};
  // Eight /64s of one /48 take two each...
  for (int net = 0; net < static_cast<int>(kNetworkShare); ++net) {
    for (int i = 0; i < 2; ++i) {
      held.push_back(slots->take("2001:db8:1:" + std::to_string(net) + "::/64", why));
      ASSERT_TRUE(held.back()) << net;
    }
  }
  // ...and a ninth of the same /48 finds the network's share taken.
  EXPECT_FALSE(slots->take("2001:db8:1:99::/64", why));
  EXPECT_EQ(why, ConnectionSlots::Refusal::kAddressFull);
  EXPECT_TRUE(slots->take("2001:db8:2:99::/64", why)) << "another /48";
  held.pop_back();
  EXPECT_TRUE(slots->take("2001:db8:1:99::/64", why)) << "one given back";
}

TEST(KeyedRateLimiter, EachKeyHasItsOwnBucketAndTheTableStaysBounded) {
  KeyedRateLimiter limiter(1.0, 3.0, 100);
  const auto t = Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.allow("a", t));
  EXPECT_FALSE(limiter.allow("a", t));
  EXPECT_FALSE(limiter.would_allow("a", t));
  EXPECT_NEAR(limiter.wait_seconds("a", t), 1.0, 1e-6);
  EXPECT_TRUE(limiter.allow("b", t)) << "another key is not held back";
  EXPECT_TRUE(limiter.allow("a", t + 1s)) << "a token a second";
  for (int i = 0; i < 10'000; ++i) limiter.allow("k" + std::to_string(i), t + 2s);
  EXPECT_LE(limiter.size(), 100u);
}

TEST(LogLimiter, OneAddressGetsABurstThenLinesAreCountedAndSaid) {
  LogLimiter limiter(3, 5s);
  const auto t = Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.check("198.51.100.1", t).log);
  for (int i = 0; i < 50; ++i) EXPECT_FALSE(limiter.check("198.51.100.1", t).log);
  EXPECT_TRUE(limiter.check("203.0.113.9", t).log) << "other addresses log on";
  const auto next = limiter.check("198.51.100.1", t + 5s);
  EXPECT_TRUE(next.log);
  EXPECT_EQ(next.held_back, 50u);
  EXPECT_EQ(LogLimiter::suffix("198.51.100.1", 50),
            " (50 similar lines from 198.51.100.1 held back)");
  EXPECT_EQ(limiter.dropped(), 50u);
}

TEST(LogLimiter, FlushSaysWhatAQuietAddressHeldBack) {
  std::ostringstream captured;
  auto logger = std::make_shared<spdlog::logger>(
      "flush", std::make_shared<spdlog::sinks::ostream_sink_mt>(captured));
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::info);
  LogLimiter limiter(1, 1s);
  const auto t = Clock::now();
  limiter.check("192.0.2.5", t);
  for (int i = 0; i < 7; ++i) limiter.check("192.0.2.5", t);
  limiter.flush(t + 10s);
  spdlog::set_default_logger(previous);
  EXPECT_NE(captured.str().find("7 log lines from 192.0.2.5 held back"), std::string::npos)
      << captured.str();
}

TEST(ReadBudget, ReservationsNeverPassTheLimit) {
  ReadBudget budget(1000);
  EXPECT_TRUE(budget.reserve(600));
  EXPECT_FALSE(budget.reserve(500));
  EXPECT_TRUE(budget.reserve(400));
  EXPECT_EQ(budget.used(), 1000u);
  budget.release(600);
  EXPECT_TRUE(budget.reserve(500));
  ReadBudget unlimited(0);
  EXPECT_TRUE(unlimited.reserve(std::size_t{1} << 40));
}

TEST(ReadTurn, EndsAtItsBytesReadsOrFramesAndBeginsAfresh) {
  ReadTurn turn(ReadTurnLimits{1000, 4, 3});
  EXPECT_FALSE(turn.over());
  EXPECT_EQ(turn.bytes_left(), 1000u);
  turn.read(600);
  EXPECT_EQ(turn.bytes_left(), 400u);
  turn.read(400);
  EXPECT_TRUE(turn.over()) << "its bytes";
  EXPECT_EQ(turn.bytes_left(), 0u);
  turn.begin();
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(turn.over());
    turn.frame();
  }
  EXPECT_TRUE(turn.over()) << "its frames";
  turn.begin();
  for (int i = 0; i < 4; ++i) turn.read(1);
  EXPECT_TRUE(turn.over()) << "its reads: a record of one byte each is no cheaper a turn";
}

TEST(MessageRate, RefusesPastTheBurstThenCutsOffAFlood) {
  MessageRate rate(10, 20);
  const auto t = Clock::now();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(rate.take(t), MessageRate::Verdict::kAllowed);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(rate.take(t), MessageRate::Verdict::kRefused);
  EXPECT_EQ(rate.take(t), MessageRate::Verdict::kFlooding);
  // A second later, ten more are allowed again.
  EXPECT_EQ(rate.take(t + 1s), MessageRate::Verdict::kAllowed);
  MessageRate unlimited(0, 0);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(unlimited.take(t), MessageRate::Verdict::kAllowed);
}

TEST(AddressQuotas, CapsSeatsAndBotSeatsPerAddress) {
  AddressQuotas quotas({3, 1});
  EXPECT_TRUE(quotas.refusal("192.0.2.1", true).empty());
  quotas.take("192.0.2.1", true);
  EXPECT_NE(quotas.refusal("192.0.2.1", true).find("against the server's bots"), std::string::npos);
  EXPECT_TRUE(quotas.refusal("192.0.2.1", false).empty());
  quotas.take("192.0.2.1", false);
  quotas.take("192.0.2.1", false);
  EXPECT_NE(quotas.refusal("192.0.2.1", false).find("already sit in 3 games"), std::string::npos);
  EXPECT_TRUE(quotas.refusal("192.0.2.2", true).empty()) << "another address";
  EXPECT_TRUE(quotas.refusal("", true).empty()) << "restored players are not counted";
  quotas.give_back("192.0.2.1", true);
  EXPECT_TRUE(quotas.refusal("192.0.2.1", true).empty());
  EXPECT_EQ(quotas.games("192.0.2.1"), 2u);
}

TEST(BotSearchQueue, SharesTakeTurnsSoOneAddressCantHoldUpAnother) {
  boost::asio::io_context io;
  BotSearchQueue queue(io.get_executor(), io.get_executor(), 1, 5);
  std::vector<std::string> order;
  for (int i = 0; i < 6; ++i) {
    queue.submit("attacker", [&order, i] { order.push_back("a" + std::to_string(i)); });
  }
  EXPECT_TRUE(queue.busy()) << "5 or more waiting";
  queue.submit("victim", [&order] { order.push_back("victim"); });
  io.run();
  ASSERT_EQ(order.size(), 7u);
  // One attacker search was running and one had the turn before the
  // victim came; then it is the victim's, not after five more.
  EXPECT_EQ(order[0], "a0");
  EXPECT_EQ(order[1], "a1");
  EXPECT_EQ(order[2], "victim");
  EXPECT_FALSE(queue.busy());
  EXPECT_EQ(queue.waiting(), 0u);
}

TEST(ResumeTokens, ATokenExpiresItsLifetimeAfterItWasIssued) {
  StoredAccounts accounts(nullptr, name_key);
  ResumeTokens tokens(accounts, std::chrono::milliseconds(60'000));
  const auto t = Clock::now();
  const std::string token = tokens.issue(SeatId{7}, AccountId{7}, t);
  EXPECT_EQ(tokens.redeem(token, t + 59s), SeatId{7});
  EXPECT_FALSE(tokens.redeem(token, t + 61s)) << "expired";
  const std::string fresh = tokens.issue(SeatId{7}, AccountId{7}, t + 61s);
  EXPECT_FALSE(tokens.redeem(token, t + 62s)) << "replaced";
  EXPECT_EQ(tokens.redeem(fresh, t + 62s), SeatId{7});
}

TEST(InviteCodes, SixtyRandomBitsInGroupsOfFour) {
  std::set<std::string> seen;
  std::map<char, int> counts;
  for (int i = 0; i < 2000; ++i) {
    const std::string code = random_invite_code();
    ASSERT_EQ(code.size(), kInviteLength);
    for (char c : code) {
      ASSERT_NE(kInviteAlphabet.find(c), std::string_view::npos) << code;
      ++counts[c];
    }
    seen.insert(code);
  }
  EXPECT_EQ(seen.size(), 2000u);
  EXPECT_EQ(kInviteAlphabet.size(), 32u);  // 5 bits a character...
  EXPECT_GE(kInviteLength * 5, 60u);       // ...60 bits a code
  // Every character drawn about equally often (24000 draws, 750 each).
  ASSERT_EQ(counts.size(), 32u);
  for (const auto& [c, n] : counts) {
    EXPECT_GT(n, 550) << c;
    EXPECT_LT(n, 950) << c;
  }
  EXPECT_EQ(display_invite_code("K7QWM3XP9HTR"), "K7QW-M3XP-9HTR");
  EXPECT_EQ(normalize_invite_code("k7qw-m3xp 9htr"), "K7QWM3XP9HTR");
  EXPECT_EQ(display_invite_code("ABC234"), "ABC234") << "codes of older servers stay";
}

TEST(Secrets, AClientsSecretIsLongAndPlain) {
  EXPECT_TRUE(is_valid_secret(std::string(32, 'a')));
  EXPECT_TRUE(is_valid_secret(random_hex(64)));
  EXPECT_TRUE(is_valid_secret("abcdefghijklmnopqrstuvwxyz-_ABCDEF0123"));
  EXPECT_FALSE(is_valid_secret(std::string(31, 'a')));
  EXPECT_FALSE(is_valid_secret(std::string(129, 'a')));
  EXPECT_FALSE(is_valid_secret(std::string(40, 'a') + " "));
  EXPECT_FALSE(is_valid_secret(std::string(40, 'a') + "\xc3\xa9"));
}

}  // namespace
}  // namespace ttt::server
