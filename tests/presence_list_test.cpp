// PresenceList alone: /who's pages in name order with what each player is
// doing (idle, queued with its wish, waiting, playing against whom,
// watching which game), the server's bots left out, a name filter, the
// other nodes' players merged in, and this node's players shared.
#include "lobby/presence_list.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "executor_check.hpp"
#include "lobby/text_rules.hpp"
#include "support/fake_participant.hpp"
#include "support/memory_accounts.hpp"
#include "support/quiet_cluster.hpp"
#include "support/recorded_replies.hpp"
#include "support/unused_room_dependencies.hpp"

namespace ttt::server {
namespace {

using testing::FakeParticipant;
using testing::MemoryAccounts;
using testing::RecordedReplies;
using testing::UnusedRoomDependencies;

MatchRequest wish(int size, int win_length) {
  MatchRequest request;
  request.size = size;
  request.win_length = win_length;
  return request;
}

// A node among others: their players as the index would page them, and what
// this node shared.
class OtherNodes final : public testing::QuietCluster {
 public:
  void share_presence(const std::map<AccountId, wire::PlayerPresence>& here) override {
    shared = here;
  }
  PresencePage others_presence_page(std::string_view after, std::string_view part,
                                    std::size_t page_size, std::size_t) const override {
    PresencePage page;
    page.total = players.size();
    for (const auto& [name, presence] : players) {
      if (name <= after || name.find(part) == std::string::npos) continue;
      ++page.matched;
      if (page.players.size() == page_size) {
        page.next_after = page.players.back().name();
        break;
      }
      page.players.push_back(presence);
    }
    return page;
  }

  std::map<std::string, wire::PlayerPresence> players;  // by name
  std::map<AccountId, wire::PlayerPresence> shared;
};

class PresenceListTest : public ::testing::Test {
 protected:
  // A person of this node, connected (or away: no connection).
  LobbyPlayer& person(std::uint64_t id, const std::string& name, bool connected = true) {
    auto player = std::make_unique<LobbyPlayer>();
    player->id = SeatId{id};
    player->account = AccountId{id};
    player->name = name;
    player->key = name_key(name);
    auto conn = std::make_shared<FakeParticipant>();
    conns_.push_back(conn);
    player->participant = conn;
    if (connected) player->inbox = &inbox_;
    return players_.add(std::move(player));
  }
  LobbyPlayer& server_bot(std::uint64_t id) {
    auto player = std::make_unique<LobbyPlayer>();
    player->id = SeatId{id};
    player->name = "bot (hard)";
    player->is_bot = true;
    return players_.add(std::move(player));
  }
  std::shared_ptr<GameRoom> room(std::uint64_t id, bool is_private = false) {
    RoomSettings settings;
    settings.size = 3;
    settings.win_length = 3;
    settings.is_private = is_private;
    return std::make_shared<GameRoom>(GameId{id}, settings, io_.get_executor(),
                                      RoomDependencies{deps_, deps_, deps_});
  }
  void sit(LobbyPlayer& player, const std::shared_ptr<GameRoom>& in, wire::Side side) {
    player.room = in;
    in->seat(player.ref(), side, 0);
  }
  // One /who page for the asker (player 100, who is not listed itself).
  wire::PlayerList who(const std::string& after = "", const std::string& name = "",
                       std::uint32_t page_size = 0) {
    wire::ListPlayers request;
    request.set_after(after);
    request.set_name(name);
    request.set_page_size(page_size);
    auto& conn = asker_conn();
    conn.received.clear();
    list_.list(asker_, request, 9);
    EXPECT_EQ(conn.received.size(), 1u);
    return conn.received.empty() ? wire::PlayerList{} : conn.received.back().player_list();
  }
  FakeParticipant& asker_conn() { return replies_.conn(100); }
  static std::vector<std::string> names(const wire::PlayerList& list) {
    std::vector<std::string> out;
    for (const auto& p : list.players()) out.push_back(p.name());
    return out;
  }

