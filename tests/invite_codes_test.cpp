// InviteCodes alone: the codes of this node's private games, found however a
// player types them, another node's private game found through the game
// directory, and wrong tries limited per connection and per address, with
// the player told which and how long to wait.
#include "lobby/invite_codes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "lobby/secrets.hpp"
#include "support/recorded_replies.hpp"

namespace ttt::server {
namespace {

using testing::RecordedReplies;

// A connection's wrong tries: a burst of 5, then one every 3 s (the defaults).
RateLimiter connection_tries() { return RateLimiter(1.0 / 3.0, 5); }

class InviteCodesTest : public ::testing::Test {
 protected:
  RoomSettings private_room(const std::string& code) {
    RoomSettings settings;
    settings.is_private = true;
    settings.invite_code = code;
    return settings;
  }
  wire::ErrorCode last_error(std::uint64_t player) {
    const wire::ServerMessage* error = replies_.conn(player).last_error();
    return error == nullptr ? wire::ERROR_CODE_UNSPECIFIED : error->error().code();
  }
  std::string last_text(std::uint64_t player) {
    const wire::ServerMessage* error = replies_.conn(player).last_error();
    return error == nullptr ? "" : error->error().text();
  }

  LocalGameDirectory directory_;
  RecordedReplies replies_;
  InviteCodes codes_{directory_, replies_, InviteLimits{4, std::chrono::milliseconds(3'000)}};
};

TEST_F(InviteCodesTest, IssuedCodesAreDistinctAndShownInGroupsOfFour) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string code = codes_.issue();
    EXPECT_EQ(code, display_invite_code(normalize_invite_code(code)));
    EXPECT_NE(code.find('-'), std::string::npos) << code;
    seen.insert(code);
    codes_.open(code, GameId{static_cast<std::uint64_t>(i + 1)});
  }
  EXPECT_EQ(seen.size(), 200u);
}

TEST_F(InviteCodesTest, ACodeFindsItsGameHoweverItIsTyped) {
  auto& alice = replies_.add(1, "alice");
  RateLimiter tries = connection_tries();
  const std::string code = codes_.issue();
  codes_.open(code, GameId{7});
  std::string typed = normalize_invite_code(code);
  std::transform(typed.begin(), typed.end(), typed.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  EXPECT_EQ(codes_.game_of(alice, &tries, code, 1), GameId{7});
  EXPECT_EQ(codes_.game_of(alice, &tries, typed, 2), GameId{7});
  EXPECT_EQ(codes_.game_of(alice, &tries, " " + code + " ", 3), GameId{7});
  EXPECT_TRUE(replies_.conn(1).received.empty());
}

TEST_F(InviteCodesTest, AClosedCodeOpensNothingAndIsAWrongTry) {
  auto& alice = replies_.add(1, "alice");
  RateLimiter tries = connection_tries();
  const std::string code = codes_.issue();
  codes_.open(code, GameId{7});
  codes_.close(code);
  EXPECT_EQ(codes_.game_of(alice, &tries, code, 4), std::nullopt);
  EXPECT_EQ(last_error(1), wire::ERROR_CODE_WRONG_INVITE_CODE);
  EXPECT_EQ(last_text(1), "no game has that invite code");
  EXPECT_EQ(replies_.conn(1).last_error()->in_reply_to(), 4u);
}

TEST_F(InviteCodesTest, AnotherNodesPrivateGameIsFoundByItsListedKey) {
  auto& alice = replies_.add(1, "alice");
  RateLimiter tries = connection_tries();
  const std::string code = "ABCD-EFGH-JKMN";
  Listing listing;
  listing.summary.set_game_id(42);
  listing.summary.set_is_private(true);
  listing.node = "node-b";
  listing.invite_key = invite_key(code);
  directory_.publish(listing);
  EXPECT_EQ(codes_.game_of(alice, &tries, "abcdefghjkmn", 1), GameId{42});
  EXPECT_TRUE(codes_.admits(alice, &tries, listing, code, 2));
  EXPECT_FALSE(codes_.admits(alice, &tries, listing, "ABCD-EFGH-JKMP", 3));
  EXPECT_EQ(last_error(1), wire::ERROR_CODE_WRONG_INVITE_CODE);
  EXPECT_EQ(last_text(1), "game 42 is private: a matching invite code is needed");
}

TEST_F(InviteCodesTest, APublicGameNeedsNoCodeAndAPrivateOneItsOwn) {
  auto& alice = replies_.add(1, "alice");
  RateLimiter tries = connection_tries();
  EXPECT_TRUE(codes_.admits(alice, &tries, GameId{3}, RoomSettings{}, "", 1));
  const RoomSettings settings = private_room("WXYZ-2345-6789");
  EXPECT_TRUE(codes_.admits(alice, &tries, GameId{3}, settings, "wxyz23456789", 2));
  EXPECT_FALSE(codes_.admits(alice, &tries, GameId{3}, settings, "", 3));
  EXPECT_EQ(last_text(1), "game 3 is private: a matching invite code is needed");
  // A listing of a node that lists no keys: its own check decides.
  Listing old;
  old.summary.set_game_id(9);
  old.summary.set_is_private(true);
  EXPECT_TRUE(codes_.admits(alice, &tries, old, "anything", 4));
}

TEST_F(InviteCodesTest, AConnectionsWrongTriesRunOutThenItIsToldToWait) {
  auto& alice = replies_.add(1, "alice", "192.0.2.1");
  RateLimiter tries(1.0 / 3.0, 2);
  EXPECT_EQ(codes_.game_of(alice, &tries, "AAAA-AAAA-AAAA", 1), std::nullopt);
  EXPECT_EQ(codes_.game_of(alice, &tries, "AAAA-AAAA-AAAB", 2), std::nullopt);
  EXPECT_EQ(last_error(1), wire::ERROR_CODE_WRONG_INVITE_CODE);
  // Out of tries: even the right code is not looked at.
  const std::string code = codes_.issue();
  codes_.open(code, GameId{5});
  EXPECT_EQ(codes_.game_of(alice, &tries, code, 3), std::nullopt);
  EXPECT_EQ(last_error(1), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_EQ(last_text(1).rfind("too many wrong invite codes: try again in ", 0), 0u)
      << last_text(1);
  // Another connection of another address tries on.
  auto& bob = replies_.add(2, "bob", "198.51.100.1");
  RateLimiter bobs = connection_tries();
  EXPECT_EQ(codes_.game_of(bob, &bobs, code, 1), GameId{5});
}

TEST_F(InviteCodesTest, AnAddressesWrongTriesCountOverAllItsConnections) {
  // The address's burst is 4: four connections of one try each use it up.
  for (std::uint64_t id = 1; id <= 4; ++id) {
    auto& player = replies_.add(id, "p" + std::to_string(id), "203.0.113.9");
    RateLimiter tries = connection_tries();
    EXPECT_FALSE(
        codes_.admits(player, &tries, GameId{8}, private_room("QQQQ-QQQQ-QQQQ"), "nope", 1));
    EXPECT_EQ(last_error(id), wire::ERROR_CODE_WRONG_INVITE_CODE);
  }
  auto& fifth = replies_.add(5, "p5", "203.0.113.9");
  RateLimiter fresh = connection_tries();
  EXPECT_FALSE(
      codes_.admits(fifth, &fresh, GameId{8}, private_room("QQQQ-QQQQ-QQQQ"), "QQQQ-QQQQ-QQQQ", 1));
  EXPECT_EQ(last_error(5), wire::ERROR_CODE_RATE_LIMITED);
  EXPECT_EQ(last_text(5).rfind("too many wrong invite codes: try again in ", 0), 0u)
      << last_text(5);
  // Another address is not held back by this one.
  auto& other = replies_.add(6, "p6", "198.51.100.7");
  RateLimiter others = connection_tries();
  EXPECT_TRUE(codes_.admits(other, &others, GameId{8}, private_room("QQQQ-QQQQ-QQQQ"),
                            "QQQQ-QQQQ-QQQQ", 1));
}

TEST_F(InviteCodesTest, APlayerAwayHasNoConnectionTriesButItsAddressCounts) {
  auto& away = replies_.add(1, "away", "203.0.113.50");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(codes_.game_of(away, nullptr, "ZZZZ-ZZZZ-ZZZZ", 1), std::nullopt);
  }
  EXPECT_EQ(codes_.game_of(away, nullptr, "ZZZZ-ZZZZ-ZZZZ", 2), std::nullopt);
  EXPECT_EQ(last_error(1), wire::ERROR_CODE_RATE_LIMITED);
}

}  // namespace
}  // namespace ttt::server
