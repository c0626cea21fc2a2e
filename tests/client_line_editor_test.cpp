// The interactive line editor: typing, erasing, Enter, Ctrl-D and escapes.
#include <gtest/gtest.h>

#include "console/line_editor.hpp"
#include "console/terminal.hpp"

namespace ttt::client {
namespace {

TEST(LineEditor, EnterCompletesTheLine) {
  LineEditor editor;
  EXPECT_TRUE(editor.feed("b").lines.empty());
  EXPECT_EQ(editor.buffer(), "b");
  const auto result = editor.feed("2\r");
  ASSERT_EQ(result.lines.size(), 1u);
  EXPECT_EQ(result.lines[0], "b2");
  EXPECT_EQ(editor.buffer(), "");
}

TEST(LineEditor, CrLfIsOneEnterAndSeveralLinesMayArriveAtOnce) {
  LineEditor editor;
  const auto result = editor.feed("a1\r\nb2\nc3\r");
  EXPECT_EQ(result.lines, (std::vector<std::string>{"a1", "b2", "c3"}));
}

TEST(LineEditor, BackspaceErasesWholeCharacters) {
  LineEditor editor;
  editor.feed("b3\x7f");
  EXPECT_EQ(editor.buffer(), "b");
  editor.feed("caf\xc3\xa9\x7f");  // é is two bytes
  EXPECT_EQ(editor.buffer(), "bcaf");
  editor.feed("\x7f\x7f\x7f\x7f\x7f");
  EXPECT_EQ(editor.buffer(), "");
}

TEST(LineEditor, CtrlUAndCtrlWErase) {
  LineEditor editor;
  editor.feed("/say hello there\x17");
  EXPECT_EQ(editor.buffer(), "/say hello ");
  editor.feed("\x15");
  EXPECT_EQ(editor.buffer(), "");
}

TEST(LineEditor, ArrowKeysAreSwallowed) {
  LineEditor editor;
  editor.feed("b\x1b[A\x1b[D2\x1bOB");
  EXPECT_EQ(editor.buffer(), "b2");
}

TEST(LineEditor, CtrlDEndsInputOnlyOnAnEmptyLine) {
  LineEditor editor;
  EXPECT_FALSE(editor.feed("b\x04").eof);
  editor.feed("\x15");
  EXPECT_TRUE(editor.feed("\x04").eof);
}

TEST(Terminal, ColourOnlyOnATerminalWithoutNoColor) {
  EXPECT_TRUE(use_color(ColorChoice::Auto, true, nullptr));
  EXPECT_TRUE(use_color(ColorChoice::Auto, true, ""));
  EXPECT_FALSE(use_color(ColorChoice::Auto, true, "1"));
  EXPECT_FALSE(use_color(ColorChoice::Auto, false, nullptr));
  EXPECT_TRUE(use_color(ColorChoice::Always, false, nullptr));
  EXPECT_TRUE(use_color(ColorChoice::Always, true, ""));
  EXPECT_FALSE(use_color(ColorChoice::Never, true, nullptr));
}

TEST(Terminal, NoColorWinsOverColorAlways) {
  EXPECT_FALSE(use_color(ColorChoice::Always, true, "1"));
  EXPECT_FALSE(use_color(ColorChoice::Always, false, "yes"));
  EXPECT_FALSE(use_color(ColorChoice::Never, true, "1"));
}

}  // namespace
}  // namespace ttt::client
