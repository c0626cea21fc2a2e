// The resume token file: kept between runs, one client per file.
#include <gtest/gtest.h>

#include <filesystem>

#include "client_support/child_process.hpp"
#include "identity/config_files.hpp"
#include "identity/token_file.hpp"

namespace ttt::client {
namespace {

TEST(TokenFile, KeepsTheTokenAcrossOpenings) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/tokens/server-7777-alice";
  std::string error;
  {
    auto file = TokenFile::open(path, error);
    ASSERT_TRUE(file) << error;
    EXPECT_EQ(file->read(), "");
    EXPECT_TRUE(file->write("abc123"));
  }
  auto again = TokenFile::open(path, error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(again->read(), "abc123");
  again->clear();
  EXPECT_EQ(again->read(), "");
  EXPECT_EQ(std::filesystem::status(path).permissions() & std::filesystem::perms::others_read,
            std::filesystem::perms::none);
}

TEST(TokenFile, ASecondClientGetsTheNextSlot) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/t";
  std::string error;
  auto first = TokenFile::open(path, error);
  auto second = TokenFile::open(path, error);
  ASSERT_TRUE(first && second) << error;
  EXPECT_EQ(first->path(), path);
  EXPECT_EQ(second->path(), path + ".2");
  first->write("one");
  EXPECT_EQ(second->read(), "");
}

TEST(TokenFile, DefaultPathIsUnderTheConfigDir) {
  ::setenv("XDG_CONFIG_HOME", "/tmp/cfg", 1);
  EXPECT_EQ(default_token_path("example.org", 7777, "al ice/x"),
            "/tmp/cfg/ttt/tokens/example.org-7777-al_ice_x");
}

}  // namespace
}  // namespace ttt::client
