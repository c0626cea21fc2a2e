// KeptToken: ttt-client's resume token between runs, replaced by each
// Welcome and by a SecretRotated's new token, forgotten on leaving.
#include <gtest/gtest.h>

#include <fstream>

#include "client_support/child_process.hpp"
#include "console/kept_token.hpp"
#include "identity/token_file.hpp"

namespace ttt::client {
namespace {

wire::Welcome welcome_with(const std::string& token) {
  wire::Welcome welcome;
  welcome.set_resume_token(token);
  return welcome;
}

wire::SecretRotated rotated_with(const std::string& token) {
  wire::SecretRotated rotated;
  rotated.set_resume_token(token);
  return rotated;
}

// What a later run reads from path.
std::string kept_at(const std::string& path) {
  std::string error;
  auto file = TokenFile::open(path, error);
  EXPECT_TRUE(file) << error;
  return file ? file->read() : "";
}

class KeptTokenTest : public ::testing::Test {
 protected:
  ttt::testing::TempDir dir_;
  const std::string path_ = dir_.path() + "/tokens/host-7777-alice";
};

TEST_F(KeptTokenTest, AWelcomesTokenIsKeptForTheNextRun) {
  {
    KeptToken token;
    token.open(path_);
    EXPECT_TRUE(token.kept());
    EXPECT_EQ(token.earlier(), "");
    token.welcomed(welcome_with("first-token"));
  }
  KeptToken next;
  next.open(path_);
  EXPECT_EQ(next.earlier(), "first-token");
}

TEST_F(KeptTokenTest, ARotatedSecretsTokenReplacesTheRevokedOne) {
  {
    KeptToken token;
    token.open(path_);
    token.welcomed(welcome_with("before-rotation"));
    token.rotated(rotated_with("after-rotation"));
  }
  EXPECT_EQ(kept_at(path_), "after-rotation");
}

TEST_F(KeptTokenTest, ARotationWithoutATokenKeepsTheOldOne) {
  {
    KeptToken token;
    token.open(path_);
    token.welcomed(welcome_with("still-works"));
    token.rotated(rotated_with(""));
  }
  EXPECT_EQ(kept_at(path_), "still-works");
}

TEST_F(KeptTokenTest, ForgottenTheNextRunStartsAfresh) {
  {
    KeptToken token;
    token.open(path_);
    token.welcomed(welcome_with("gone-soon"));
    token.forget();
  }
  EXPECT_EQ(kept_at(path_), "");
}

TEST_F(KeptTokenTest, WithoutAFileNothingIsKeptAndNothingFails) {
  KeptToken token;
  token.open("");
  EXPECT_FALSE(token.kept());
  token.welcomed(welcome_with("nowhere"));
  token.rotated(rotated_with("nowhere-either"));
  token.forget();
  EXPECT_EQ(token.earlier(), "");
}

TEST_F(KeptTokenTest, AFolderThatCantBeMadeKeepsNothing) {
  // A plain file where the folder should be.
  const std::string blocker = dir_.path() + "/blocker";
  { std::ofstream(blocker) << "x"; }
  KeptToken token;
  token.open(blocker + "/tokens/t");
  EXPECT_FALSE(token.kept());
  token.welcomed(welcome_with("nowhere"));
  EXPECT_EQ(token.earlier(), "");
}

}  // namespace
}  // namespace ttt::client
