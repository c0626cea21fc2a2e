#include "lobby/address_quotas.hpp"

namespace ttt::server {

std::string AddressQuotas::refusal(const std::string& address, bool bot_game) const {
  if (address.empty()) return "";
  const auto it = held_.find(address);
  if (it == held_.end()) return "";
  const Held& held = it->second;
  if (limits_.games != 0 && held.games >= limits_.games) {
    return "players from your address (" + address + ") already sit in " +
           std::to_string(held.games) +
           " games, the most one address may: finish or leave one first";
  }
  if (bot_game && limits_.bot_games != 0 && held.bot_games >= limits_.bot_games) {
    return "players from your address (" + address + ") already play " +
           std::to_string(held.bot_games) +
           " games against the server's bots, the most one address may: finish or leave one first";
  }
  return "";
}

void AddressQuotas::take(const std::string& address, bool bot_game) {
  if (address.empty()) return;
  Held& held = held_[address];
  ++held.games;
  if (bot_game) ++held.bot_games;
}

void AddressQuotas::give_back(const std::string& address, bool bot_game) {
  const auto it = held_.find(address);
  if (it == held_.end()) return;
  Held& held = it->second;
  if (held.games > 0) --held.games;
  if (bot_game && held.bot_games > 0) --held.bot_games;
  if (held.games == 0 && held.bot_games == 0) held_.erase(it);
}

std::size_t AddressQuotas::games(const std::string& address) const {
  const auto it = held_.find(address);
  return it == held_.end() ? 0 : it->second.games;
}

std::size_t AddressQuotas::bot_games(const std::string& address) const {
  const auto it = held_.find(address);
  return it == held_.end() ? 0 : it->second.bot_games;
}

}  // namespace ttt::server
