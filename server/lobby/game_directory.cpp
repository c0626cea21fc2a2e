#include "lobby/game_directory.hpp"

#include <algorithm>

#include "lobby/text_rules.hpp"

namespace ttt::server {

bool matches(const Listing& listing, const ListQuery& q) {
  const wire::GameSummary& s = listing.summary;
  if (s.is_private() && (q.viewer == AccountId{} ||
                         (listing.players[0] != q.viewer && listing.players[1] != q.viewer))) {
    return false;
  }
  if (q.size != 0 && s.size() != q.size) return false;
  if (q.win_length != 0 && s.win_length() != q.win_length) return false;
  if (q.rated == wire::RATED_YES && !s.rated()) return false;
  if (q.rated == wire::RATED_NO && s.rated()) return false;
  if (q.open_only && s.status() != wire::GAME_STATUS_WAITING) return false;
  if (!q.name.empty() && !contains_ignoring_ascii_case(s.x_name(), q.name) &&
      !contains_ignoring_ascii_case(s.o_name(), q.name)) {
    return false;
  }
  return true;
}

namespace {

// A filter of the list as one number: size (0 = any), win length (0 =
// any), rated (0 = any, 1 = rated, 2 = unrated), open only.
std::uint64_t filter_key(int size, int win_length, int rated, bool open_only) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(size)) << 40) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(win_length)) << 8) |
         (static_cast<std::uint64_t>(rated) << 1) | (open_only ? 1u : 0u);
}

std::uint64_t filter_key(const ListQuery& q) {
  const int rated = q.rated == wire::RATED_YES ? 1 : q.rated == wire::RATED_NO ? 2 : 0;
  return filter_key(q.size, q.win_length, rated, q.open_only);
}

// What of a public listing decides the filters it passes.
struct FilterFields {
  int size;
  int win_length;
  bool rated;
  bool open;
  bool operator==(const FilterFields&) const = default;
};

FilterFields filter_fields(const wire::GameSummary& s) {
  return {s.size(), s.win_length(), s.rated(), s.status() == wire::GAME_STATUS_WAITING};
}

// Every filter a public listing passes: 2 x 2 x 2 x (1 or 2) of them.
template <typename Each>
void each_filter_of(const wire::GameSummary& s, Each each) {
  const FilterFields f = filter_fields(s);
  for (const int size : {0, f.size}) {
    for (const int win : {0, f.win_length}) {
      for (const int rated : {0, f.rated ? 1 : 2}) {
        each(filter_key(size, win, rated, false));
        if (f.open) each(filter_key(size, win, rated, true));
      }
    }
  }
}

// Whether two listings of a game sit in the same indexes: all index() and
// unindex() read of them.
bool indexed_alike(const Listing& a, const Listing& b) {
  const wire::GameSummary& x = a.summary;
  const wire::GameSummary& y = b.summary;
  if (x.is_private() != y.is_private() || a.invite_key != b.invite_key) return false;
  if (x.is_private()) return a.players == b.players;
  return filter_fields(x) == filter_fields(y);
}

}  // namespace

void LocalGameDirectory::index(const Listing& listing) {
  const GameId id{listing.summary.game_id()};
  if (listing.summary.is_private()) {
    for (const AccountId player : listing.players) {
      if (player != AccountId{}) private_by_player_[player].insert(id);
    }
  } else {
    each_filter_of(listing.summary, [&](std::uint64_t key) { by_filter_[key].insert(id); });
  }
  if (!listing.invite_key.empty()) by_invite_[listing.invite_key] = id;
}

void LocalGameDirectory::unindex(const Listing& listing) {
  const GameId id{listing.summary.game_id()};
  if (listing.summary.is_private()) {
    for (const AccountId player : listing.players) {
      const auto it = private_by_player_.find(player);
      if (it == private_by_player_.end()) continue;
      it->second.erase(id);
      if (it->second.empty()) private_by_player_.erase(it);
    }
  } else {
    each_filter_of(listing.summary, [&](std::uint64_t key) {
      const auto it = by_filter_.find(key);
      if (it == by_filter_.end()) return;
      it->second.erase(id);
      if (it->second.empty()) by_filter_.erase(it);
    });
  }
  if (const auto it = by_invite_.find(listing.invite_key);
      it != by_invite_.end() && it->second == id) {
    by_invite_.erase(it);
  }
}

void LocalGameDirectory::publish(const Listing& listing) {
  auto [it, added] = games_.try_emplace(GameId{listing.summary.game_id()}, listing);
  if (added) {
    index(it->second);
  } else if (indexed_alike(it->second, listing)) {
    it->second = listing;  // a move, a result, a spectator: the indexes stay
  } else {
    unindex(it->second);
    it->second = listing;
    index(it->second);
  }
}

void LocalGameDirectory::withdraw(GameId game) {
  const auto it = games_.find(game);
  if (it == games_.end()) return;
  unindex(it->second);
  games_.erase(it);
}

std::optional<Listing> LocalGameDirectory::find(GameId game) const {
  const auto it = games_.find(game);
  if (it == games_.end()) return std::nullopt;
  return it->second;
}

std::optional<Listing> LocalGameDirectory::find_by_invite(const std::string& invite_key) const {
  if (invite_key.empty()) return std::nullopt;
  const auto it = by_invite_.find(invite_key);
  if (it == by_invite_.end()) return std::nullopt;
  return find(it->second);
}

ListPage LocalGameDirectory::list(const ListQuery& query) const {
  static const std::set<GameId> none;
  const auto indexed = by_filter_.find(filter_key(query));
  const std::set<GameId>& public_ids = indexed == by_filter_.end() ? none : indexed->second;
  // The viewer's own private games that pass the filters: a handful.
  std::vector<GameId> own;
  if (query.viewer != AccountId{}) {
    if (const auto mine = private_by_player_.find(query.viewer); mine != private_by_player_.end()) {
      for (const GameId id : mine->second) {
        if (matches(games_.at(id), query)) own.push_back(id);
      }
    }
  }
  ListPage page;
  // Both in id order from the cursor, merged; a name filter is tested on
  // each, at most kNameScan of them.
  auto pub = public_ids.upper_bound(query.after);
  auto priv = std::upper_bound(own.begin(), own.end(), query.after);
  std::size_t looked = 0;
  std::size_t matched = 0;
  GameId last{};
  while (pub != public_ids.end() || priv != own.end()) {
    const bool from_public = priv == own.end() || (pub != public_ids.end() && *pub < *priv);
    const GameId id = from_public ? *pub : *priv;
    if (page.games.size() == query.page_size || (!query.name.empty() && looked == kNameScan)) {
      page.next_after = last;
      break;
    }
    if (from_public) {
      ++pub;
    } else {
      ++priv;
    }
    ++looked;
    last = id;
    const Listing& listing = games_.at(id);
    if (!query.name.empty() && !matches(listing, query)) continue;
    ++matched;
    page.games.push_back(listing.summary);
  }
  // Without a name filter every game in the indexes passes: the total is
  // their count. With one, the games that passed among those looked at.
  page.total = query.name.empty() ? public_ids.size() + own.size() : matched;
  return page;
}

}  // namespace ttt::server
