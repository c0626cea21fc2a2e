// The console client's sentences about the server's records: the
// leaderboard (/top), a player's recent games (/history), a record's result
// and the refusals of those queries. Pure functions of wire messages, so
// tests can check the exact words. Names are made safe to show (safe_text)
// and cut to their column (18 wide).
#pragma once

#include <cstdint>
#include <string>

#include "console/command.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// How times are written: local time for players, UTC for tests.
enum class TimeZone { Local, Utc };

// A Unix time in milliseconds as "2026-11-22 14:03".
std::string time_text(std::uint64_t unix_ms, TimeZone zone);

// The table /top prints, best first: rank, name, rating (rounded), games,
// wins, losses, draws, and "provisional" after a rating the server does not
// count as established yet (too few rated games) and "the server's bot"
// after one of the server's own bots; or a sentence when nobody has
// finished a game. At most width columns wide (0: no limit): the columns
// of least use are left out first (TextTable).
std::string leaderboard_text(const wire::Leaderboard& board, std::size_t width = 0);

// A finished game's result and why, in the words of the `Game over:` line
// without its prefix (wire::result_text): "X wins (anti-diagonal)", "O wins
// (X resigned)", "draw (agreed)". The winning line is the record's; from a
// server that does not send one, a win by a line reads "X wins (a line)".
std::string record_result_text(const wire::GameRecord& record);

// The list /history prints, newest first: record id, when it ended, size,
// X vs O, result and why, rated or not, and the number of moves; or a
// sentence when the player has no finished games. At most width columns
// wide (0: no limit): rated, moves, board and end time are left out first.
std::string history_text(const wire::History& history, TimeZone zone, std::size_t width = 0);

// A refused /top, /history or /replay (query is the command that asked) as
// one line: what was asked and why there is no answer (NO_RECORD,
// NO_DATABASE, STORAGE; other codes as error_text).
std::string record_error_text(const wire::Error& error, const Command& query);

}  // namespace ttt::client
