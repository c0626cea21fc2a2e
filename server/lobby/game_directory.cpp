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

void LocalGameDirectory::publish(const Listing& listing) {
  games_[listing.summary.game_id()] = listing;
}

void LocalGameDirectory::withdraw(GameId game) { games_.erase(game); }

std::optional<Listing> LocalGameDirectory::find(GameId game) const {
  const auto it = games_.find(game);
  if (it == games_.end()) return std::nullopt;
  return it->second;
}

std::optional<Listing> LocalGameDirectory::find_by_invite(const std::string& invite_key) const {
  return with_invite(games_, invite_key);
}

std::optional<Listing> with_invite(const std::map<GameId, Listing>& games,
                                   const std::string& invite_key) {
  if (invite_key.empty()) return std::nullopt;
  for (const auto& [id, listing] : games) {
    if (listing.invite_key == invite_key) return listing;
  }
  return std::nullopt;
}

ListPage page_of(const std::map<GameId, Listing>& games, const ListQuery& query,
                 const std::function<bool(const Listing&)>& shown) {
  ListPage page;
  // One pass: every match counts towards the total; the page takes the
  // first page_size after the cursor, and the one after them says there is more.
  for (const auto& [id, listing] : games) {
    if (!matches(listing, query) || (shown && !shown(listing))) continue;
    ++page.total;
    if (id <= query.after) continue;
    if (page.games.size() < query.page_size) {
      page.games.push_back(listing.summary);
    } else if (page.next_after == 0) {
      page.next_after = page.games.empty() ? 0 : page.games.back().game_id();
    }
  }
  return page;
}

ListPage LocalGameDirectory::list(const ListQuery& query) const { return page_of(games_, query); }

}  // namespace ttt::server
