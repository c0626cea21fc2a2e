// The Lobby's quick match: a wish for a board size, win length and clock,
// paired by the Matchmaker (here, or in Redis across nodes: a player waiting
// at another node is met there, through a seat kept for this one), the
// wait and the bot that steps in after --bot-fallback.
#include <spdlog/spdlog.h>

#include "game/bot_level_code.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "net/replies.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {

void Lobby::quick_match(LobbyPlayer& player, const wire::QuickMatch& quick,
                        std::uint32_t request_id) {
  if (!valid_rules(player, quick.size(), quick.win_length(), request_id)) return;
  if (!valid_clock(player, quick.clock(), request_id)) return;
  if (!can_enter(player, request_id)) return;
  if (!within_quota(player, false, request_id)) return;
  MatchRequest request{player.id,
                       player.account,
                       player.name,
                       player.program,
                       "",
                       quick.size(),
                       wire::win_length_of(quick.size(), quick.win_length()),
                       quick.rated(),
                       quick.clock().initial_ms(),
                       quick.clock().increment_ms()};
  try_match(player.id, std::move(request), request_id, 0);
}

void Lobby::try_match(SeatId id, MatchRequest request, std::uint32_t request_id, int attempt) {
  // A few tries: a player paired with but gone meanwhile makes way for the next.
  constexpr int kAttempts = 5;
  links_.matchmaker.match(request, [this, id, request, request_id,
                                    attempt](const MatchOutcome& outcome) {
    LobbyPlayer* player = player_of(id);
    if (player == nullptr || player->conn.expired() || player->room) {
      // Gone (or seated) meanwhile: its wish goes with it.
      if (!outcome.paired && outcome.available) links_.matchmaker.cancel(id);
      return;
    }
    if (!outcome.available) {
      error(*player, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
            "quick match can't reach the lobby's other nodes now: try again in a moment",
            request_id);
      return;
    }
    if (!outcome.paired) {
      now_queued(*player, request, request_id);
      return;
    }
    const MatchRequest& paired = *outcome.paired;
    if (!paired.node.empty() && paired.node != cluster().self().id) {
      // Waiting at another node: a seat is kept there and the player sent to it.
      SeatRequest seat;
      seat.kind = SeatRequest::Kind::kPair;
      seat.waiting = paired.player;
      seat.rated = request.rated;
      seat.size = request.size;
      seat.win_length = request.win_length;
      seat.clock.set_initial_ms(request.clock_initial_ms);
      seat.clock.set_increment_ms(request.clock_increment_ms);
      seat.account = player->account;
      seat.name = player->name;
      seat.program = player->program;
      seat.address = player->address;
      cluster().request_seat(
          paired.node, seat,
          [this, id, request, request_id, attempt, node = paired.node](const SeatReply& answer) {
            LobbyPlayer* asker = player_of(id);
            if (asker == nullptr || asker->connection == nullptr || asker->room) return;
            auto there = cluster().node(node);
            if (answer.reservation.empty() || !there) {
              if (attempt + 1 < kAttempts) {
                try_match(id, request, request_id, attempt + 1);
              } else {
                error(*asker, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                      "no pairing could be made now: try again", request_id);
              }
              return;
            }
            redirect(*static_cast<Connection*>(asker->connection), *there, answer.reservation,
                     answer.game,
                     "paired: game " + std::to_string(answer.game) + " is at node " + there->host +
                         ":" + std::to_string(there->port));
          });
      return;
    }
    LobbyPlayer* waiting = player_of(paired.player);
    if (waiting == nullptr || waiting->queued_size != request.size ||
        waiting->queued_win_length != request.win_length ||
        waiting->queued_clock.initial_ms() != request.clock_initial_ms ||
        waiting->queued_clock.increment_ms() != request.clock_increment_ms ||
        waiting->conn.expired()) {
      // Gone meanwhile: try the next one.
      if (attempt + 1 < kAttempts) {
        try_match(id, request, request_id, attempt + 1);
      } else {
        now_queued(*player, request, request_id);
      }
      return;
    }
    pair_here(*player, *waiting, request, request_id);
  });
}

