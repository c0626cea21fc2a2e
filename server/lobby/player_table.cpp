#include "lobby/player_table.hpp"

#include "lobby/text_rules.hpp"

namespace ttt::server {

LobbyPlayer& PlayerTable::add(std::unique_ptr<LobbyPlayer> player) {
  const SeatId id = player->id;
  auto [it, added] = players_.try_emplace(id, std::move(player));
  if (added) index(*it->second);
  return *it->second;
}

void PlayerTable::erase(SeatId id) {
  const auto it = players_.find(id);
  if (it != players_.end()) erase(it);
}

PlayerTable::iterator PlayerTable::erase(iterator it) {
  unindex(*it->second);
  return players_.erase(it);
}

void PlayerTable::index(const LobbyPlayer& player) {
  if (player.is_bot) return;
  by_key_[player.key.empty() ? name_key(player.name) : player.key] = player.id;
  by_name_.emplace(player.name, player.id);
}

void PlayerTable::unindex(const LobbyPlayer& player) {
  if (player.is_bot) return;
  const auto it = by_key_.find(player.key.empty() ? name_key(player.name) : player.key);
  if (it != by_key_.end() && it->second == player.id) by_key_.erase(it);
  by_name_.erase({player.name, player.id});
}

LobbyPlayer* PlayerTable::get(SeatId id) const {
  const auto it = players_.find(id);
  return it == players_.end() ? nullptr : it->second.get();
}

LobbyPlayer* PlayerTable::online(const std::string& key) const {
  LobbyPlayer* player = by_key(key);
  return player != nullptr && player->inbox != nullptr ? player : nullptr;
}

LobbyPlayer* PlayerTable::by_key(const std::string& key) const {
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return nullptr;
  const auto held = players_.find(it->second);
  return held == players_.end() ? nullptr : held->second.get();
}

PlayerTable::Page PlayerTable::page(std::string_view after, std::string_view part,
                                    std::size_t page_size, std::size_t scan,
                                    const std::function<bool(const LobbyPlayer&)>& shown) const {
  Page page;
  // The first name past `after` (every seat of that name is before it).
  auto it = after.empty() ? by_name_.begin()
                          : by_name_.upper_bound({std::string(after), SeatId{~std::uint64_t{0}}});
  std::size_t looked = 0;
  for (; it != by_name_.end(); ++it) {
    if (page.people.size() == page_size || looked == scan) {
      // More follow (or may): the next page starts after the last name
      // looked at.
      page.next_after = std::prev(it)->first;
      return page;
    }
    ++looked;
    if (!contains_ignoring_ascii_case(it->first, part)) continue;
    const auto held = players_.find(it->second);
    if (held == players_.end() || (shown && !shown(*held->second))) continue;
    ++page.matched;
    page.people.push_back(held->second.get());
  }
  page.scanned_to_end = true;
  return page;
}

}  // namespace ttt::server
