// RatingBook: where a room reads its players' ratings and settles a finished
// game's effect on both accounts. A settlement is held while its write is in
// flight (ratings shown meanwhile already include it, as the database will)
// and applied or dropped once the journal says whether it was written.
#pragma once

#include <optional>

#include "game/game_result.hpp"
#include "ids.hpp"
#include "store/records.hpp"

namespace ttt::server {

// What a finished game does to both accounts.
struct Settlement {
  PlayerResult x;
  PlayerResult o;
};

class RatingBook {
 public:
  virtual ~RatingBook() = default;

  // The account's rating, including settlements in flight (0 when unknown).
  virtual double rating(AccountId account) const = 0;

  // The effect of a finished game between x and o (rating changes only when
  // rated), held until settled(); nullopt for an aborted game.
  virtual std::optional<Settlement> settle(AccountId x, AccountId o, const GameResult& result,
                                           bool rated) = 0;

  // The settlement's write finished: applied if ok, released either way.
  virtual void settled(const Settlement& settlement, bool ok) = 0;
};

}  // namespace ttt::server