void Lobby::pair_here(LobbyPlayer& player, LobbyPlayer& waiting, const MatchRequest& request,
                      std::uint32_t request_id) {
  waiting.queued_size = 0;
  waiting.queued_win_length = 0;
  waiting.queued_clock.Clear();
  waiting.fallback.reset();
  RoomSettings settings;
  settings.size = request.size;
  settings.win_length = request.win_length;
  settings.clock.set_initial_ms(request.clock_initial_ms);
  settings.clock.set_increment_ms(request.clock_increment_ms);
  settings.rated =
      allows_rating(waiting, waiting.queued_rated) && allows_rating(player, request.rated);
  settings.origin = waiting.address;
  auto room = new_room(std::move(settings));
  waiting.room = room;
  player.room = room;
  took_seat(waiting);
  took_seat(player);
  room->seat(waiting.ref(), wire::SIDE_X, 0);
  room->seat(player.ref(), wire::SIDE_O, request_id);
}

void Lobby::now_queued(LobbyPlayer& player, const MatchRequest& request, std::uint32_t request_id) {
  const int size = request.size;
  const int win_length = request.win_length;
  player.queued_size = size;
  player.queued_win_length = win_length;
  player.queued_rated = request.rated;
  player.queued_clock.set_initial_ms(request.clock_initial_ms);
  player.queued_clock.set_increment_ms(request.clock_increment_ms);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  message.mutable_queued()->set_size(size);
  message.mutable_queued()->set_win_length(win_length);
  if (request.clock_initial_ms != 0)
    *message.mutable_queued()->mutable_clock() = player.queued_clock;
  message.mutable_queued()->set_bot_fallback_s(
      static_cast<std::uint32_t>((config_.bot_fallback.count() + 999) / 1000));
  reply(player, std::move(message));
  if (config_.bot_fallback.count() > 0) {
    player.fallback =
        std::make_unique<boost::asio::steady_timer>(links_.logic, config_.bot_fallback);
    player.fallback->async_wait(
        [this, id = player.id, size, win_length](boost::system::error_code ec) {
          if (!ec) on_fallback_timer(id, size, win_length);
        });
  }
}

void Lobby::on_fallback_timer(SeatId id, int size, int win_length) {
  LobbyPlayer* player = player_of(id);
  if (player == nullptr || player->queued_size != size || player->queued_win_length != win_length ||
      shutting_down_) {
    return;
  }
  if (!quotas_.refusal(player->address, true).empty() || bot_searches_.busy()) {
    // No bot for now (the address plays enough of them, or they are busy):
    // the player waits on for a human, and the bot is asked again later.
    player->fallback->expires_after(config_.bot_fallback);
    player->fallback->async_wait([this, id, size, win_length](boost::system::error_code ec) {
      if (!ec) on_fallback_timer(id, size, win_length);
    });
    return;
  }
  const wire::ClockSettings clock = player->queued_clock;
  if (cluster().shared()) {
    // Out of the shared queue first: if another node paired it meanwhile,
    // that node's seat request is on its way, and there is no bot game.
    links_.matchmaker.cancel(id, [this, id, size, win_length, clock](bool was_waiting) {
      LobbyPlayer* still = player_of(id);
      if (!was_waiting || still == nullptr || still->queued_size != size || still->room) return;
      still->queued_size = 0;
      still->queued_win_length = 0;
      still->queued_clock.Clear();
      bot_fallback(*still, size, win_length, clock);
    });
    return;
  }
  unqueue(*player);
  bot_fallback(*player, size, win_length, clock);
}

void Lobby::bot_fallback(LobbyPlayer& player_ref, int size, int win_length,
                         const wire::ClockSettings& clock) {
  LobbyPlayer* player = &player_ref;
  RoomSettings settings;
  settings.size = size;
  settings.win_length = win_length;
  settings.clock = clock;  // the bot plays the clock the player asked for
  settings.vs_bot = true;
  settings.bot_level = bot_level_code(config_.fallback_level);
  settings.origin = player->address;
  auto room = new_room(std::move(settings));
  player->room = room;
  took_seat(*player);
  room->seat(player->ref(), wire::SIDE_X, 0);
  add_bot(room, config_.fallback_level, wire::SIDE_O, player->address);
}

void Lobby::unqueue(LobbyPlayer& player) {
  if (player.queued_size == 0) return;
  links_.matchmaker.cancel(player.id);
  player.queued_size = 0;
  player.queued_win_length = 0;
  player.queued_clock.Clear();
  // A timer that already fired finds the player no longer queued.
  if (player.fallback) player.fallback->cancel();
}

}  // namespace ttt::server
