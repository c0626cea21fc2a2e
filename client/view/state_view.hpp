// Read-only questions about a wire::GameState, shared by the console client,
// the bot and the renderer: which side a player holds, whether the game is
// over, and the board, last move and winning line as ttt:: values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ttt.pb.h"
#include "ttt/rules.hpp"

namespace ttt::client {

// The side player_id holds in the game: SIDE_X, SIDE_O, or SIDE_NONE when the
// player has no seat (a spectator, or a game without them).
wire::Side side_of(const wire::GameState& state, std::uint64_t player_id) noexcept;

// True once the game has a result (a win, a draw, or an abort).
bool is_over(const wire::GameState& state) noexcept;
// The same of a status alone (a record's, a result's).
bool is_over(wire::GameStatus status) noexcept;

// True while both seats are filled and nobody has won yet.
bool in_progress(const wire::GameState& state) noexcept;

// SIDE_O for SIDE_X and back; SIDE_NONE otherwise. (ttt::Player to and from
// wire::Side: ttt/wire/convert.hpp.)
wire::Side other_side(wire::Side side) noexcept;

// The board the state describes, with its win length (0: the size), or
// nullopt if its cells are malformed or the win length does not fit them.
std::optional<Board> board_of(const wire::GameState& state);

// The last move, absent before the first one.
std::optional<Move> last_move_of(const wire::GameState& state);

// The completed line of a game won by a line, else nullopt.
std::optional<Line> winning_line_of(const wire::GameState& state);

// The player in a side's seat (O's for SIDE_O, X's otherwise).
const wire::PlayerInfo& info_of(const wire::GameState& state, wire::Side side) noexcept;

// The name a seat shows: the player's name made safe to show (safe_text,
// at most field_width::kName columns), or "(free)".
std::string seat_name(const wire::PlayerInfo& info);

// True when after differs from before in what the board shows: the cells,
// the status, the round or whose turn it is (worth drawing it again).
bool board_changed(const wire::GameState& before, const wire::GameState& after) noexcept;

// True when after differs from before in who sits where, who is connected,
// or how many watch.
bool players_changed(const wire::GameState& before, const wire::GameState& after) noexcept;

// Identifies one round of one game: rematches in the same room get new keys.
struct RoundKey {
  std::uint64_t game_id = 0;
  std::uint32_t round = 0;
  friend bool operator==(const RoundKey&, const RoundKey&) = default;
};
RoundKey round_key(const wire::GameState& state) noexcept;

}  // namespace ttt::client
