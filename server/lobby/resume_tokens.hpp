// ResumeTokens: the one current resume token of each seat-holder, by its
// hash. A new token is issued on every Hello (the old one stops working);
// the account store keeps the hash so that a token survives a restart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ids.hpp"

namespace ttt::server {

class AccountStore;

class ResumeTokens {
 public:
  explicit ResumeTokens(AccountStore& accounts) : accounts_(accounts) {}

  // A fresh token for the holder, replacing its previous one.
  std::string issue(SeatId holder, AccountId account);
  // Whose token this is, or nullopt for an unknown or replaced one.
  std::optional<SeatId> redeem(std::string_view token) const;
  // The holder's token stops working.
  void revoke(SeatId holder, AccountId account);
  // After a restart: the holder's stored token hash.
  void restore(SeatId holder, const std::string& token_hash);

  std::size_t size() const noexcept { return holders_.size(); }

 private:
  AccountStore& accounts_;
  std::unordered_map<std::string, SeatId> holders_;  // by token hash
  std::unordered_map<SeatId, std::string> hashes_;   // each holder's current hash
};

}  // namespace ttt::server
