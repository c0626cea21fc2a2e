// Elo ratings: every player starts at 1200; after a rated game each moves by
// K = 32 times the difference between the result (1, ½, 0) and the expected
// score 1 / (1 + 10^((opponent − own) / 400)). See docs/persistence.md for why
// Elo rather than Glicko-2.
#pragma once

namespace ttt::server {

inline constexpr double kInitialRating = 1200.0;
inline constexpr double kEloK = 32.0;

// An account is provisional until it has this many rated games that counted
// (rated, and both players moved). An established account's rating doesn't
// move in a game against a provisional one; the provisional one's does.
inline constexpr int kProvisionalGames = 10;

// A rated game counts only once both players have made two moves (four in
// all: X moves first). A game on the board (a line, a draw) always has them.
inline constexpr int kMovesToCount = 4;

// Results repeated between the same two accounts within kRepeatWindow count
// less: the n-th rated game of a pair in the window moves ratings by
// repeat_weight(n) of the full change (1, 1/2, 1/4, 1/8, then nothing).
inline constexpr long long kRepeatWindowMs = 24LL * 60 * 60 * 1000;
double repeat_weight(int nth) noexcept;

// An established rating moves in full only against an account that has
// played rated games that counted against kVariedOpponents different
// accounts; against one that has played n < kVariedOpponents, by
// variety_weight(n) = n / kVariedOpponents of the change. A farm of accounts
// that made their games among themselves moves a champion little.
inline constexpr int kVariedOpponents = 10;
double variety_weight(int opponents) noexcept;

// The expected score of a player rated `own` against one rated `opponent`.
double expected_score(double own, double opponent) noexcept;

struct RatingChange {
  double x;  // X's new rating
  double o;  // O's new rating
};

// New ratings after a game: x_score is 1 (X won), 0.5 (draw) or 0 (O won).
RatingChange rate_game(double x_rating, double o_rating, double x_score) noexcept;

}  // namespace ttt::server
