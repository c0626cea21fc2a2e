// RatingBook: where a room reads its players' ratings and settles a finished
// game's effect on both accounts. A settlement is held while its write is in
// flight (ratings shown meanwhile already include it, as the database will)
// and applied or dropped once the journal says whether it was written.
#pragma once

#include <optional>

#include "game/game_result.hpp"
#include "ids.hpp"
#include "records.hpp"

namespace ttt::server {

// What a finished game does to both accounts.
struct Settlement {
  PlayerResult x;
  PlayerResult o;
  bool rated = false;  // the game counted as rated (it may still have moved nobody)
  // Why each side's rating moved less than the result alone would move it;
  // the pair's n-th rated game in the repeat window when n > 1 (0 otherwise);
  // with RATING_NOTE_FEW_OPPONENTS, how many different accounts that side's
  // opponent had played rated games against.
  wire::RatingNote x_note = wire::RATING_NOTE_NONE;
  wire::RatingNote o_note = wire::RATING_NOTE_NONE;
  int repeat_game = 0;
  int x_variety = 0;
  int o_variety = 0;
};

class RatingBook {
 public:
  virtual ~RatingBook() = default;

  // The account's rating, including settlements in flight (0 when unknown).
  virtual double rating(AccountId account) const = 0;

  // The effect of a finished game of `moves` moves between x and o, held
  // until settled(); nullopt for an aborted game. Ratings change only in a
  // rated game, and then by the rules of docs/persistence.md ("Which results
  // move ratings"): not before both players have moved, less against a
  // provisional account or one that played few others, less for results
  // repeated between the same two.
  virtual std::optional<Settlement> settle(AccountId x, AccountId o, const GameResult& result,
                                           bool rated, int moves) = 0;

  // The settlement's write finished: applied if ok, released either way.
  virtual void settled(const Settlement& settlement, bool ok) = 0;
};

}  // namespace ttt::server
