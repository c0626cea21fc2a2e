// The Elo difference a match result shows, with its 95% interval: the
// logistic model's inverse of the score, and the normal approximation of the
// score's standard error over the games (as cutechess-cli and Ordo's simple
// mode compute it). docs/ai.md states the formula.
#pragma once

namespace ttt::client {

struct EloEstimate {
  double score = 0.5;  // (wins + draws / 2) / games, of the first player
  double elo = 0;      // its Elo difference; +-infinity when the score is 1 or 0
  double low = 0;      // the 95% interval's ends (may be infinite)
  double high = 0;
};

// The estimate after wins, losses and draws of one side against the other.
// Precondition: wins + losses + draws > 0.
EloEstimate estimate_elo(int wins, int losses, int draws);

// The Elo difference a score (0 to 1) means: -400 log10(1 / score - 1).
double elo_of_score(double score);

}  // namespace ttt::client
