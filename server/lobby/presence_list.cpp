#include "lobby/presence_list.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "lobby/text_rules.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {
namespace {

std::string seat_label(const PlayerRef& p) { return p.id == SeatId{} ? "(free)" : p.name; }

// The names one /who with a filter looks at, at most: a page with a filter
// costs the same however many are online.
constexpr std::size_t kWhoScan = 1000;

// Online: connected, or away with a seat held. The server's own bots are
// not players anyone can challenge or chat with outside their game.
bool shown_in_who(const LobbyPlayer& player) {
  return !player.is_bot && (player.inbox != nullptr || player.room != nullptr);
}

}  // namespace

wire::PlayerPresence PresenceList::presence_of(const LobbyPlayer& player) const {
  wire::PlayerPresence p;
  p.set_name(player.name);
  p.set_rating(accounts_.rating(player.account));
  p.set_is_bot(player.program);
  p.set_away(player.inbox == nullptr);
  const GameRoom* room = player.room.get();
  if (room == nullptr) {
    if (const MatchRequest* wish = wish_of_(player.id)) {
      p.set_activity(wire::ACTIVITY_QUEUED);
      p.set_size(wish->size);
      p.set_win_length(wish->win_length);
      p.mutable_clock()->set_initial_ms(wish->clock_initial_ms);
      p.mutable_clock()->set_increment_ms(wish->clock_increment_ms);
    } else {
      p.set_activity(wire::ACTIVITY_IDLE);
    }
    return p;
  }
  const RoomSettings& settings = room->settings();
  p.set_size(settings.size);
  p.set_win_length(wire::win_length_of(settings.size, settings.win_length));
  *p.mutable_clock() = settings.clock;
  if (!settings.is_private) p.set_game_id(number(room->id()));
  const PlayerRef& x = room->player(Player::X);
  const PlayerRef& o = room->player(Player::O);
  if (!room->is_seated(player.id)) {
    p.set_activity(wire::ACTIVITY_WATCHING);
    p.set_opponent(seat_label(x) + " vs " + seat_label(o));
  } else if (room->waiting()) {
    p.set_activity(wire::ACTIVITY_WAITING);
  } else {
    // Playing only while the game is on; seated after it, a rematch may follow.
    p.set_activity(room->in_progress() ? wire::ACTIVITY_PLAYING : wire::ACTIVITY_FINISHED);
    const PlayerRef& opponent = x.id == player.id ? o : x;
    p.set_opponent(opponent.name);
    p.set_opponent_server_bot(opponent.is_bot);
  }
  return p;
}

void PresenceList::share() {
  std::map<AccountId, wire::PlayerPresence> here;
  for (const auto& [id, player] : players_) {
    if (!shown_in_who(*player)) continue;
    here.emplace(player->account, presence_of(*player));
  }
  cluster_.share_presence(here);
}

void PresenceList::list(LobbyPlayer& player, const wire::ListPlayers& request,
                        std::uint32_t request_id) {
  if (request.name().size() > kMaxNameBytes || request.after().size() > 4 * kMaxNameBytes) {
    replies_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                   "a name to look for is at most " + std::to_string(kMaxNameBytes) + " bytes",
                   request_id);
    return;
  }
  const std::size_t page_size = paging_.length(request.page_size());
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::PlayerList* list = message.mutable_player_list();
  list->set_page_size(static_cast<std::uint32_t>(page_size));
  // A page of this node's players (online: connected, or away with a seat
  // held; the server's own bots are not players anyone can challenge or
  // chat with outside their game) and one of the other nodes' (as they last
  // shared them, indexed by name; none on a node alone), merged in name
  // order. A filter looks at a bounded number of names a request. Each
  // holds every name from the cursor up to where it stopped (its
  // next_after; empty: to the end), so the merge goes no further than the
  // nearer of the two; a name on both is this node's.
  const auto here = players_.page(request.after(), request.name(), page_size, kWhoScan,
                                  [](const LobbyPlayer& p) { return shown_in_who(p); });
  auto there = cluster_.others_presence_page(request.after(), request.name(), page_size, kWhoScan);
  const std::string* stop = nullptr;  // the merge is complete up to here (null: to the end)
  if (!here.next_after.empty()) stop = &here.next_after;
  if (!there.next_after.empty() && (stop == nullptr || there.next_after < *stop)) {
    stop = &there.next_after;
  }
  auto mine = here.people.begin();
  auto theirs = there.players.begin();
  bool more = stop != nullptr;
  for (;;) {
    const bool have_mine = mine != here.people.end();
    const bool have_theirs = theirs != there.players.end();
    if (!have_mine && !have_theirs) break;
    const bool take_mine = have_mine && (!have_theirs || (*mine)->name <= theirs->name());
    const std::string& name = take_mine ? (*mine)->name : theirs->name();
    if ((stop != nullptr && name > *stop) ||
        static_cast<std::size_t>(list->players_size()) == page_size) {
      more = true;
      break;
    }
    if (take_mine) {
      if (have_theirs && theirs->name() == name) ++theirs;
      *list->add_players() = presence_of(**mine);
      ++mine;
    } else {
      *list->add_players() = std::move(*theirs);
      ++theirs;
    }
  }
  if (more) {
    const bool full = static_cast<std::size_t>(list->players_size()) == page_size;
    list->set_next_after(full || stop == nullptr ? list->players().rbegin()->name() : *stop);
  }
  const std::size_t total =
      request.name().empty() ? players_.people() + there.total : here.matched + there.matched;
  list->set_total(static_cast<std::uint32_t>(total));
  replies_.reply(player, std::move(message));
}

}  // namespace ttt::server
