// How much room text takes on a terminal, in columns, and laying it out by
// that room: padding table columns, counting the rows a line wraps to, and
// falling back to ASCII for a terminal that is not in UTF-8 mode. Meant for
// text that safe_text (or our own code) produced: it holds no controls.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ttt::client {

// The columns one code point takes: 0 for combining marks (and Hangul
// medial vowels and final consonants), 2 for East Asian wide and fullwidth
// characters (CJK, most emoji), 1 for the rest.
std::size_t code_point_width(char32_t c);

// The columns text takes: the sum over its code points (bytes that are not
// UTF-8 count 1 each, as U+FFFD).
std::size_t display_width(std::string_view text);

// text followed by spaces up to width columns (as it is when already wider).
std::string pad_right(std::string_view text, std::size_t width);

// Spaces, then text, up to width columns (as it is when already wider).
std::string pad_left(std::string_view text, std::size_t width);

// The terminal rows text takes on a screen `columns` wide, each of its lines
// at least one row, long lines wrapping (columns 0 counts one row a line).
std::size_t screen_rows(std::string_view text, std::size_t columns);

// text cut to at most width columns, at a character's edge; a text that
// had to be cut ends in "…" (when width leaves room for it).
std::string cut_to_width(std::string_view text, std::size_t width);

// One line (no '\n') broken into pieces of at most width columns, between
// words wherever a piece holds a space (a word wider than width is cut
// where it must be); the pieces after the first start with `indent` spaces
// (kept below width). At least one piece, even for an empty line; spaces
// where a line breaks are dropped. width 0: the line as it is.
std::vector<std::string> wrap_words(std::string_view line, std::size_t width,
                                    std::size_t indent = 0);

// Every line of text (lines end in '\n'; the last may not) wrapped as
// wrap_words does, continuation lines indented as far as their line's own
// leading spaces; the result's lines each end in '\n' where text's did.
std::string wrap_text(std::string_view text, std::size_t width);

// Whether the locale the environment names (the first set of LC_ALL,
// LC_CTYPE and LANG, as the C library picks it) uses UTF-8. Null or empty
// values count as unset; none set is the "C" locale: no.
bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang) noexcept;

// For a terminal that is not in UTF-8 mode (where the bytes of UTF-8 text
// could act as 8-bit controls): every non-ASCII character becomes '?' as
// wide as it was ("??" for a wide one, nothing for a combining mark), "…"
// becomes '.', and bytes that are not UTF-8 become '?'. ASCII is unchanged.
std::string ascii_fallback(std::string_view text);

}  // namespace ttt::client
