// The one function every string from a server passes before it is shown or
// logged, over every class of character a hostile server could send, with
// the exact text that comes out; and the display widths it is cut by.
#include <gtest/gtest.h>

#include <string>

#include "text/display_width.hpp"
#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

using namespace std::string_literals;

constexpr std::size_t kWide = 1000;  // wide enough not to cut
const std::string kFffd = "\xef\xbf\xbd";
const std::string kEllipsis = "\xe2\x80\xa6";

std::string safe(const std::string& raw, std::size_t width = kWide) {
  return safe_text(raw, width);
}

TEST(SafeText, KeepsPrintableTextAsItIs) {
  EXPECT_EQ(safe("alice"), "alice");
  EXPECT_EQ(safe("bot (hard)"), "bot (hard)");
  EXPECT_EQ(safe(" !\"#$%&'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~"),
            " !\"#$%&'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~");
  EXPECT_EQ(safe("Jos\xc3\xa9 M\xc3\xbcller"), "Jos\xc3\xa9 M\xc3\xbcller");  // José Müller
  EXPECT_EQ(safe("\xce\x91\xce\xbb\xcf\x86\xce\xb1"), "\xce\x91\xce\xbb\xcf\x86\xce\xb1");  // Αλφα
  EXPECT_EQ(safe(""), "");
}

TEST(SafeText, ShowsC0ControlsInCaretNotation) {
  EXPECT_EQ(safe("a\0b"s), "a^@b");
  EXPECT_EQ(safe("\x01\x02\x03"), "^A^B^C");
  EXPECT_EQ(safe("ding\x07"), "ding^G");
  EXPECT_EQ(safe("back\x08space"), "back^Hspace");
  EXPECT_EQ(safe("tab\there"), "tab^Ihere");
  EXPECT_EQ(safe("one\ntwo"), "one^Jtwo");
  EXPECT_EQ(safe("over\rwrite"), "over^Mwrite");
  EXPECT_EQ(safe("\x0b\x0c\x0e\x0f"), "^K^L^N^O");
  EXPECT_EQ(safe("\x1a\x1c\x1d\x1e\x1f"), "^Z^\\^]^^^_");
  EXPECT_EQ(safe("\x1b"), "^[");
}

TEST(SafeText, ShowsDelInCaretNotation) { EXPECT_EQ(safe("rub\x7fout"), "rub^?out"); }

