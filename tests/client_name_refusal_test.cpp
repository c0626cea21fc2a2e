// What the clients say when the server refuses the player's name.
#include <gtest/gtest.h>

#include "identity/name_refusal.hpp"

namespace ttt::client {
namespace {

NameRefusal refusal_of(const std::string& name) {
  NameRefusal r;
  r.name = name;
  r.server = "192.0.2.10:7777";
  r.secret_path = "/home/alice/.config/ttt/secrets/192.0.2.10-7777-alice";
  r.secret_flag = "--secret-file";
  return r;
}

TEST(NameRefusal, WithoutASecretItSaysWhereTheSecretWasLookedFor) {
  EXPECT_EQ(name_refusal_text(refusal_of("alice")),
            "the name 'alice' on 192.0.2.10:7777 belongs to someone else: it is held by a secret "
            "that is not on this account (nothing in "
            "/home/alice/.config/ttt/secrets/192.0.2.10-7777-alice).\n"
            "Choose another name with --name NAME; or, if the name is yours, copy its secret file "
            "from where you first used it to /home/alice/.config/ttt/secrets/192.0.2.10-7777-alice "
            "(or point --secret-file at it).");
}

TEST(NameRefusal, AWrongSecretIsNamedAsWrong) {
  NameRefusal r = refusal_of("alice");
  r.had_secret = true;
  r.secret_flag.clear();  // ttt-bot has no such flag
  const std::string text = name_refusal_text(r);
  EXPECT_NE(text.find("belongs to someone else: the secret in "
                      "/home/alice/.config/ttt/secrets/192.0.2.10-7777-alice is not the one the "
                      "server gave with it."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("--secret-file"), std::string::npos) << text;
  EXPECT_NE(text.find("--name NAME"), std::string::npos) << text;
}

TEST(NameRefusal, ServerBotNamesAreNeverSomeonesToTake) {
  const std::string text = name_refusal_text(refusal_of("Bot (perfect)"));
  EXPECT_EQ(text,
            "the name 'Bot (perfect)' is not yours to take: names beginning with \"bot (\" belong "
            "to the server's bots.\nChoose another name with --name NAME.");
}

}  // namespace
}  // namespace ttt::client
