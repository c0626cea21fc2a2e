#include "lobby/name_rules.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <cstdio>
#include <map>
#include <stdexcept>

#include "lobby/text_rules.hpp"

namespace ttt::server {
namespace {

// "U+202E (RIGHT-TO-LEFT OVERRIDE)": how an error names a character.
std::string describe(UChar32 c) {
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
  char name[128];
  UErrorCode status = U_ZERO_ERROR;
  const int32_t length = u_charName(c, U_UNICODE_CHAR_NAME, name, sizeof name, &status);
  if (U_FAILURE(status) || length <= 0) return code;
  return std::string(code) + " (" + std::string(name, static_cast<std::size_t>(length)) + ")";
}

bool is_mark(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }

// Why c can't be shown to other players as part of some text, where nobody
// could see it or it would change how the text around it is shown.
std::optional<std::string> invisible_problem(UChar32 c) {
  if (u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL)) {
    return describe(c) + ": it changes the direction text is shown in";
  }
  if (u_charType(c) == U_FORMAT_CHAR ||
      u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
    return describe(c) + ": it is invisible";
  }
  const auto type = u_charType(c);
  if (type == U_LINE_SEPARATOR || type == U_PARAGRAPH_SEPARATOR) {
    return describe(c) + ": it breaks the line";
  }
  return std::nullopt;
}

// Calls each(code point, index) for every code point of well-formed UTF-8
// until it returns a problem.
template <typename Each>
std::optional<std::string> for_each_code_point(std::string_view text, Each each) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  UChar32 previous = U_SENTINEL;
  for (int32_t i = 0; i < length;) {
    UChar32 c = 0;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) return "it is not well-formed UTF-8";
    if (auto problem = each(c, previous)) return problem;
    previous = c;
  }
  return std::nullopt;
}

