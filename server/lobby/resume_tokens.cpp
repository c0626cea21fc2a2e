#include "lobby/resume_tokens.hpp"

#include "lobby/account_store.hpp"
#include "lobby/secrets.hpp"

namespace ttt::server {

std::string ResumeTokens::issue(SeatId holder, AccountId account, Clock::time_point now) {
  const std::string token = random_hex(32);
  const std::string hash = sha256_hex(token);
  if (auto old = hashes_.find(holder); old != hashes_.end()) holders_.erase(old->second);
  hashes_[holder] = hash;
  holders_[hash] = Issued{holder, now};
  accounts_.save_token(account, hash);
  return token;
}

std::optional<SeatId> ResumeTokens::redeem(std::string_view token, Clock::time_point now) const {
  const auto it = holders_.find(sha256_hex(token));
  if (it == holders_.end()) return std::nullopt;
  if (now - it->second.at > lifetime_) return std::nullopt;
  return it->second.holder;
}

void ResumeTokens::revoke(SeatId holder, AccountId account) {
  const auto it = hashes_.find(holder);
  if (it == hashes_.end()) return;
  holders_.erase(it->second);
  hashes_.erase(it);
  accounts_.drop_token(account);
}

void ResumeTokens::forget(SeatId holder) {
  const auto it = hashes_.find(holder);
  if (it == hashes_.end()) return;
  holders_.erase(it->second);
  hashes_.erase(it);
}

std::optional<std::string> ResumeTokens::hash_of(SeatId holder) const {
  const auto it = hashes_.find(holder);
  if (it == hashes_.end()) return std::nullopt;
  return it->second;
}

void ResumeTokens::restore(SeatId holder, const std::string& token_hash, Clock::time_point now) {
  hashes_[holder] = token_hash;
  holders_[token_hash] = Issued{holder, now};
}

}  // namespace ttt::server
