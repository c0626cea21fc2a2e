// PlayerTable: the players the lobby holds (people online or away, and the
// server's bots), by seat, with the indexes its requests need so that none
// walks every player: a person by the key of their name (lobby/text_rules'
// name_key: a challenge, "who is this"), and the people in the order of
// their names (/who, a page at a time). The indexes follow every add and
// erase; a player's name never changes while it is held. Runs on the logic
// executor.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "lobby/lobby_player.hpp"

namespace ttt::server {

class PlayerTable {
 public:
  using Map = std::unordered_map<SeatId, std::unique_ptr<LobbyPlayer>>;
  using iterator = Map::iterator;
  using const_iterator = Map::const_iterator;

  // Holds the player (its id, name and is_bot set already), indexed; a
  // player of that seat already held stays (and is returned).
  LobbyPlayer& add(std::unique_ptr<LobbyPlayer> player);
  void erase(SeatId id);
  iterator erase(iterator it);

  iterator find(SeatId id) { return players_.find(id); }
  const_iterator find(SeatId id) const { return players_.find(id); }
  bool contains(SeatId id) const { return players_.contains(id); }
  iterator begin() { return players_.begin(); }
  iterator end() { return players_.end(); }
  const_iterator begin() const { return players_.begin(); }
  const_iterator end() const { return players_.end(); }
  // Every player held, bots included.
  std::size_t size() const noexcept { return players_.size(); }

  // The player of that seat, or null.
  LobbyPlayer* get(SeatId id) const;
  // The person (not a bot) whose name has this key, or null.
  LobbyPlayer* by_key(const std::string& key) const;
  // That person if it is connected now (not away), or null.
  LobbyPlayer* online(const std::string& key) const;

  // People held: the /who list before any filter.
  std::size_t people() const noexcept { return by_name_.size(); }

  // One page of the people in the order of their names: after `after`,
  // those whose name contains `part` (ASCII case ignored; empty: all) and
  // that `shown` lets through, at most `page_size`. It looks at no more
  // than `scan` names, so a page with a filter may end early: next_after
  // then says where the next page starts, and matched counts the names that
  // passed among those it looked at.
  struct Page {
    std::vector<const LobbyPlayer*> people;
    std::string next_after;  // empty: this is the last page
    std::size_t matched = 0;
    bool scanned_to_end = false;  // every name after `after` was looked at
  };
  Page page(std::string_view after, std::string_view part, std::size_t page_size, std::size_t scan,
            const std::function<bool(const LobbyPlayer&)>& shown) const;

 private:
  void index(const LobbyPlayer& player);
  void unindex(const LobbyPlayer& player);

  Map players_;
  std::unordered_map<std::string, SeatId> by_key_;    // people by name key
  std::set<std::pair<std::string, SeatId>> by_name_;  // people by name
};

}  // namespace ttt::server
