// PlayerTable alone: the players held by seat, a person found by the key of
// their name, and /who's pages in name order, filtered, with a bounded scan
// that says where the next page starts.
#include "lobby/player_table.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lobby/text_rules.hpp"

namespace ttt::server {
namespace {

std::unique_ptr<LobbyPlayer> person(std::uint64_t seat, const std::string& name) {
  auto player = std::make_unique<LobbyPlayer>();
  player->id = SeatId{seat};
  player->account = AccountId{seat};
  player->name = name;
  player->key = name_key(name);
  return player;
}

std::unique_ptr<LobbyPlayer> bot(std::uint64_t seat, const std::string& name) {
  auto player = person(seat, name);
  player->is_bot = true;
  player->key.clear();
  return player;
}

// A connection the table only looks at, never calls.
class Unheard final : public Inbox {
 public:
  void receive(const wire::ClientMessage&) override {}
  void closed() override {}
};

std::vector<std::string> names(const PlayerTable::Page& page) {
  std::vector<std::string> out;
  for (const LobbyPlayer* p : page.people) out.push_back(p->name);
  return out;
}

TEST(PlayerTable, HoldsPlayersBySeatAndPeopleByTheKeyOfTheirName) {
  PlayerTable table;
  table.add(person(1, "Alice"));
  table.add(bot(2, "bot (hard)"));
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.people(), 1u) << "bots are not people";
  ASSERT_NE(table.by_key(name_key("alice")), nullptr) << "found by its key, any case";
  EXPECT_EQ(table.by_key(name_key("alice"))->id, SeatId{1});
  EXPECT_EQ(table.by_key(name_key("bot (hard)")), nullptr);
  EXPECT_TRUE(table.contains(SeatId{2}));
  EXPECT_EQ(table.get(SeatId{2})->name, "bot (hard)");
  EXPECT_EQ(table.get(SeatId{3}), nullptr);
}

TEST(PlayerTable, OnlineIsAPersonConnectedNowNotOneAway) {
  PlayerTable table;
  LobbyPlayer& alice = table.add(person(1, "alice"));
  EXPECT_EQ(table.online(name_key("alice")), nullptr) << "away: no connection";
  Unheard connection;
  alice.inbox = &connection;
  EXPECT_EQ(table.online(name_key("ALICE")), &alice);
  EXPECT_EQ(table.online(name_key("bob")), nullptr);
}

TEST(PlayerTable, ASeatHeldAlreadyStaysAndErasingUnindexes) {
  PlayerTable table;
  LobbyPlayer& first = table.add(person(1, "alice"));
  LobbyPlayer& again = table.add(person(1, "alice2"));
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(again.name, "alice");
  table.erase(SeatId{1});
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.people(), 0u);
  EXPECT_EQ(table.by_key(name_key("alice")), nullptr);
  table.erase(SeatId{1});  // nobody: nothing happens
}

TEST(PlayerTable, PagesFollowNameOrderAndSayWhereTheNextStarts) {
  PlayerTable table;
  const std::vector<std::string> all{"dave", "alice", "erin", "bob", "carol"};
  for (std::size_t i = 0; i < all.size(); ++i) table.add(person(i + 1, all[i]));
  const auto first = table.page("", "", 2, 1000, {});
  EXPECT_EQ(names(first), (std::vector<std::string>{"alice", "bob"}));
  EXPECT_EQ(first.next_after, "bob");
  const auto second = table.page(first.next_after, "", 2, 1000, {});
  EXPECT_EQ(names(second), (std::vector<std::string>{"carol", "dave"}));
  const auto last = table.page(second.next_after, "", 2, 1000, {});
  EXPECT_EQ(names(last), (std::vector<std::string>{"erin"}));
  EXPECT_TRUE(last.next_after.empty());
  EXPECT_TRUE(last.scanned_to_end);
}

TEST(PlayerTable, AFilteredPageLooksAtABoundedNumberOfNames) {
  PlayerTable table;
  const std::vector<std::string> all{"ann", "bob", "cal", "dan", "eve", "fay"};
  for (std::size_t i = 0; i < all.size(); ++i) table.add(person(i + 1, all[i]));
  // "a" is in ann, cal, dan, fay; three names looked at per request.
  const auto first = table.page("", "A", 10, 3, {});
  EXPECT_EQ(names(first), (std::vector<std::string>{"ann", "cal"}));
  EXPECT_EQ(first.matched, 2u);
  EXPECT_FALSE(first.scanned_to_end);
  EXPECT_EQ(first.next_after, "cal") << "the last name looked at";
  const auto rest = table.page(first.next_after, "A", 10, 3, {});
  EXPECT_EQ(names(rest), (std::vector<std::string>{"dan", "fay"}));
  EXPECT_TRUE(rest.scanned_to_end);
  // What `shown` holds back is not on the page.
  const auto shown =
      table.page("", "", 10, 100, [](const LobbyPlayer& p) { return p.name != "bob"; });
  EXPECT_EQ(shown.people.size(), 5u);
}

}  // namespace
}  // namespace ttt::server
