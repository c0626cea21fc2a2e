// Names nobody can counterfeit: the exact look-alikes measured on main (issue
// 14), and chat that can't hide or reorder what other players see.
#include "lobby/name_rules.hpp"

#include <gtest/gtest.h>

#include "lobby/text_rules.hpp"

namespace ttt::server {
namespace {

// Expects name to be refused with a reason that names the character.
void expect_refused(const std::string& name, const std::string& mentions) {
  const auto problem = name_problem(name);
  ASSERT_TRUE(problem.has_value()) << "accepted: " << name;
  EXPECT_NE(problem->find(mentions), std::string::npos) << *problem;
}

TEST(NameRules, RefusesAZeroWidthSpaceInsideAName) {
  expect_refused("ali\u200bce", "names can't contain U+200B (ZERO WIDTH SPACE): it is invisible");
}

TEST(NameRules, RefusesARightToLeftOverride) {
  expect_refused("\u202eecila", "U+202E (RIGHT-TO-LEFT OVERRIDE): it changes the direction");
}

TEST(NameRules, RefusesALoneZeroWidthSpace) { expect_refused("\u200b", "U+200B"); }

TEST(NameRules, RefusesEveryBidiControlAndFormatCharacter) {
  for (const char* name : {"a\u200eb", "a\u200fb", "a\u202ab", "a\u202cb", "a\u2066b", "a\u2069b",
                           "a\u061cb", "a\u200db", "a\u2060b", "a\ufeffb", "a\u00adb"}) {
    EXPECT_TRUE(name_problem(name).has_value()) << name;
  }
}

TEST(NameRules, RefusesOtherInvisibleCharacters) {
  expect_refused("\u3164", "U+3164 (HANGUL FILLER): it is invisible");
  expect_refused("ali\ufe0fce", "U+FE0F (VARIATION SELECTOR-16)");
  expect_refused("alice\U000E0100", "U+E0100");
  expect_refused("ali\u00a0ce", "U+00A0 (NO-BREAK SPACE): it is not the plain space");
  expect_refused("a\u2028b", "U+2028 (LINE SEPARATOR)");
  expect_refused("\ue000bob", "private-use");
}

TEST(NameRules, RefusesCombiningMarksWithoutALetter) {
  expect_refused("\u0301", "U+0301 (COMBINING ACUTE ACCENT) without a letter before it");
  expect_refused("\u0301alice", "without a letter before it");
  expect_refused("al \u0301ice", "without a letter before it");
}

TEST(NameRules, AcceptsNamesInAnyScript) {
  for (const char* name : {"alice", "Bob Smith", "Zoë", "Zoe\u0308", "Дмитрий", "山田", "José-Luis",
                           "player_1", "O'Brien", "नमस्ते", "bot"}) {
    EXPECT_EQ(name_problem(name), std::nullopt) << name;
  }
}

TEST(NameRules, KeepsTheOldLengthSpaceAndControlRules) {
  EXPECT_TRUE(name_problem("").has_value());
  EXPECT_TRUE(name_problem(std::string(kMaxNameBytes + 1, 'a')).has_value());
  EXPECT_FALSE(name_problem(std::string(kMaxNameBytes, 'a')).has_value());
  EXPECT_TRUE(name_problem(" alice").has_value());
  EXPECT_TRUE(name_problem("alice ").has_value());
  EXPECT_TRUE(name_problem("ali\nce").has_value());
  EXPECT_TRUE(name_problem("ali\x1b[31mce").has_value());
  EXPECT_TRUE(name_problem("\xff\xfe").has_value());
  EXPECT_TRUE(name_problem("a\xc2\x85").has_value());  // C1 control NEL
}

TEST(NameSkeleton, ACyrillicLookAlikeHasTheSameSkeleton) {
  EXPECT_EQ(name_skeleton("\u0430lice"), name_skeleton("alice"));
  EXPECT_EQ(name_skeleton("\u0430l\u0456c\u0435"), name_skeleton("alice"));  // а, і, е
}

TEST(NameSkeleton, CaseAndNormalisationDoNotMakeANewName) {
  EXPECT_EQ(name_skeleton("ALICE"), name_skeleton("alice"));
  EXPECT_EQ(name_skeleton("Zo\u00eb"), name_skeleton("Zoe\u0308"));  // NFC and NFD
  EXPECT_EQ(name_skeleton("pa\u0443pal"), name_skeleton("paypal"));  // Cyrillic у
  EXPECT_EQ(name_skeleton("rnary"), name_skeleton("mary"));          // rn looks like m
}

TEST(NameSkeleton, DifferentNamesStayDifferent) {
  EXPECT_NE(name_skeleton("alice"), name_skeleton("alicia"));
  EXPECT_NE(name_skeleton("bob"), name_skeleton("rob"));
  EXPECT_NE(name_skeleton("Дмитрий"), name_skeleton("Dmitri"));
}

TEST(NameSkeleton, TheServerBotsNamesAreReservedWhateverTheyLookLike) {
  for (const char* name : {"bot (hard)", "BOT (Perfect)", "b\u043et (hard)", "bot  (perfect)",
                           "b0t (perfect)", "bot\uff08perfect\uff09", "B0T(perfect)"}) {
    EXPECT_TRUE(imitates_a_bot(name)) << name;
  }
  for (const char* name : {"bot", "robot (x)", "botany", "abbot (x)"}) {
    EXPECT_FALSE(imitates_a_bot(name)) << name;
  }
}

TEST(NameSkeleton, LookAlikesThroughCaseAreOneName) {
  // A capital I looks like an l, a 0 like an O, Cherokee U+13DE like an L.
  for (const char* name : {"aIice", "ALlCE", "AL1CE", "a\u13DEice", "ALICE"}) {
    EXPECT_EQ(name_skeleton(name), name_skeleton("alice")) << name;
  }
  EXPECT_EQ(name_skeleton("B0B"), name_skeleton("bob"));
  EXPECT_EQ(name_skeleton("g00gle"), name_skeleton("google"));
  EXPECT_EQ(name_skeleton("moderat0r"), name_skeleton("moderator"));
  EXPECT_EQ(name_skeleton("two  spaces"), name_skeleton("two spaces"));
}

TEST(NameRules, RefusesMarksStackedOnOneLetter) {
  EXPECT_EQ(name_problem("Vi\u1EC7t"), std::nullopt) << "two marks (Vietnamese)";
  EXPECT_EQ(name_problem("e\u0302\u0301"), std::nullopt);
  std::string smear = "z";
  for (int i = 0; i < 13; ++i) smear += "\u0301";
  const auto problem = name_problem(smear);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("more than 2 combining marks on one letter"), std::string::npos)
      << *problem;
  EXPECT_TRUE(name_problem("a\u0300\u0301\u0302\u0303").has_value()) << "one composes";
}

TEST(NameNfc, ANewNameIsKeptInNfc) {
  EXPECT_EQ(nfc_name("Zoe\u0308"), "Zo\u00eb");
  EXPECT_EQ(nfc_name("alice"), "alice");
}

TEST(ChatRules, RefusesBidiControlsAndInvisibleCharacters) {
  for (const char* text : {"hello \u202eworld", "a\u2066b\u2069", "see\u200bthis", "\u200b",
                           "x\u2060y", "\ufeffhi", "a\u2028b", "a\u3164b", "\u200e", "gg\u200d"}) {
    const auto problem = chat_problem(text);
    ASSERT_TRUE(problem.has_value()) << text;
    EXPECT_NE(problem->find("U+"), std::string::npos) << *problem;
  }
  EXPECT_TRUE(chat_problem("bad\x1b[2J").has_value());
  EXPECT_TRUE(chat_problem("line\nbreak").has_value());
}

TEST(ChatRules, AcceptsOrdinaryTextAccentsAndEmoji) {
  for (const char* text : {"good game", "gg wp!", "Zoë says héllo", "Спасибо", "よろしく",
                           "\u2764\ufe0f", "\U0001f44d\U0001f3fd", "1\ufe0f\u20e3", "x\u0301"}) {
    EXPECT_EQ(chat_problem(text), std::nullopt) << text;
  }
  EXPECT_TRUE(chat_problem("\ufe0f").has_value()) << "a variation selector alone is invisible";
}

}  // namespace
}  // namespace ttt::server
