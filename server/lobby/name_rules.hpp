// Names nobody can counterfeit, and text that shows what it says: the Unicode
// rules (with ICU) for player names and for chat that another player's
// screen will show.
//
// A name is refused when it holds characters nobody can see or that change
// how the text around them is shown: control and format characters (general
// category Cf, which includes the bidi controls such as U+202E and the
// zero-width characters such as U+200B), other default-ignorable code points
// (the Hangul fillers, ...), variation selectors, separators other than the
// ASCII space, private-use and unassigned code points, and combining marks
// that have no letter to sit on (at the start, or after a space) or that
// stack more than two on one letter. Two names
// are one account's when their keys are equal: the key is the Unicode
// confusable skeleton (UTS #39, ICU's spoof checker) of the case-folded NFC
// form, so "аlice" (Cyrillic а) and "ALICE" are both "alice".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ttt::server {

// Why name can't be a player's name (a sentence for the player, naming the
// offending character as U+XXXX), or nullopt when it can. Covers the length
// (1..kMaxNameBytes bytes), well-formed UTF-8 and the leading/trailing spaces
// as well as the invisible characters above.
std::optional<std::string> name_problem(std::string_view name);

// The NFC form of well-formed UTF-8 text: the spelling a new account keeps.
std::string nfc_name(std::string_view name);

// The key under which a name is unique: the confusable skeleton of the
// case-folded NFC form, folded again, with the letters that look alike in
// one case joined (a capital I is an l: "aIice", "ALlCE" and "alice" are one
// name) and runs of spaces as one. Names with equal keys look alike on
// screen.
std::string name_skeleton(std::string_view name);

// Whether name looks like one of the server's bots' ("bot (LEVEL)"),
// spaces and look-alike letters and brackets included.
bool imitates_a_bot(std::string_view name);

// What the lobby tells someone asking for a name whose key is that of the
// account named owner: the name is taken (give its secret), or, when the two
// differ by more than case, the name looks like owner's.
std::string name_taken_text(std::string_view asked, std::string_view owner);

// Why a line of chat can't reach other players (control, bidi or other
// invisible characters; variation selectors are allowed after a visible
// character, as in emoji), or nullopt when it can. Does not check the length.
std::optional<std::string> chat_problem(std::string_view text);

}  // namespace ttt::server
