#include "game/rating.hpp"

#include <cmath>

namespace ttt::server {

double expected_score(double own, double opponent) noexcept {
  return 1.0 / (1.0 + std::pow(10.0, (opponent - own) / 400.0));
}

double repeat_weight(int nth) noexcept {
  if (nth <= 1) return 1.0;
  if (nth > 4) return 0.0;
  return 1.0 / static_cast<double>(1 << (nth - 1));
}

double variety_weight(int opponents) noexcept {
  if (opponents >= kVariedOpponents) return 1.0;
  if (opponents <= 0) return 0.0;
  return static_cast<double>(opponents) / kVariedOpponents;
}

RatingChange rate_game(double x_rating, double o_rating, double x_score) noexcept {
  const double delta = kEloK * (x_score - expected_score(x_rating, o_rating));
  return {x_rating + delta, o_rating - delta};
}

}  // namespace ttt::server
