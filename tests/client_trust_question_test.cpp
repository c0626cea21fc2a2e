// TrustQuestion: a server seen for the first time is asked about once on a
// terminal and refused, with how to pin it, without one.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "console/trust_question.hpp"

namespace ttt::client {
namespace {

constexpr const char* kWhere = "example.org:7777";
constexpr const char* kFingerprint = "SHA256:abcd";

class TrustQuestionTest : public ::testing::Test {
 protected:
  std::function<void(const std::string&)> say() {
    return [this](const std::string& line) { said_.push_back(line); };
  }
  std::function<void(bool)> answer() {
    return [this](bool yes) { answer_ = yes; };
  }
  std::string all_said() const {
    std::string text;
    for (const std::string& line : said_) text += line + "\n";
    return text;
  }

  TrustQuestion question_;
  std::vector<std::string> said_;
  std::optional<bool> answer_;
};

TEST_F(TrustQuestionTest, WithoutATerminalTheAnswerIsNoWithHowToPinTheServer) {
  question_.ask(false, kWhere, kFingerprint, "/home/a/.config/ttt/known_servers", say(), answer());
  EXPECT_EQ(answer_, false);
  EXPECT_FALSE(question_.waiting());
  EXPECT_TRUE(said_.empty()) << "nobody to ask";
  EXPECT_NE(question_.refusal().find("--fingerprint SHA256:abcd"), std::string::npos)
      << question_.refusal();
  EXPECT_FALSE(question_.take("yes", say())) << "a line is not an answer to nothing";
}

TEST_F(TrustQuestionTest, OnATerminalTheFingerprintIsShownAndYesTrustsIt) {
  question_.ask(true, kWhere, kFingerprint, "/home/a/.config/ttt/known_servers", say(), answer());
  EXPECT_TRUE(question_.waiting());
  EXPECT_FALSE(answer_.has_value());
  const std::string asked = all_said();
  EXPECT_NE(asked.find("Its fingerprint is SHA256:abcd."), std::string::npos) << asked;
  EXPECT_NE(asked.find("(remembered in /home/a/.config/ttt/known_servers)? Type yes or no:"),
            std::string::npos)
      << asked;
  EXPECT_TRUE(question_.take(" Yes ", say()));
  EXPECT_EQ(answer_, true);
  EXPECT_FALSE(question_.waiting());
  EXPECT_EQ(question_.refusal(), "");
  EXPECT_FALSE(question_.take("a1", say())) << "lines after the answer are the game's";
}

TEST_F(TrustQuestionTest, AnythingButYesOrNoIsAskedAgain) {
  question_.ask(true, kWhere, kFingerprint, "", say(), answer());
  said_.clear();
  EXPECT_TRUE(question_.take("maybe", say()));
  EXPECT_FALSE(answer_.has_value());
  ASSERT_EQ(said_.size(), 1u);
  EXPECT_EQ(said_[0], "Please type yes or no: trust the server at example.org:7777 (SHA256:abcd)?");
  EXPECT_TRUE(question_.waiting());
}

TEST_F(TrustQuestionTest, NoRefusesAndSaysNothingWasSent) {
  question_.ask(true, kWhere, kFingerprint, "", say(), answer());
  EXPECT_TRUE(question_.take("n", say()));
  EXPECT_EQ(answer_, false);
  EXPECT_NE(question_.refusal().find("nothing was sent to it"), std::string::npos)
      << question_.refusal();
}

}  // namespace
}  // namespace ttt::client
