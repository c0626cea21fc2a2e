// Elo ratings: every player starts at 1200; after a rated game each moves by
// K = 32 times the difference between the result (1, ½, 0) and the expected
// score 1 / (1 + 10^((opponent − own) / 400)). See docs/persistence.md for why
// Elo rather than Glicko-2.
#pragma once

namespace ttt::server {

inline constexpr double kInitialRating = 1200.0;
inline constexpr double kEloK = 32.0;

// The expected score of a player rated `own` against one rated `opponent`.
double expected_score(double own, double opponent) noexcept;

struct RatingChange {
  double x;  // X's new rating
  double o;  // O's new rating
};

// New ratings after a game: x_score is 1 (X won), 0.5 (draw) or 0 (O won).
RatingChange rate_game(double x_rating, double o_rating, double x_score) noexcept;

}  // namespace ttt::server
