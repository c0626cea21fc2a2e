// RoomOutbox alone: messages go out at once when no write is in flight,
// are held until the last write ends, and a refused move takes back only
// the messages that announced it.
#include "game/room_outbox.hpp"

#include <gtest/gtest.h>

#include "support/fake_participant.hpp"

namespace ttt::server {
namespace {

Outbound chat(const std::string& text) {
  wire::ServerMessage message;
  message.mutable_chat()->set_text(text);
  return make_outbound(std::move(message));
}

std::vector<std::string> chats(const testing::FakeParticipant& who) {
  std::vector<std::string> texts;
  for (const auto& m : who.received) {
    if (m.has_chat()) texts.push_back(m.chat().text());
  }
  return texts;
}

TEST(RoomOutbox, SendsAtOnceWhenSettled) {
  auto alice = std::make_shared<testing::FakeParticipant>();
  RoomOutbox outbox;
  EXPECT_TRUE(outbox.settled());
  outbox.send(alice, chat("hi"));
  EXPECT_EQ(chats(*alice), std::vector<std::string>{"hi"});
}

TEST(RoomOutbox, HoldsMessagesUntilTheLastWriteEnds) {
  auto alice = std::make_shared<testing::FakeParticipant>();
  RoomOutbox outbox;
  outbox.write_started();
  outbox.write_started();
  outbox.send(alice, chat("one"));
  outbox.write_ended();
  EXPECT_FALSE(outbox.settled());
  outbox.send(alice, chat("two"));
  outbox.write_ended();
  ASSERT_TRUE(outbox.settled());
  EXPECT_TRUE(chats(*alice).empty()) << "held until flushed";
  outbox.flush();
  EXPECT_EQ(chats(*alice), (std::vector<std::string>{"one", "two"}));
}

TEST(RoomOutbox, ARefusedMoveTakesBackOnlyItsOwnMessages) {
  auto alice = std::make_shared<testing::FakeParticipant>();
  RoomOutbox outbox;
  outbox.write_started();
  outbox.send(alice, chat("before"));
  const std::size_t mark = outbox.mark();
  outbox.send(alice, chat("the move"));
  outbox.send(alice, chat("its state"));
  outbox.mark_move(mark);
  outbox.send(alice, chat("after"));
  outbox.take_back_move();
  outbox.write_ended();
  outbox.flush();
  EXPECT_EQ(chats(*alice), (std::vector<std::string>{"before", "after"}));
}

TEST(RoomOutbox, AGoneParticipantIsSkippedAndClearDropsEverything) {
  auto alice = std::make_shared<testing::FakeParticipant>();
  RoomOutbox outbox;
  outbox.write_started();
  {
    auto gone = std::make_shared<testing::FakeParticipant>();
    outbox.send(gone, chat("lost"));
  }
  outbox.send(alice, chat("dropped"));
  outbox.clear();
  outbox.write_ended();
  outbox.flush();
  EXPECT_TRUE(chats(*alice).empty());
}

}  // namespace
}  // namespace ttt::server