icu::UnicodeString folded_nfc(std::string_view text) {
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  s.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU has no NFC data");
  icu::UnicodeString normal = nfc->normalize(s, status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU could not normalise a name");
  return normal;
}

// The most combining marks one letter may carry (Vietnamese needs two).
constexpr int kMaxMarks = 2;

// The spoof checker is configured once and only read afterwards, which ICU
// allows from any thread.
const USpoofChecker& spoof_checker() {
  static USpoofChecker* checker = [] {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker* c = uspoof_open(&status);
    if (U_FAILURE(status)) throw std::runtime_error("ICU has no confusables data");
    return c;
  }();
  return *checker;
}

icu::UnicodeString skeleton_of(const icu::UnicodeString& text) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString skeleton;
  uspoof_getSkeletonUnicodeString(&spoof_checker(), 0, text, skeleton, &status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU could not compute a name's skeleton");
  return skeleton;
}

icu::UnicodeString folded(icu::UnicodeString s) {
  s.foldCase();
  return s;
}

// The key's first step, for a case-folded NFC text: its skeleton, case-folded
// again (a skeleton can hold capitals: U+13DE's is "L").
icu::UnicodeString folded_skeleton(const icu::UnicodeString& folded_text) {
  return folded(skeleton_of(folded_text));
}

// Latin letters that look alike in one case only: a capital I is an l, so
// "aIice" looks like "alice", while case folding makes the I an i. Every
// capital A-Z whose look-alike (its skeleton) differs from its folded
// letter's joins the two: i and l are one letter to the key. (Other
// scripts' capitals would join letters that look nothing alike through
// their small forms.) Built once from ICU's data, read-only afterwards.
class CaseLookAlikes {
 public:
  CaseLookAlikes() {
    for (UChar32 c = 'A'; c <= 'Z'; ++c) {
      const icu::UnicodeString letter(c);
      const icu::UnicodeString as_folded = folded_skeleton(folded(letter));
      const icu::UnicodeString as_written = folded(skeleton_of(letter));
      if (as_folded == as_written || as_folded.countChar32() != 1 ||
          as_written.countChar32() != 1 || as_folded.char32At(0) > 0x7F ||
          as_written.char32At(0) > 0x7F) {
        continue;
      }
      join(as_folded.char32At(0), as_written.char32At(0));
    }
  }
  // The one code point standing for c and its look-alikes.
  UChar32 of(UChar32 c) const {
    for (auto it = parent_.find(c); it != parent_.end() && it->second != c; it = parent_.find(c)) {
      c = it->second;
    }
    return c;
  }

 private:
  void join(UChar32 a, UChar32 b) {
    a = of(a);
    b = of(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    parent_[a] = a;
    parent_[b] = a;  // the smaller stands for both
  }
  std::map<UChar32, UChar32> parent_;
};

const CaseLookAlikes& case_look_alikes() {
  static const CaseLookAlikes table;
  return table;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
  const std::string rule = "a name is 1 to " + std::to_string(kMaxNameBytes) +
                           " bytes of printable text without leading or trailing spaces";
  if (name.empty() || name.size() > kMaxNameBytes) return rule;
  if (!is_printable_utf8(name)) return rule + ": this one has control characters or is not UTF-8";
  if (name.front() == ' ' || name.back() == ' ') return rule;
  auto problem =
      for_each_code_point(name, [](UChar32 c, UChar32 previous) -> std::optional<std::string> {
        if (auto invisible = invisible_problem(c)) return invisible;
        if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) {
          return describe(c) + ": it is a variation selector";
        }
        const auto type = u_charType(c);
        if (type == U_SPACE_SEPARATOR && c != ' ')
          return describe(c) + ": it is not the plain space";
        if (type == U_UNASSIGNED || type == U_PRIVATE_USE_CHAR) {
          return describe(c) + ": it is unassigned or private-use";
        }
        if (is_mark(c) && (previous == U_SENTINEL || previous == ' ')) {
          return describe(c) + " without a letter before it";
        }
        return std::nullopt;
      });
  if (problem) return "names can't contain " + *problem;
  // Marks stacked on one letter (a dozen make a smear over the names
  // around): at most kMaxMarks once composed.
  int marks = 0;
  auto stacked =
      for_each_code_point(nfc_name(name), [&](UChar32 c, UChar32) -> std::optional<std::string> {
        marks = is_mark(c) ? marks + 1 : 0;
        if (marks > kMaxMarks) {
          return "names can't stack more than " + std::to_string(kMaxMarks) +
                 " combining marks on one letter (" + describe(c) + " is one more)";
        }
        return std::nullopt;
      });
  return stacked;
}

std::string nfc_name(std::string_view name) {
  icu::UnicodeString s = icu::UnicodeString::fromUTF8(
      icu::StringPiece(name.data(), static_cast<int32_t>(name.size())));
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU has no NFC data");
  std::string out;
  nfc->normalize(s, status).toUTF8String(out);
  if (U_FAILURE(status)) throw std::runtime_error("ICU could not normalise a name");
  return out;
}

namespace {

// The compatibility form, case-folded (NFKC_Casefold): fullwidth "（ａ）" is
// "(a)", a ligature its letters.
icu::UnicodeString nfkc_folded(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU has no NFKC_Casefold data");
  icu::UnicodeString normal =
      nfkc_cf->normalize(icu::UnicodeString::fromUTF8(
                             icu::StringPiece(text.data(), static_cast<int32_t>(text.size()))),
                         status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU could not normalise a name");
  return normal;
}

}  // namespace

std::string name_skeleton(std::string_view name) {
  const icu::UnicodeString skeleton = folded_skeleton(nfkc_folded(name));
  // Each letter by the one standing for its look-alikes in either case, and
  // a run of spaces as one space.
  const CaseLookAlikes& alike = case_look_alikes();
  icu::UnicodeString key;
  bool space = false;
  for (int32_t i = 0; i < skeleton.length();) {
    const UChar32 c = skeleton.char32At(i);
    i += U16_LENGTH(c);
    if (c == ' ' && space) continue;
    space = c == ' ';
    key.append(alike.of(c));
  }
  std::string out;
  key.toUTF8String(out);
  return out;
}

bool imitates_a_bot(std::string_view name) {
  // The key without its spaces: "bot(hard)", "b0t  (hard)" and
  // "bot（hard）" all read as a bot's name.
  static const std::string prefix = [] {
    std::string key = name_skeleton("bot(");
    std::erase(key, ' ');
    return key;
  }();
  std::string key = name_skeleton(name);
  std::erase(key, ' ');
  return key.starts_with(prefix);
}

std::string name_taken_text(std::string_view asked, std::string_view owner) {
  if (folded_nfc(asked) == folded_nfc(owner)) {
    return "the name '" + std::string(owner) +
           "' belongs to another player: give its secret, or choose another name";
  }
  return "the name '" + std::string(asked) + "' looks like '" + std::string(owner) +
         "', which belongs to another player: choose another name";
}

std::optional<std::string> chat_problem(std::string_view text) {
  if (!is_printable_utf8(text)) {
    return "a chat line is UTF-8 text without control characters";
  }
  auto problem =
      for_each_code_point(text, [](UChar32 c, UChar32 previous) -> std::optional<std::string> {
        // A variation selector after a visible character picks its glyph (emoji).
        if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR) && previous != U_SENTINEL &&
            previous != ' ' && !u_hasBinaryProperty(previous, UCHAR_VARIATION_SELECTOR)) {
          return std::nullopt;
        }
        return invisible_problem(c);
      });
  if (problem) return "chat can't contain " + *problem;
  return std::nullopt;
}

}  // namespace ttt::server
