// The client's side of the lobby's limits: the secret it makes before its first Hello
// (and rotates), the game list a page at a time, and mutes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "client_support/child_process.hpp"
#include "console/game_list_query.hpp"
#include "console/mute_list.hpp"
#include "identity/player_secret.hpp"

namespace ttt::client {
namespace {

namespace fs = std::filesystem;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

TEST(PlayerSecret, ANewNamesSecretIsMadeAndKeptBeforeItIsSent) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/ttt/secrets/host-7777-alice";
  PlayerSecret secret(path);
  std::string error;
  ASSERT_TRUE(secret.load_or_make(error)) << error;
  EXPECT_TRUE(secret.made_now());
  EXPECT_EQ(secret.current().size(), 64u);
  EXPECT_EQ(read_secret(path), secret.current()) << "on disk before any Hello";
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(dir.path() + "/ttt/secrets"), 0700u);
  EXPECT_EQ(mode_of(dir.path() + "/ttt"), 0700u);
  PlayerSecret again(path);
  ASSERT_TRUE(again.load_or_make(error));
  EXPECT_FALSE(again.made_now());
  EXPECT_EQ(again.current(), secret.current());
  EXPECT_NE(new_secret(), new_secret());
}

TEST(PlayerSecret, ASecretMadeForATakenNameIsForgotten) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/s";
  PlayerSecret secret(path);
  std::string error;
  secret.load_or_make(error);
  secret.forget_made();
  EXPECT_FALSE(fs::exists(path));
  PlayerSecret kept(path);
  kept.load_or_make(error);
  kept.registered();
  kept.forget_made();
  EXPECT_TRUE(fs::exists(path)) << "a secret the server took is never thrown away";
}

TEST(PlayerSecret, ARotationIsKeptBesideUntilTheServerTakesIt) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/s";
  std::string error;
  PlayerSecret secret(path);
  secret.load_or_make(error);
  const std::string old = secret.current();
  const std::string next = secret.begin_rotation(error);
  ASSERT_FALSE(next.empty()) << error;
  EXPECT_EQ(read_secret(path), old) << "the old one holds until the server answers";
  EXPECT_EQ(read_secret(path + ".next"), next);
  // The answer was lost: the next run still knows both.
  PlayerSecret later(path);
  later.load_or_make(error);
  EXPECT_EQ(later.current(), old);
  EXPECT_EQ(later.pending(), next);
  ASSERT_TRUE(later.finish_rotation(error)) << error;
  EXPECT_EQ(read_secret(path), next);
  EXPECT_FALSE(fs::exists(path + ".next"));
  EXPECT_TRUE(later.pending().empty());
}

TEST(GameListQuery, PagesFollowTheLastListsFilters) {
  GameListQuery query;
  Command list;
  list.kind = CommandKind::List;
  list.list_size = 4;
  list.open_only = true;
  std::string why;
  auto first = query.request(list, why);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->size(), 4);
  EXPECT_TRUE(first->open_only());
  EXPECT_EQ(first->after(), 0u);
  wire::GameList page;
  for (int i = 0; i < 50; ++i) page.add_games()->set_game_id(100 + i);
  page.set_total(120);
  page.set_next_after(149);
  EXPECT_EQ(query.on_page(page), "Games 1-50 of 120: /list next for more.");
  Command next;
  next.kind = CommandKind::List;
  next.next_page = true;
  auto second = query.request(next, why);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->after(), 149u);
  EXPECT_EQ(second->size(), 4) << "the same filters";
  page.set_next_after(0);
  EXPECT_EQ(query.on_page(page), "Games 51-100 of 120.");
  EXPECT_FALSE(query.request(next, why));
  EXPECT_NE(why.find("No more games"), std::string::npos);
  wire::GameList small;
  small.add_games()->set_game_id(1);
  small.set_total(1);
  EXPECT_TRUE(query.request(list, why));
  EXPECT_EQ(query.on_page(small), "") << "a list that fits one page needs no footer";
}

TEST(MuteList, NamesAreMutedIgnoringLetterCase) {
  MuteList mutes;
  EXPECT_TRUE(mutes.mute("Eve"));
  EXPECT_FALSE(mutes.mute("EVE"));
  EXPECT_TRUE(mutes.muted("eve"));
  EXPECT_FALSE(mutes.muted("eve2"));
  EXPECT_EQ(mutes.names(), std::vector<std::string>{"Eve"});
  EXPECT_TRUE(mutes.unmute("eVe"));
  EXPECT_FALSE(mutes.muted("Eve"));
  EXPECT_FALSE(mutes.unmute("eve"));
}

}  // namespace
}  // namespace ttt::client
