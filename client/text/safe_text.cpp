#include "text/safe_text.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <climits>
#include <cstdio>

#include "text/display_width.hpp"

namespace ttt::client {
namespace {

constexpr std::string_view kEllipsis = "\xe2\x80\xa6";  // U+2026, one column
constexpr std::size_t kEllipsisWidth = 1;
constexpr char32_t kReplacement = 0xFFFD;

// What becomes of one code point.
enum class Kind {
  Keep,       // shown as it is
  Combining,  // shown on the character before it
  Caret,      // C0 control or DEL: "^[" and the like
  Mark,       // anything else a terminal acts on or hides: "<U+202E>"
};

Kind kind_of(char32_t c) {
  if (c < 0x20 || c == 0x7f) return Kind::Caret;
  if (c < 0x7f) return Kind::Keep;
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_CONTROL_CHAR:  // C1
    case U_FORMAT_CHAR:   // bidi controls, zero-width characters, tags, ...
    case U_UNASSIGNED:    // noncharacters too: no terminal knows how wide they are
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_SURROGATE:
      return Kind::Mark;
    case U_NON_SPACING_MARK:
    case U_ENCLOSING_MARK:
    case U_COMBINING_SPACING_MARK:
      return Kind::Combining;  // variation selectors among them
    default:
      break;
  }
  if (u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
      u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_BIDI_CONTROL)) {
    return Kind::Mark;  // invisible fillers such as U+3164
  }
  return code_point_width(c) == 0 ? Kind::Combining : Kind::Keep;
}

void append_utf8(std::string& out, char32_t c) {
  char bytes[U8_MAX_LENGTH];
  std::int32_t length = 0;
  UBool error = false;
  U8_APPEND(bytes, length, U8_MAX_LENGTH, static_cast<UChar32>(c), error);
  if (!error) out.append(bytes, static_cast<std::size_t>(length));
}

// The text shown for a character that is not shown as it is.
std::string visible_form(char32_t c, Kind kind) {
  if (kind == Kind::Caret) {
    return c == 0x7f ? "^?" : std::string{'^', static_cast<char>(c + 0x40)};
  }
  char mark[16];
  std::snprintf(mark, sizeof mark, "<U+%04X>", static_cast<unsigned>(c));
  return mark;
}

// Builds the output piece by piece (a piece: a character with its combining
// marks, or one visible form), remembering where to cut for the ellipsis.
class Builder {
 public:
  explicit Builder(std::size_t max_width) : max_width_(max_width) {}

  // Starts a new piece of width columns; false when it does not fit.
  bool begin(std::string_view text, std::size_t width) {
    marks_ = 0;
    if (width_ + kEllipsisWidth <= max_width_) cut_at_ = out_.size();
    if (!fits(width)) return false;
    out_ += text;
    width_ += width;
    return true;
  }

  // Adds a combining mark to the current piece; false when it does not fit.
  bool combine(char32_t c) {
    if (++marks_ > kMaxCombiningMarks) return true;  // dropped
    const std::size_t width = code_point_width(c);
    if (!fits(width)) return false;
    append_utf8(out_, c);
    width_ += width;
    return true;
  }

  // The text cut, with the ellipsis.
  std::string cut() {
    out_.resize(cut_at_);
    out_ += kEllipsis;
    return std::move(out_);
  }

  std::string take() { return std::move(out_); }

 private:
  bool fits(std::size_t width) const { return width_ + width <= max_width_; }

  std::size_t max_width_;
  std::string out_;
  std::size_t width_ = 0;
  std::size_t cut_at_ = 0;  // bytes of out_ that leave room for the ellipsis
  std::size_t marks_ = 0;   // combining marks on the current piece
};

}  // namespace

std::string safe_text(std::string_view raw, std::size_t max_width) {
  if (max_width < kEllipsisWidth) max_width = kEllipsisWidth;
  // U8_NEXT counts in int32_t; no field of a frame comes near that.
  const auto length = static_cast<std::int32_t>(std::min<std::size_t>(raw.size(), INT32_MAX));
  Builder out(max_width);
  std::int32_t i = 0;
  while (i < length) {
    UChar32 decoded = 0;
    U8_NEXT(raw.data(), i, length, decoded);  // past the maximal ill-formed subpart on error
    const char32_t c = decoded < 0 ? kReplacement : static_cast<char32_t>(decoded);
    const Kind kind = kind_of(c);
    bool fits = true;
    if (kind == Kind::Combining) {
      fits = out.combine(c);
    } else if (kind == Kind::Keep) {
      std::string text;
      append_utf8(text, c);
      fits = out.begin(text, code_point_width(c));
    } else {
      const std::string text = visible_form(c, kind);
      fits = out.begin(text, text.size());
    }
    if (!fits) return out.cut();
  }
  return out.take();
}

}  // namespace ttt::client
