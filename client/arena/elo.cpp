#include "arena/elo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ttt::client {

double elo_of_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate estimate_elo(int wins, int losses, int draws) {
  const double n = wins + losses + draws;
  EloEstimate e;
  e.score = (wins + 0.5 * draws) / n;
  // The variance of one game's points around the mean score.
  const double variance = (wins * std::pow(1.0 - e.score, 2) + draws * std::pow(0.5 - e.score, 2) +
                           losses * std::pow(0.0 - e.score, 2)) /
                          n;
  const double margin = 1.959964 * std::sqrt(variance / n);
  e.elo = elo_of_score(e.score);
  e.low = elo_of_score(std::clamp(e.score - margin, 0.0, 1.0));
  e.high = elo_of_score(std::clamp(e.score + margin, 0.0, 1.0));
  return e;
}

}  // namespace ttt::client
