#include "lobby/name_rules.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/utf8.h>

#include <cstdio>
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

bool is_mark(UChar32 c) {
  return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0;
}

// Why c can't be shown to other players as part of some text, where nobody
// could see it or it would change how the text around it is shown.
std::optional<std::string> invisible_problem(UChar32 c) {
  if (u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL)) {
    return describe(c) + ": it changes the direction text is shown in";
  }
  if (u_charType(c) == U_FORMAT_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
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

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
  const std::string rule = "a name is 1 to " + std::to_string(kMaxNameBytes) +
                           " bytes of printable text without leading or trailing spaces";
  if (name.empty() || name.size() > kMaxNameBytes) return rule;
  if (!is_printable_utf8(name)) return rule + ": this one has control characters or is not UTF-8";
  if (name.front() == ' ' || name.back() == ' ') return rule;
  auto problem = for_each_code_point(name, [](UChar32 c, UChar32 previous) -> std::optional<std::string> {
    if (auto invisible = invisible_problem(c)) return invisible;
    if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) {
      return describe(c) + ": it is a variation selector";
    }
    const auto type = u_charType(c);
    if (type == U_SPACE_SEPARATOR && c != ' ') return describe(c) + ": it is not the plain space";
    if (type == U_UNASSIGNED || type == U_PRIVATE_USE_CHAR) {
      return describe(c) + ": it is unassigned or private-use";
    }
    if (is_mark(c) && (previous == U_SENTINEL || previous == ' ')) {
      return describe(c) + " without a letter before it";
    }
    return std::nullopt;
  });
  if (problem) return "names can't contain " + *problem;
  return std::nullopt;
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

std::string name_skeleton(std::string_view name) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString skeleton;
  uspoof_getSkeletonUnicodeString(&spoof_checker(), 0, folded_nfc(name), skeleton, &status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU could not compute a name's skeleton");
  std::string out;
  skeleton.toUTF8String(out);
  return out;
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
  auto problem = for_each_code_point(text, [](UChar32 c, UChar32 previous) -> std::optional<std::string> {
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