  class Unheard final : public Inbox {
   public:
    void receive(const wire::ClientMessage&) override {}
    void closed() override {}
  };

  // The test's thread runs the lobby's executor, as the server's logic
  // thread would (the sanitizer build checks).
  ExecutorStandIn on_logic_;
  boost::asio::io_context io_;
  UnusedRoomDependencies deps_;
  Unheard inbox_;
  std::vector<std::shared_ptr<FakeParticipant>> conns_;
  PlayerTable players_;
  std::map<SeatId, MatchRequest> wishes_;
  MemoryAccounts accounts_;
  OtherNodes nodes_;
  RecordedReplies replies_;
  LobbyPlayer& asker_ = replies_.add(100, "asker");
  PresenceList list_{players_,
                     [this](SeatId id) -> const MatchRequest* {
                       const auto it = wishes_.find(id);
                       return it == wishes_.end() ? nullptr : &it->second;
                     },
                     accounts_,
                     nodes_,
                     replies_,
                     ListPaging{3, 4}};
};

TEST_F(PresenceListTest, PagesGoInNameOrderFromTheCursorWithTheTotal) {
  for (const char* name : {"erin", "alice", "dave", "carol", "bob"}) {
    person(players_.size() + 1, name);
  }
  const auto first = who();
  EXPECT_EQ(names(first), (std::vector<std::string>{"alice", "bob", "carol"}));
  EXPECT_EQ(first.page_size(), 3u) << "the page size when none is asked";
  EXPECT_EQ(first.total(), 5u);
  EXPECT_EQ(first.next_after(), "carol");
  const auto second = who(first.next_after());
  EXPECT_EQ(names(second), (std::vector<std::string>{"dave", "erin"}));
  EXPECT_EQ(second.next_after(), "") << "the last page";
  EXPECT_EQ(who("", "", 50).page_size(), 4u) << "a page is at most page_max";
}

TEST_F(PresenceListTest, TheServersBotsAndPeopleAwayWithoutASeatAreNotListed) {
  person(1, "alice");
  person(2, "gone", false);
  auto& held = person(3, "held", false);
  server_bot(4);
  auto& opponent = person(5, "zed");
  const auto game = room(1);
  sit(held, game, wire::SIDE_X);
  sit(opponent, game, wire::SIDE_O);
  const auto list = who();
  EXPECT_EQ(names(list), (std::vector<std::string>{"alice", "held", "zed"}));
  EXPECT_TRUE(list.players(1).away()) << "away, its seat held";
  EXPECT_FALSE(list.players(0).away());
}

TEST_F(PresenceListTest, EachSaysWhatItIsDoing) {
  person(1, "idle");
  wishes_[person(2, "queued").id] = wish(15, 5);
  auto& waiting = person(3, "waiting");
  sit(waiting, room(1), wire::SIDE_X);
  auto& x = person(4, "xavier");
  auto& o = person(5, "olga");
  const auto game = room(2);
  sit(x, game, wire::SIDE_X);
  sit(o, game, wire::SIDE_O);
  auto& watcher = person(6, "watcher");
  watcher.room = game;
  game->watch(watcher.ref(), 0);

  std::map<std::string, wire::PlayerPresence> by_name;
  const auto first = who("", "", 4);
  const auto second = who(first.next_after(), "", 4);
  for (const auto& page : {first, second}) {
    for (const auto& p : page.players()) by_name[p.name()] = p;
  }
  ASSERT_EQ(by_name.size(), 6u);
  EXPECT_EQ(by_name["idle"].activity(), wire::ACTIVITY_IDLE);
  EXPECT_EQ(by_name["queued"].activity(), wire::ACTIVITY_QUEUED);
  EXPECT_EQ(by_name["queued"].size(), 15);
  EXPECT_EQ(by_name["queued"].win_length(), 5);
  EXPECT_EQ(by_name["waiting"].activity(), wire::ACTIVITY_WAITING);
  EXPECT_EQ(by_name["waiting"].game_id(), 1u);
  EXPECT_EQ(by_name["xavier"].activity(), wire::ACTIVITY_PLAYING);
  EXPECT_EQ(by_name["xavier"].opponent(), "olga");
  EXPECT_EQ(by_name["olga"].opponent(), "xavier");
  EXPECT_EQ(by_name["watcher"].activity(), wire::ACTIVITY_WATCHING);
  EXPECT_EQ(by_name["watcher"].opponent(), "xavier vs olga");
  EXPECT_EQ(by_name["watcher"].game_id(), 2u);
}

TEST_F(PresenceListTest, APrivateGamesIdIsNotShown) {
  auto& player = person(1, "secretive");
  sit(player, room(7, true), wire::SIDE_X);
  const auto list = who();
  ASSERT_EQ(list.players_size(), 1);
  EXPECT_EQ(list.players(0).activity(), wire::ACTIVITY_WAITING);
  EXPECT_EQ(list.players(0).game_id(), 0u);
}

TEST_F(PresenceListTest, ANameFilterCountsTheMatches) {
  for (const char* name : {"anna", "hanna", "bob", "joanna"}) person(players_.size() + 1, name);
  const auto list = who("", "ANNA");
  EXPECT_EQ(names(list), (std::vector<std::string>{"anna", "hanna", "joanna"}));
  EXPECT_EQ(list.total(), 3u);
}

TEST_F(PresenceListTest, TheOtherNodesPlayersAreMergedInNameOrderThisNodesWinningATie) {
  person(1, "bob");
  person(2, "dora");
  for (const char* name : {"alice", "bob", "carl"}) {
    wire::PlayerPresence p;
    p.set_name(name);
    p.set_activity(wire::ACTIVITY_PLAYING);
    nodes_.players[name] = p;
  }
  const auto first = who();
  EXPECT_EQ(names(first), (std::vector<std::string>{"alice", "bob", "carl"}));
  EXPECT_EQ(first.players(1).activity(), wire::ACTIVITY_IDLE) << "this node's bob";
  EXPECT_EQ(first.next_after(), "carl");
  EXPECT_EQ(first.total(), 5u) << "both nodes' players before any filter";
  EXPECT_EQ(names(who(first.next_after())), (std::vector<std::string>{"dora"}));
}

TEST_F(PresenceListTest, ATooLongNameToLookForIsRefused) {
  wire::ListPlayers request;
  request.set_name(std::string(kMaxNameBytes + 1, 'a'));
  list_.list(asker_, request, 4);
  const wire::ServerMessage* error = asker_conn().last_error();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->error().code(), wire::ERROR_CODE_BAD_REQUEST);
  EXPECT_EQ(error->in_reply_to(), 4u);
  request.set_name("");
  request.set_after(std::string(4 * kMaxNameBytes + 1, 'a'));
  asker_conn().received.clear();
  list_.list(asker_, request, 5);
  ASSERT_NE(asker_conn().last_error(), nullptr);
  EXPECT_EQ(asker_conn().last_error()->error().code(), wire::ERROR_CODE_BAD_REQUEST);
}

TEST_F(PresenceListTest, SharingGivesTheOtherNodesThisNodesListedPlayersByAccount) {
  person(1, "alice");
  person(2, "gone", false);
  server_bot(3);
  wishes_[person(4, "queued").id] = wish(3, 3);
  list_.share();
  ASSERT_EQ(nodes_.shared.size(), 2u);
  EXPECT_EQ(nodes_.shared.at(AccountId{1}).name(), "alice");
  EXPECT_EQ(nodes_.shared.at(AccountId{4}).activity(), wire::ACTIVITY_QUEUED);
}

}  // namespace
}  // namespace ttt::server
