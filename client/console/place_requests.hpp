// PlaceRequests: the requests that put the player in a place (the
// quick-match queue, a game opened, joined or watched), kept so that a place
// a reconnect lost is asked for again: the last place asked for (when a
// restarted server no longer holds it), and an entry whose answer never
// came (a Redirect answered it, or the link dropped first).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "console/command.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class PlaceRequests {
 public:
  // A command's request went out as request id.
  void sent(CommandKind kind, const wire::ClientMessage& request, std::uint32_t id);

  // The game was left: its place is not asked for again.
  void left() noexcept { place_.reset(); }

  // At a Welcome: the entry whose request is still awaited (its id in
  // awaiting), if any. The entry is forgotten either way.
  std::optional<wire::ClientMessage> take_unanswered(const std::set<std::uint32_t>& awaiting);

  // At a Welcome without a game: what to ask for again, given the entry
  // left unanswered and whether the player had a place (a queue, an open
  // game still waiting, a watched game); nullopt for nothing.
  std::optional<wire::ClientMessage> to_ask_again(std::optional<wire::ClientMessage> unanswered,
                                                  bool had_place) const;

  // That request went out again as request id (0: it could not): its Joined
  // says nothing more (see rejoined).
  void asked_again(const wire::ClientMessage& request, std::uint32_t id);

  // Joined game_id: true when it was the game asked for again (its line was
  // said then).
  bool rejoined(std::uint64_t game_id) noexcept;

 private:
  // The last request for a place: asked again after a reconnect.
  std::optional<wire::ClientMessage> place_;
  // The last request for a place or a game to join, with its request id.
  std::optional<std::pair<std::uint32_t, wire::ClientMessage>> entry_;
  // The game asked for again: its Joined says no more.
  std::uint64_t rejoining_ = 0;
};

}  // namespace ttt::client
