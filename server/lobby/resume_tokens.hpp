// ResumeTokens: the one current resume token of each seat-holder, by its
// hash. A new token is issued on every Hello (the old one stops working),
// and each expires a set time after it was issued (a player who stays away
// longer comes back with name and secret instead); the account store keeps
// the hash so that a token survives a restart.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ids.hpp"

namespace ttt::server {

class AccountStore;

class ResumeTokens {
 public:
  using Clock = std::chrono::steady_clock;

  // Tokens work for `lifetime` after they are issued (or restored).
  ResumeTokens(AccountStore& accounts, std::chrono::milliseconds lifetime)
      : accounts_(accounts), lifetime_(lifetime) {}

  // A fresh token for the holder, replacing its previous one.
  std::string issue(SeatId holder, AccountId account, Clock::time_point now = Clock::now());
  // Whose token this is, or nullopt for an unknown, replaced or expired one.
  std::optional<SeatId> redeem(std::string_view token, Clock::time_point now = Clock::now()) const;
  // The holder's token stops working.
  void revoke(SeatId holder, AccountId account);
  // The holder went to another node: its token works there, not here (the
  // stored hash stays).
  void forget(SeatId holder);
  // The hash of the holder's current token, if it has one.
  std::optional<std::string> hash_of(SeatId holder) const;
  // After a restart: the holder's stored token hash, counted as issued now.
  void restore(SeatId holder, const std::string& token_hash, Clock::time_point now = Clock::now());

  std::size_t size() const noexcept { return holders_.size(); }

 private:
  struct Issued {
    SeatId holder{};
    Clock::time_point at;
  };
  AccountStore& accounts_;
  std::chrono::milliseconds lifetime_;
  std::unordered_map<std::string, Issued> holders_;  // by token hash
  std::unordered_map<SeatId, std::string> hashes_;   // each holder's current hash
};

}  // namespace ttt::server
