// GameDirectory: the games players can find — each room's listing, kept
// current by the room's owner whenever it changes (seats, status, watchers;
// not on every move) — and the paged, filtered game list built from it. In-
// process today; a directory shared by several nodes (Redis) can replace it
// without touching rooms or sessions. Runs on the logic executor.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// One room as the list shows it, and who sits in it: a private room is
// listed to its own players only.
struct Listing {
  wire::GameSummary summary;
  std::array<AccountId, 2> players{};  // AccountId{} for a free seat or a bot
  std::string node;  // the node that holds the game; empty: this one (one node alone)
  // A private game's invite code as invite_key() makes it (a digest: the
  // code itself never leaves its node); empty for a public game.
  std::string invite_key;
};

// What a player asks the list for (ListGames): filters, the page's start and
// its length (already capped), and who asks.
struct ListQuery {
  int size = 0;                             // 0 = any
  int win_length = 0;                       // 0 = any
  wire::Rated rated = wire::RATED_DEFAULT;  // YES/NO: rated/unrated only
  bool open_only = false;                   // only games waiting for a player
  std::string name;                         // a player's name contains it (ASCII case ignored)
  GameId after{};                           // the page starts after this id
  std::size_t page_size = 50;
  AccountId viewer{};
};

// One page: the games in id order, how many pass the filters in all, and
// where the next page starts (0: this is the last).
struct ListPage {
  std::vector<wire::GameSummary> games;
  std::size_t total = 0;
  GameId next_after{};
};

class GameDirectory {
 public:
  virtual ~GameDirectory() = default;
  // Adds a game's listing or replaces it.
  virtual void publish(const Listing& listing) = 0;
  // The game is gone.
  virtual void withdraw(GameId game) = 0;
  // One page of the games the viewer may see that pass the query's filters.
  virtual ListPage list(const ListQuery& query) const = 0;
  // Every listed game, private ones included.
  virtual std::size_t size() const = 0;
  // One game's listing, wherever it is held; nullopt if it is not listed.
  virtual std::optional<Listing> find(GameId game) const = 0;
  // The private game whose invite_key is this one, wherever it is held.
  virtual std::optional<Listing> find_by_invite(const std::string& invite_key) const = 0;
  // Whether the list can be given now (a shared directory may be cut off
  // from the other nodes; then list() holds this node's games only).
  virtual bool complete() const { return true; }
};

// Whether a listing passes a query's filters and may be shown to its viewer.
bool matches(const Listing& listing, const ListQuery& query);

// The directory of one server process. A page is read from an index in id
// order of the public games that pass the query's filters of size, win
// length, rated and open (each game sits in the 16 indexes of the filters it
// passes; published again, it moves only if what they are built from
// changed), merged with the viewer's own private games: no request walks
// every game. A name filter looks at a bounded number of games a page
// (kNameScan) and says where to go on.
class LocalGameDirectory final : public GameDirectory {
 public:
  static constexpr std::size_t kNameScan = 1000;

  void publish(const Listing& listing) override;
  void withdraw(GameId game) override;
  ListPage list(const ListQuery& query) const override;
  std::size_t size() const override { return games_.size(); }
  std::optional<Listing> find(GameId game) const override;
  std::optional<Listing> find_by_invite(const std::string& invite_key) const override;

 private:
  void index(const Listing& listing);
  void unindex(const Listing& listing);

  std::map<GameId, Listing> games_;
  // Public games by the filters they pass (filter_key), in id order.
  std::unordered_map<std::uint64_t, std::set<GameId>> by_filter_;
  // Private games by the accounts seated in them.
  std::unordered_map<AccountId, std::set<GameId>> private_by_player_;
  std::unordered_map<std::string, GameId> by_invite_;
};

}  // namespace ttt::server