TEST(SafeText, TurnsEscapeSequencesIntoPlainText) {
  // CSI: erase the screen, colours, cursor moves.
  EXPECT_EQ(safe("\x1b[2J\x1b[H"), "^[[2J^[[H");
  EXPECT_EQ(safe("\x1b[31mEVIL\x1b[0m"), "^[[31mEVIL^[[0m");
  EXPECT_EQ(safe("\x1b[1A\x1b[2K"), "^[[1A^[[2K");
  // OSC: the window title (ended by BEL or by ST), the clipboard (OSC 52), a hyperlink.
  EXPECT_EQ(safe("\x1b]0;PWNED-TITLE\x07"), "^[]0;PWNED-TITLE^G");
  EXPECT_EQ(safe("\x1b]2;title\x1b\\"), "^[]2;title^[\\");
  EXPECT_EQ(safe("\x1b]52;c;cm0gLXJmIH4=\x07"), "^[]52;c;cm0gLXJmIH4=^G");
  EXPECT_EQ(safe("\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\"), "^[]8;;http://x/^[\\link^[]8;;^[\\");
  // DCS, and the other string controls (SOS, PM, APC).
  EXPECT_EQ(safe("\x1bPq#0;2;0;0;0\x1b\\"), "^[Pq#0;2;0;0;0^[\\");
  EXPECT_EQ(safe("\x1bX\x1b^\x1b_x\x1b\\"), "^[X^[^^[_x^[\\");
  // Two-byte escapes: reset, save and restore the cursor, charsets.
  EXPECT_EQ(safe("\x1b"
                 "c\x1b"
                 "7\x1b"
                 "8\x1b(0"),
            "^[c^[7^[8^[(0");
}

TEST(SafeText, MakesTheIssuesHostileNameHarmless) {
  const std::string name =
      "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[31mEVIL\x1b[0m\xe2\x80\xae"
      "esrever";
  EXPECT_EQ(safe(name), "^[]0;PWNED-TITLE^G^[[2J^[[31mEVIL^[[0m<U+202E>esrever");
}

TEST(SafeText, MarksC1Controls) {
  EXPECT_EQ(safe("\xc2\x80"), "<U+0080>");
  EXPECT_EQ(safe("\xc2\x85"), "<U+0085>");                    // NEL
  EXPECT_EQ(safe("\xc2\x90q\xc2\x9c"), "<U+0090>q<U+009C>");  // DCS ... ST
  EXPECT_EQ(safe("\xc2\x9b"
                 "2J"),
            "<U+009B>2J");  // CSI
  EXPECT_EQ(safe("\xc2\x9d"
                 "0;t\xc2\x9c"),
            "<U+009D>0;t<U+009C>");  // OSC ... ST
  EXPECT_EQ(safe("\xc2\x9f"), "<U+009F>");
}

TEST(SafeText, MarksEveryBidiControl) {
  EXPECT_EQ(safe("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae"),
            "<U+202A><U+202B><U+202C><U+202D><U+202E>");
  EXPECT_EQ(safe("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9"),
            "<U+2066><U+2067><U+2068><U+2069>");
  EXPECT_EQ(safe("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "<U+200E><U+200F><U+061C>");
  EXPECT_EQ(safe("abc\xe2\x80\xae"
                 "fed"),
            "abc<U+202E>fed");
}

TEST(SafeText, MarksOtherInvisibleCharacters) {
  EXPECT_EQ(safe("al\xe2\x80\x8bice"), "al<U+200B>ice");  // zero-width space
  EXPECT_EQ(safe("a\xe2\x80\x8c\xe2\x80\x8d"
                 "b"),
            "a<U+200C><U+200D>b");  // ZWNJ, ZWJ
  EXPECT_EQ(safe("\xef\xbb\xbf"
                 "bom"),
            "<U+FEFF>bom");
  EXPECT_EQ(safe("soft\xc2\xad"
                 "hyphen"),
            "soft<U+00AD>hyphen");
  EXPECT_EQ(safe("word\xe2\x81\xa0joiner\xe2\x81\xa4"), "word<U+2060>joiner<U+2064>");
  EXPECT_EQ(safe("\xf3\xa0\x80\x81\xf3\xa0\x81\x81"), "<U+E0001><U+E0041>");  // tags
  EXPECT_EQ(safe("\xe3\x85\xa4"), "<U+3164>");  // Hangul filler: looks like nothing
  EXPECT_EQ(safe("\xe1\x85\x9f\xef\xbe\xa0"), "<U+115F><U+FFA0>");
  EXPECT_EQ(safe("a\xe2\x80\xa8"
                 "b\xe2\x80\xa9"),
            "a<U+2028>b<U+2029>");  // line, paragraph
}

TEST(SafeText, MarksUnassignedCodePointsAndNoncharacters) {
  EXPECT_EQ(safe("\xcd\xb8"), "<U+0378>");
  EXPECT_EQ(safe("\xef\xb7\x90\xef\xbf\xbe\xef\xbf\xbf"), "<U+FDD0><U+FFFE><U+FFFF>");
  EXPECT_EQ(safe("\xf4\x8f\xbf\xbf"), "<U+10FFFF>");
}

TEST(SafeText, RepairsInvalidUtf8WithOneReplacementPerMaximalSubpart) {
  EXPECT_EQ(safe("\xff"), kFffd);
  EXPECT_EQ(safe("a\x9b"
                 "2J"),
            "a" + kFffd + "2J");   // a lone 8-bit CSI byte
  EXPECT_EQ(safe("\xc3"), kFffd);  // cut short at the end
  EXPECT_EQ(safe("\xe2\x82"
                 "a"),
            kFffd + "a");                                              // cut short inside
  EXPECT_EQ(safe("\xc0\xaf"), kFffd + kFffd);                          // overlong '/'
  EXPECT_EQ(safe("\xed\xa0\x80"), kFffd + kFffd + kFffd);              // a surrogate
  EXPECT_EQ(safe("\xf4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // past U+10FFFF
  EXPECT_EQ(safe("\x80\xbf"), kFffd + kFffd);                          // lone continuation bytes
}

TEST(SafeText, KeepsWideCharactersAndCombiningMarks) {
  EXPECT_EQ(safe("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"), "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");
  EXPECT_EQ(safe("\xf0\x9f\x8e\x89"), "\xf0\x9f\x8e\x89");                  // an emoji
  EXPECT_EQ(safe("e\xcc\x81"), "e\xcc\x81");                                // e + combining acute
  EXPECT_EQ(safe("\xe2\x9d\xa4\xef\xb8\x8f"), "\xe2\x9d\xa4\xef\xb8\x8f");  // with VS16
  EXPECT_EQ(safe("\xea\xb0\x80"), "\xea\xb0\x80");                          // Hangul syllable
}

TEST(SafeText, DropsCombiningMarksPastTheLimit) {
  std::string zalgo = "a";
  for (int i = 0; i < 50; ++i) zalgo += "\xcc\x81";
  std::string kept = "a";
  for (std::size_t i = 0; i < kMaxCombiningMarks; ++i) kept += "\xcc\x81";
  EXPECT_EQ(safe(zalgo + "b"), kept + "b");
}

TEST(SafeText, CutsToTheWidthWithAnEllipsis) {
  EXPECT_EQ(safe("abcdefghij", 5), "abcd" + kEllipsis);
  EXPECT_EQ(safe("abcde", 5), "abcde");  // fits exactly: whole
  EXPECT_EQ(safe("abcdef", 1), kEllipsis);
  EXPECT_EQ(safe("ab", 0), kEllipsis) << "a width under 1 counts as 1";
  EXPECT_EQ(display_width(safe(std::string(100, 'x'), field_width::kName)), field_width::kName);
}

TEST(SafeText, CutsWideCharactersWhole) {
  const std::string japanese =
      "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86";  // 日本語テ, 8 columns
  EXPECT_EQ(safe(japanese, 8), japanese);
  EXPECT_EQ(safe(japanese, 6), "\xe6\x97\xa5\xe6\x9c\xac" + kEllipsis);  // 日本… (5 columns)
  EXPECT_EQ(safe(japanese, 5), "\xe6\x97\xa5\xe6\x9c\xac" + kEllipsis);
  EXPECT_EQ(safe(japanese, 4), "\xe6\x97\xa5" + kEllipsis);
}

TEST(SafeText, NeverCutsInsideAVisibleFormOrACharactersMarks) {
  EXPECT_EQ(safe("ab\x1b[31m", 4), "ab" + kEllipsis);
  EXPECT_EQ(safe("ab\x1b", 4), "ab^[");
  EXPECT_EQ(safe("\xe2\x80\xae"
                 "abc",
                 5),
            kEllipsis);
  EXPECT_EQ(safe("xe\xcc\x81yz", 3), "xe\xcc\x81" + kEllipsis);
}

TEST(SafeText, CutsHugeTextQuickly) {
  const std::string huge(4 << 20, 'A');
  EXPECT_EQ(safe(huge, 10), "AAAAAAAAA" + kEllipsis);
  EXPECT_EQ(safe(std::string(1 << 20, '\n'), 6), "^J^J" + kEllipsis);
}

TEST(SafeText, IsIdempotent) {
  for (const std::string& raw :
       {"\x1b]0;t\x07\x1b[2J"s, "\xe2\x80\xae\xe2\x80\x8b"s, "\xff\xc3"s, "abcdefghij"s,
        "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"s, "a\0b\x7f"s, "\xc2\x9b"s}) {
    for (const std::size_t width : {std::size_t{3}, std::size_t{7}, kWide}) {
      const std::string once = safe(raw, width);
      EXPECT_EQ(safe(once, width), once) << raw;
      EXPECT_LE(display_width(once), width);
    }
  }
}

TEST(DisplayWidth, CountsColumns) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("\xe6\x97\xa5\xe6\x9c\xac"), 4u);  // 日本
  EXPECT_EQ(display_width("\xef\xbc\xa1"), 2u);              // fullwidth A
  EXPECT_EQ(display_width("e\xcc\x81"), 1u);                 // é as e + mark
  EXPECT_EQ(display_width("\xf0\x9f\x8e\x89"), 2u);          // emoji
  EXPECT_EQ(display_width("\xe1\x84\x80\xe1\x85\xa1"), 2u);  // conjoining jamo: one syllable
  EXPECT_EQ(display_width(kEllipsis), 1u);
  EXPECT_EQ(display_width(""), 0u);
}

TEST(DisplayWidth, PadsByColumnsNotBytes) {
  EXPECT_EQ(pad_right("ab", 5), "ab   ");
  EXPECT_EQ(pad_right("\xe6\x97\xa5", 5), "\xe6\x97\xa5   ");
  EXPECT_EQ(pad_right("toolong", 3), "toolong");
  EXPECT_EQ(pad_left("7", 3), "  7");
  EXPECT_EQ(pad_left("\xe6\x97\xa5", 3), " \xe6\x97\xa5");
}

TEST(DisplayWidth, CountsScreenRowsOfWrappedLines) {
  EXPECT_EQ(screen_rows("a\nb\n", 80), 2u);
  EXPECT_EQ(screen_rows("a\n\nb", 80), 3u);
  EXPECT_EQ(screen_rows(std::string(81, 'x'), 80), 2u);
  EXPECT_EQ(screen_rows(std::string(160, 'x') + "\n", 80), 2u);
  EXPECT_EQ(screen_rows("", 80), 0u);
  EXPECT_EQ(screen_rows("abc", 0), 1u);
}

TEST(DisplayWidth, TellsAUtf8LocaleFromTheEnvironment) {
  EXPECT_TRUE(locale_is_utf8(nullptr, nullptr, "en_US.UTF-8"));
  EXPECT_TRUE(locale_is_utf8(nullptr, nullptr, "C.utf8"));
  EXPECT_TRUE(locale_is_utf8(nullptr, "de_DE.utf-8@euro", nullptr));
  EXPECT_TRUE(locale_is_utf8("", "", "en_GB.UTF-8")) << "empty values are unset";
  EXPECT_FALSE(locale_is_utf8("C", nullptr, "en_US.UTF-8")) << "LC_ALL wins";
  EXPECT_FALSE(locale_is_utf8(nullptr, nullptr, "en_US.ISO-8859-1"));
  EXPECT_FALSE(locale_is_utf8(nullptr, nullptr, "en_US"));
  EXPECT_FALSE(locale_is_utf8(nullptr, nullptr, "POSIX"));
  EXPECT_FALSE(locale_is_utf8(nullptr, nullptr, nullptr));
  EXPECT_FALSE(locale_is_utf8(nullptr, nullptr, "x.utf88"));
}

TEST(DisplayWidth, FallsBackToAsciiAsWideAsTheText) {
  EXPECT_EQ(ascii_fallback("plain ^[[2J"), "plain ^[[2J");
  EXPECT_EQ(ascii_fallback("Jos\xc3\xa9"), "Jos?");
  EXPECT_EQ(ascii_fallback("\xe6\x97\xa5."), "??.");
  EXPECT_EQ(ascii_fallback("e\xcc\x81"), "e");
  EXPECT_EQ(ascii_fallback("ab" + kEllipsis), "ab.");
  EXPECT_EQ(ascii_fallback("\xc3\x9b"
                           "2J"),
            "?2J")
      << "no byte of UTF-8 is left to act as 8-bit CSI";
  EXPECT_EQ(ascii_fallback("\xff"), "?");
}

}  // namespace
}  // namespace ttt::client
