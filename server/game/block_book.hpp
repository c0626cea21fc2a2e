// BlockBook: which accounts a player blocked (/block): a room never delivers
// a blocked player's chat to the one who blocked them, and the lobby refuses
// their challenges. The account store keeps it with the accounts.
#pragma once

#include "ids.hpp"

namespace ttt::server {

class BlockBook {
 public:
  virtual ~BlockBook() = default;
  // Whether `listener` blocked `speaker`.
  virtual bool blocks(AccountId listener, AccountId speaker) const = 0;
};

}  // namespace ttt::server
