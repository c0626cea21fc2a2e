// NameSecret: ttt-client's secret is made and kept before the first Hello,
// said to own the name once the server takes it, taken from an older server
// that makes it, and rotated; the words for a refused name say where it is.
#include <gtest/gtest.h>

#include "client_support/child_process.hpp"
#include "client_support/console_parts.hpp"
#include "console/name_secret.hpp"

namespace ttt::client {
namespace {

using ttt::testing::has;
using ttt::testing::Screen;

wire::Welcome welcome_of(const std::string& name, bool resumed, const std::string& secret = "") {
  wire::Welcome w;
  w.set_name(name);
  w.set_resumed(resumed);
  w.set_secret(secret);
  return w;
}

class NameSecretTest : public ::testing::Test {
 protected:
  ttt::testing::TempDir dir_;
  const std::string path_ = dir_.path() + "/secrets/host-7777-alice";
  Screen screen_;
  NameSecret secret_{screen_.terminal()};
  ConnectionOptions options_;
};

TEST_F(NameSecretTest, ANewNamesSecretIsSaidToBeOursOnceTheServerTakesIt) {
  secret_.load(path_, "alice", options_);
  EXPECT_EQ(options_.secret.size(), 64u);
  EXPECT_EQ(read_secret(path_), options_.secret) << "kept before the Hello";
  EXPECT_EQ(screen_.take(), "");
  EXPECT_FALSE(secret_.welcomed(welcome_of("alice", false), options_.secret).has_value());
  EXPECT_EQ(screen_.take(),
            "The name alice is now yours on this server; its secret is kept in " + path_ + ".\n");
  secret_.welcomed(welcome_of("alice", false), options_.secret);
  EXPECT_EQ(screen_.take(), "") << "said once";
}

TEST_F(NameSecretTest, AResumedPlayerHearsNothingOfTheSecret) {
  secret_.load(path_, "alice", options_);
  secret_.welcomed(welcome_of("alice", true), options_.secret);
  EXPECT_EQ(screen_.take(), "");
}

TEST_F(NameSecretTest, ASecretAnOlderServerMadeIsKept) {
  secret_.load(path_, "alice", options_);
  const std::string made(32, 'f');
  const auto now_said = secret_.welcomed(welcome_of("alice", false, made), options_.secret);
  EXPECT_EQ(now_said, made) << "the connection says it from now on";
  EXPECT_EQ(read_secret(path_), made);
  EXPECT_TRUE(has(screen_.take(), "its secret is kept in " + path_));
}

TEST_F(NameSecretTest, WithNowhereToKeepItTheMadeSecretIsShown) {
  secret_.load("", "alice", options_);
  EXPECT_TRUE(has(screen_.take(), "The secret for the name alice could not be saved"));
  const std::string made(32, 'f');
  EXPECT_FALSE(secret_.welcomed(welcome_of("alice", false, made), options_.secret).has_value());
  EXPECT_TRUE(has(screen_.take(), "Keep its secret to use it again: " + made + " (not saved:"));
  EXPECT_FALSE(secret_.begin_rotation().has_value());
  EXPECT_TRUE(has(screen_.take(), "The secret can't be replaced: there is nowhere to keep"));
}

TEST_F(NameSecretTest, ARotationTakesTheNewSecretOnceTheServerHasIt) {
  secret_.load(path_, "alice", options_);
  const std::string old = options_.secret;
  const auto next = secret_.begin_rotation();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(read_secret(path_), old) << "until the server answers";
  EXPECT_EQ(secret_.rotated(), next);
  EXPECT_EQ(read_secret(path_), *next);
  EXPECT_TRUE(has(screen_.take(), "Your name has a new secret, kept in " + path_ +
                                      "; the old one no longer works."));
}

TEST_F(NameSecretTest, ARotationWhoseAnswerWasLostIsFinishedAtTheNextWelcome) {
  secret_.load(path_, "alice", options_);
  secret_.welcomed(welcome_of("alice", false), options_.secret);
  const auto next = secret_.begin_rotation();
  ASSERT_TRUE(next.has_value());

  Screen later_screen;  // the next run
  NameSecret later(later_screen.terminal());
  ConnectionOptions later_options;
  later.load(path_, "alice", later_options);
  EXPECT_EQ(later_options.next_secret, *next) << "tried if the old one is refused";
  later.welcomed(welcome_of("alice", true), *next);  // the server took the new one
  EXPECT_EQ(read_secret(path_), *next);
}

TEST_F(NameSecretTest, ARefusedNameSaysWhereTheSecretIs) {
  secret_.load(path_, "alice", options_);
  secret_.name_taken();
  const std::string text = secret_.refusal_text("alice", "host:7777");
  EXPECT_TRUE(has(text, "the name 'alice' on host:7777 belongs to someone else")) << text;
  EXPECT_TRUE(has(text, "nothing in " + path_)) << "the made secret went: " << text;
  EXPECT_TRUE(has(text, "--secret-file")) << text;
}

}  // namespace
}  // namespace ttt::client
