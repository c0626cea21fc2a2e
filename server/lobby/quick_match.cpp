#include "lobby/quick_match.hpp"

#include <boost/asio/post.hpp>
#include <utility>
#include <vector>

namespace ttt::server {
namespace {

// A few tries when other nodes refuse the seats they were asked for.
constexpr int kMostRefused = 5;
// A player paired with but gone meanwhile makes way for the next: its entry
// is out of the queue now, so each such try gets further; past this many,
// the request gives up rather than wait in no queue.
constexpr int kMostGone = 256;

bool same_rules(const MatchRequest& a, const MatchRequest& b) {
  return a.size == b.size && a.win_length == b.win_length &&
         a.clock_initial_ms == b.clock_initial_ms && a.clock_increment_ms == b.clock_increment_ms;
}

// Whether the player can still be paired: known, connected, in no room.
bool free_to_pair(const LobbyPlayer* player) {
  return player != nullptr && !player->participant.expired() && !player->room;
}

}  // namespace

QuickMatch::QuickMatch(boost::asio::any_io_executor logic, Matchmaker& matchmaker, Cluster& cluster,
                       QuickMatchHost& host, std::chrono::milliseconds fallback)
    : logic_(std::move(logic)),
      matchmaker_(matchmaker),
      cluster_(cluster),
      host_(host),
      fallback_(fallback) {}

void QuickMatch::ask(LobbyPlayer& player, const MatchRequest& request, std::uint32_t request_id) {
  last_rated_[player.id] = request.rated;
  try_match(player.id, request, request_id, {});
}

const MatchRequest* QuickMatch::wish_of(SeatId who) const {
  const auto it = waiting_.find(who);
  return it == waiting_.end() ? nullptr : &it->second.request;
}

void QuickMatch::withdraw(SeatId who) {
  if (!waiting_.contains(who)) return;
  matchmaker_.cancel(who);
  drop_wish(who);
}

void QuickMatch::forget(SeatId who) {
  withdraw(who);
  matchmaker_.cancel(who);
  last_rated_.erase(who);
}

QuickMatch::Waiting* QuickMatch::waiting_by(SeatId id, int size, int win_length,
                                            std::uint32_t clock_initial_ms,
                                            std::uint32_t clock_increment_ms) {
  const auto it = waiting_.find(id);
  if (it == waiting_.end()) return nullptr;
  MatchRequest rules;
  rules.size = size;
  rules.win_length = win_length;
  rules.clock_initial_ms = clock_initial_ms;
  rules.clock_increment_ms = clock_increment_ms;
  return same_rules(it->second.request, rules) ? &it->second : nullptr;
}

void QuickMatch::try_match(SeatId id, MatchRequest request, std::uint32_t request_id, Tries tries) {
  matchmaker_.match(request, [this, id, request, request_id, tries](const MatchOutcome& outcome) {
    LobbyPlayer* player = host_.player_of(id);
    if (!free_to_pair(player)) {
      // Gone (or seated) meanwhile: its wish goes with it.
      if (!outcome.paired && outcome.available) matchmaker_.cancel(id);
      return;
    }
    if (!outcome.available) {
      host_.error(*player, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                  "quick match can't reach the lobby's other nodes now: try again in a moment",
                  request_id);
      return;
    }
    if (!outcome.paired) {
      now_waiting(*player, request, request_id);
      return;
    }
    const MatchRequest& paired = *outcome.paired;
    if (!paired.node.empty() && paired.node != cluster_.self().id) {
      pair_elsewhere(*player, paired, request, request_id, tries);
      return;
    }
    LobbyPlayer* other = host_.player_of(paired.player_id);
    Waiting* wish = waiting_by(paired.player_id, request.size, request.win_length,
                               request.clock_initial_ms, request.clock_increment_ms);
    if (other == nullptr || wish == nullptr || other->participant.expired()) {
      // Gone meanwhile: the next one is tried (posted, so that a long line
      // of them does not nest calls). The player is told it waits only
      // when the queues hold it.
      if (tries.gone + 1 < kMostGone) {
        Tries next = tries;
        ++next.gone;
        boost::asio::post(logic_, [this, id, request, request_id, next] {
          try_match(id, request, request_id, next);
        });
      } else {
        host_.error(*player, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                    "no pairing could be made now: try again", request_id);
      }
      return;
    }
    const wire::Rated other_rated = wish->request.rated;
    drop_wish(paired.player_id);
    drop_wish(id);
    host_.open_pair(*other, other_rated, player, request, request_id);
  });
}

void QuickMatch::pair_elsewhere(LobbyPlayer& player, const MatchRequest& paired,
                                const MatchRequest& request, std::uint32_t request_id,
                                Tries tries) {
  // Waiting at another node: a seat is kept there and the player sent to it.
  SeatRequest seat;
  seat.kind = SeatRequest::Kind::kPair;
  seat.waiting = paired.player_id;
  seat.rated = request.rated;
  seat.size = request.size;
  seat.win_length = request.win_length;
  seat.clock.set_initial_ms(request.clock_initial_ms);
  seat.clock.set_increment_ms(request.clock_increment_ms);
  seat.account = player.account;
  seat.name = player.name;
  seat.program = player.program;
  seat.address = player.address;
  const SeatId id = player.id;
  cluster_.request_seat(
      paired.node, seat,
      [this, id, request, request_id, tries, node = paired.node](const SeatReply& answer) {
        LobbyPlayer* asker = host_.player_of(id);
        if (!free_to_pair(asker)) return;
        auto there = cluster_.node(node);
        if (answer.reservation.empty() || !there) {
          if (tries.refused + 1 < kMostRefused) {
            Tries next = tries;
            ++next.refused;
            try_match(id, request, request_id, next);
          } else {
            host_.error(*asker, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                        "no pairing could be made now: try again", request_id);
          }
          return;
        }
        host_.send_to_seat(*asker, *there, answer.reservation, answer.game,
                           "paired: game " + std::to_string(number(answer.game)) + " is at node " +
                               there->host + ":" + std::to_string(there->port));
      });
}

void QuickMatch::now_waiting(LobbyPlayer& player, const MatchRequest& request,
                             std::uint32_t request_id) {
  drop_wish(player.id);
  Waiting& waiting = waiting_[player.id];
  waiting.request = request;
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Queued* queued = message.mutable_queued();
  queued->set_size(request.size);
  queued->set_win_length(request.win_length);
  if (request.clock_initial_ms != 0) {
    queued->mutable_clock()->set_initial_ms(request.clock_initial_ms);
    queued->mutable_clock()->set_increment_ms(request.clock_increment_ms);
  }
  queued->set_bot_fallback_s(static_cast<std::uint32_t>((fallback_.count() + 999) / 1000));
  host_.reply(player, std::move(message));
  if (fallback_.count() > 0) {
    waiting.fallback = std::make_unique<boost::asio::steady_timer>(logic_);
    waiting.generation = ++generations_;
    arm_fallback(player.id, waiting);
  }
}

void QuickMatch::arm_fallback(SeatId id, Waiting& waiting) {
  waiting.fallback->expires_after(fallback_);
  // A wish replaced or withdrawn meanwhile is not this timer's any more.
  waiting.fallback->async_wait(
      [this, id, generation = waiting.generation](boost::system::error_code ec) {
        if (ec) return;
        const auto it = waiting_.find(id);
        if (it == waiting_.end() || it->second.generation != generation) return;
        fallback_due(id);
      });
}

void QuickMatch::fallback_due(SeatId id) {
  LobbyPlayer* player = host_.player_of(id);
  Waiting& waiting = waiting_.at(id);
  if (player == nullptr || stopped_) return;
  if (waiting.paired_elsewhere) {
    const MatchRequest request = waiting.request;
    drop_wish(id);
    try_match(id, request, 0, {});
    return;
  }
  if (!host_.bot_free_for(*player)) {
    // No bot for now (the address plays enough of them, or they are busy):
    // the player waits on for a human, and the bot is asked again later.
    arm_fallback(id, waiting);
    return;
  }
  // Out of the queue first: if another node paired it meanwhile, that
  // node's seat request is on its way, and there is no bot game.
  const MatchRequest rules = waiting.request;
  matchmaker_.cancel(id, [this, id, rules, generation = waiting.generation](bool was_waiting) {
    LobbyPlayer* still = host_.player_of(id);
    const auto it = waiting_.find(id);
    if (!free_to_pair(still) || it == waiting_.end() || it->second.generation != generation) {
      return;
    }
    if (!was_waiting) {
      // Paired meanwhile by another node, whose seat request is on its
      // way. If none seats the player within another fallback time (that
      // node went away), it asks the queues again rather than wait in none.
      it->second.paired_elsewhere = true;
      arm_fallback(id, it->second);
      return;
    }
    waiting_.erase(it);
    host_.play_bot(*still, rules);
  });
}

std::shared_ptr<GameRoom> QuickMatch::seat_for_newcomer(const SeatRequest& request) {
  LobbyPlayer* waiting = host_.player_of(request.waiting);
  Waiting* wish = waiting_by(request.waiting, request.size, request.win_length,
                             request.clock.initial_ms(), request.clock.increment_ms());
  if (!free_to_pair(waiting) || wish == nullptr) return nullptr;
  const MatchRequest rules = wish->request;
  // Out of the shared queue already: the node that paired it took it out.
  drop_wish(request.waiting);
  return host_.open_pair(*waiting, rules.rated, nullptr, rules, 0);
}

void QuickMatch::wait_again(SeatId waiting, const SeatRequest& request) {
  LobbyPlayer* player = host_.player_of(waiting);
  if (!free_to_pair(player)) return;
  const auto rated = last_rated_.find(waiting);
  MatchRequest again{player->id,
                     player->account,
                     player->name,
                     player->program,
                     "",
                     request.size,
                     request.win_length,
                     rated == last_rated_.end() ? wire::RATED_DEFAULT : rated->second,
                     request.clock.initial_ms(),
                     request.clock.increment_ms()};
  try_match(waiting, std::move(again), 0, {});
}

void QuickMatch::ask_again_all() {
  std::vector<MatchRequest> again;
  for (const auto& [id, waiting] : waiting_) {
    if (free_to_pair(host_.player_of(id))) again.push_back(waiting.request);
  }
  // Each waits again, at the back (its fallback timer starts over).
  for (const MatchRequest& request : again) try_match(request.player_id, request, 0, {});
}

void QuickMatch::stop() {
  stopped_ = true;
  for (auto& [id, waiting] : waiting_) {
    if (waiting.fallback) waiting.fallback->cancel();
  }
}

void QuickMatch::drop_wish(SeatId who) {
  const auto it = waiting_.find(who);
  if (it == waiting_.end()) return;
  if (it->second.fallback) it->second.fallback->cancel();
  waiting_.erase(it);
}

}  // namespace ttt::server
