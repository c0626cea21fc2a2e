// ConnectionLife alone, on times the test gives: the Hello deadline, what a
// phase lets through, the silence and heartbeat steps, the close linger and
// the reason a connection ends with.
#include "net/connection_life.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ttt::server {
namespace {

using std::chrono::milliseconds;
using Action = ConnectionLife::Action;
using Admission = ConnectionLife::Admission;

const ConnectionLife::Clock::time_point t0{};

ConnectionLife::Deadlines deadlines() {
  return {milliseconds(1000), milliseconds(4000), milliseconds(900), milliseconds(200)};
}

wire::ClientMessage hello() {
  wire::ClientMessage message;
  message.mutable_hello()->set_name("ann");
  return message;
}

wire::ClientMessage ping() {
  wire::ClientMessage message;
  message.mutable_ping()->set_nonce(7);
  return message;
}

// The step tells the peer `code` and `text`, then closes.
void expect_failure(const ConnectionLife::Step& step, wire::ErrorCode code,
                    const std::string& text) {
  EXPECT_EQ(step.action, Action::kFail);
  EXPECT_EQ(step.code, code);
  EXPECT_EQ(step.text, text);
}

TEST(ConnectionLife, FailsWithoutHelloAtItsDeadline) {
  ConnectionLife life(deadlines(), ConnectionPhase::kHello, nullptr, t0);
  const auto step = life.check(t0 + milliseconds(10));
  EXPECT_EQ(step.action, Action::kWait);
  EXPECT_EQ(step.next, t0 + milliseconds(1000));
  expect_failure(life.check(t0 + milliseconds(1000)), wire::ERROR_CODE_HELLO_TIMEOUT,
                 "no Hello within 1000 ms");
}

TEST(ConnectionLife, LetsOnlyHelloAndPingsThroughBeforeHello) {
  ConnectionLife life(deadlines(), ConnectionPhase::kHello, nullptr, t0);
  wire::ClientMessage list;
  list.mutable_list_games();
  EXPECT_EQ(life.admit(list, t0), Admission::kHelloRequired);
  EXPECT_EQ(life.admit(ping(), t0), Admission::kHelloRequired);
  EXPECT_FALSE(life.ready());
  EXPECT_EQ(life.admit(hello(), t0), Admission::kHello);
  EXPECT_TRUE(life.ready());
  EXPECT_EQ(life.admit(hello(), t0), Admission::kMessage);  // a second Hello is the lobby's
  EXPECT_EQ(life.admit(ping(), t0), Admission::kPing);
  wire::ClientMessage pong;
  pong.mutable_pong()->set_nonce(1);
  EXPECT_EQ(life.admit(pong, t0), Admission::kPong);
  EXPECT_EQ(life.admit(list, t0), Admission::kMessage);
}

TEST(ConnectionLife, PingsASilentPeerAndFailsItAtTheIdleTimeout) {
  ConnectionLife life(deadlines(), ConnectionPhase::kReady, nullptr, t0);
  const auto step = life.check(t0 + milliseconds(1000));
  EXPECT_EQ(step.action, Action::kWait);
  EXPECT_EQ(step.next, t0 + milliseconds(2000));
  EXPECT_EQ(life.check(t0 + milliseconds(2000)).action, Action::kPing);
  EXPECT_EQ(life.check(t0 + milliseconds(2000)).action, Action::kWait);  // pinged already
  life.heard(t0 + milliseconds(3000));
  EXPECT_EQ(life.check(t0 + milliseconds(4000)).action, Action::kWait);
  expect_failure(life.check(t0 + milliseconds(7000)), wire::ERROR_CODE_IDLE_TIMEOUT,
                 "silent for 4000 ms");
}

TEST(ConnectionLife, StopsAtOnceWhenTheHeartbeatIsMissed) {
  ConnectionLife life(deadlines(), ConnectionPhase::kReady, nullptr, t0);
  EXPECT_TRUE(life.set_heartbeat(true));
  EXPECT_FALSE(life.set_heartbeat(true));
  EXPECT_EQ(life.check(t0 + milliseconds(300)).action, Action::kPing);
  const auto step = life.check(t0 + milliseconds(900));
  EXPECT_EQ(step.action, Action::kStop);
  EXPECT_EQ(step.text, "no heartbeat: silent for 900 ms");
}

TEST(ConnectionLife, StopsAtTheEndOfTheLingerForTheReasonItClosedFor) {
  ConnectionLife life(deadlines(), ConnectionPhase::kReady, nullptr, t0);
  EXPECT_TRUE(life.begin_close("closed by the server", t0 + milliseconds(100)));
  EXPECT_FALSE(life.begin_close("again", t0 + milliseconds(150)));
  EXPECT_TRUE(life.closing());
  auto step = life.check(t0 + milliseconds(200));
  EXPECT_EQ(step.action, Action::kWait);
  EXPECT_EQ(step.next, t0 + milliseconds(300));
  step = life.check(t0 + milliseconds(300));
  EXPECT_EQ(step.action, Action::kStop);
  EXPECT_EQ(step.text, "closed by the server");
  EXPECT_TRUE(life.stop("socket closed"));
  EXPECT_FALSE(life.stop("twice"));
  EXPECT_TRUE(life.stopped());
  EXPECT_EQ(life.end_reason(), "closed by the server");  // the first reason stays
}

TEST(ConnectionLife, KeepsTheReasonItStoppedForWithoutAClose) {
  ConnectionLife life(deadlines(), ConnectionPhase::kHandshake, nullptr, t0);
  EXPECT_TRUE(life.stop("closed by peer"));
  EXPECT_EQ(life.end_reason(), "closed by peer");
  EXPECT_FALSE(life.begin_close("too late", t0));
}

}  // namespace
}  // namespace ttt::server
