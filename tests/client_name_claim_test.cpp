// Default identities: claimed by one process at a time, the lowest free one
// reused by later runs; and secrets written whole however many write at once.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "client_support/child_process.hpp"
#include "identity/name_claim.hpp"
#include "identity/player_secret.hpp"

namespace ttt::client {
namespace {

namespace fs = std::filesystem;

// XDG_CONFIG_HOME pointed at a fresh directory for one test, put back after.
class ConfigDir {
 public:
  ConfigDir() {
    if (const char* old = std::getenv("XDG_CONFIG_HOME")) old_ = old;
    ::setenv("XDG_CONFIG_HOME", dir_.path().c_str(), 1);
  }
  ~ConfigDir() {
    if (old_) {
      ::setenv("XDG_CONFIG_HOME", old_->c_str(), 1);
    } else {
      ::unsetenv("XDG_CONFIG_HOME");
    }
  }
  std::string locks() const { return dir_.path() + "/ttt/locks"; }

 private:
  testing::TempDir dir_;
  std::optional<std::string> old_;
};

std::size_t files_in(const std::string& folder) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); ++it)
    ++n;
  return n;
}

TEST(DefaultName, NumbersFollowTheBase) {
  EXPECT_EQ(default_name("bot", 1), "bot");
  EXPECT_EQ(default_name("bot", 2), "bot2");
  EXPECT_EQ(default_name("alice", 12), "alice12");
}

TEST(DefaultName, EachClaimGetsTheLowestNameNobodyHolds) {
  ConfigDir config;
  std::string warning;
  ClaimedName first = claim_default_name("example.org", 7777, "bot", warning);
  ClaimedName second = claim_default_name("example.org", 7777, "bot", warning);
  ClaimedName third = claim_default_name("example.org", 7777, "bot", warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(first.name, "bot");
  EXPECT_EQ(second.name, "bot2");
  EXPECT_EQ(third.name, "bot3");
  ASSERT_TRUE(first.claim && second.claim && third.claim);

  second.claim.reset();  // that program ended: its name is free for the next one
  EXPECT_EQ(claim_default_name("example.org", 7777, "bot", warning).name, "bot2");
  // The next after that is bot2 again (the claim above was released at once).
  ClaimedName again = claim_default_name("example.org", 7777, "bot", warning);
  EXPECT_EQ(again.name, "bot2");
}

TEST(DefaultName, ClaimsAreKeptPerServer) {
  ConfigDir config;
  std::string warning;
  ClaimedName here = claim_default_name("example.org", 7777, "bot", warning);
  ClaimedName there = claim_default_name("example.org", 7778, "bot", warning);
  EXPECT_EQ(here.name, "bot");
  EXPECT_EQ(there.name, "bot");
}

TEST(DefaultName, AReleasedClaimLeavesNoFileBehind) {
  ConfigDir config;
  std::string warning;
  {
    ClaimedName a = claim_default_name("example.org", 7777, "bot", warning);
    ClaimedName b = claim_default_name("example.org", 7777, "bot", warning);
    EXPECT_EQ(files_in(config.locks()), 2u);
    struct stat info {};
    ASSERT_EQ(::stat(config.locks().c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
  }
  EXPECT_EQ(files_in(config.locks()), 0u);
}

TEST(DefaultName, AnExplicitNameHeldByUsKeepsDefaultsOffIt) {
  ConfigDir config;
  auto held = claim_if_free("example.org", 7777, "bot");
  ASSERT_TRUE(held);
  EXPECT_FALSE(claim_if_free("example.org", 7777, "bot")) << "held already";
  std::string warning;
  EXPECT_EQ(claim_default_name("example.org", 7777, "bot", warning).name, "bot2");
}

TEST(DefaultName, WithoutAConfigDirTheNameIsThisProcesssAlone) {
  std::optional<std::string> home, xdg;
  if (const char* h = std::getenv("HOME")) home = h;
  if (const char* x = std::getenv("XDG_CONFIG_HOME")) xdg = x;
  ::unsetenv("HOME");
  ::unsetenv("XDG_CONFIG_HOME");
  std::string warning;
  ClaimedName claimed = claim_default_name("example.org", 7777, "bot", warning);
  if (home) ::setenv("HOME", home->c_str(), 1);
  if (xdg) ::setenv("XDG_CONFIG_HOME", xdg->c_str(), 1);
  EXPECT_EQ(claimed.name, "bot-p" + std::to_string(::getpid()));
  EXPECT_FALSE(claimed.claim);
  EXPECT_NE(warning.find("no config dir"), std::string::npos) << warning;
}

TEST(DefaultName, ALockFolderThatCantBeMadeIsAWarningNotAFailure) {
  ConfigDir config;
  const std::string blocker = std::string(std::getenv("XDG_CONFIG_HOME")) + "/ttt";
  { std::ofstream(blocker) << "a file where the folder should be"; }
  std::string warning;
  ClaimedName claimed = claim_default_name("example.org", 7777, "bot", warning);
  EXPECT_EQ(claimed.name, "bot-p" + std::to_string(::getpid()));
  EXPECT_NE(warning.find(blocker), std::string::npos) << warning;
}

TEST(SecretFile, WritersAtOnceNeverMixTheirSecretsAndLeaveNoTemporaryFiles) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/secrets/example.org-7777-bot";
  std::vector<std::string> secrets;
  for (int i = 0; i < 6; ++i) secrets.push_back(std::string(40, static_cast<char>('a' + i)));
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (const std::string& secret : secrets) {
    writers.emplace_back([&path, &failures, secret] {
      for (int k = 0; k < 50; ++k) {
        std::string error;
        if (!save_secret(path, secret, error)) ++failures;
      }
    });
  }
  for (auto& w : writers) w.join();
  EXPECT_EQ(failures, 0);
  const std::string kept = read_secret(path);
  EXPECT_TRUE(std::find(secrets.begin(), secrets.end(), kept) != secrets.end()) << kept;
  EXPECT_EQ(files_in(dir.path() + "/secrets"), 1u);
  EXPECT_EQ(fs::status(path).permissions() & (fs::perms::group_all | fs::perms::others_all),
            fs::perms::none);
}

}  // namespace
}  // namespace ttt::client
