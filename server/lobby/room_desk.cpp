#include "lobby/room_desk.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "game/bot_level_code.hpp"
#include "lobby/text_rules.hpp"
#include "ttt/wire/convert.hpp"
#include "ttt/wire/lobby_limits.hpp"

namespace ttt::server {
namespace {

constexpr int kMinBoardSize = 3;
constexpr int kMaxBoardSize = wire::kMaxLobbySize;

// The spectators one address may be in one game: a tenth of the seats, two
// at least; 0 (no share) when a game takes any number.
std::size_t spectator_share(std::size_t max_spectators) {
  return max_spectators == 0 ? 0 : std::max<std::size_t>(2, max_spectators / 10);
}

}  // namespace

RoomDesk::RoomDesk(RoomRegistry& rooms, InviteCodes& invites, const GameDirectory& directory,
                   const Cluster& cluster, QuickMatch& quick_match, RoomDeskHost& host,
                   AddressChatRate address_chat)
    : rooms_(rooms),
      invites_(invites),
      directory_(directory),
      cluster_(cluster),
      quick_match_(quick_match),
      host_(host),
      address_chat_(address_chat.per_second, address_chat.burst) {}

bool RoomDesk::valid_rules(LobbyPlayer& player, int size, int win_length,
                           std::uint32_t request_id) {
  if (size < kMinBoardSize || size > kMaxBoardSize) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                "board size must be " + std::to_string(kMinBoardSize) + " to " +
                    std::to_string(kMaxBoardSize) + ", got " + std::to_string(size),
                request_id);
    return false;
  }
  if (win_length == 0 || Board::valid_win_length(size, win_length)) return true;
  const std::string side = std::to_string(size);
  host_.error(player, wire::ERROR_CODE_BAD_REQUEST,
              "win length must be " + std::to_string(Board::kMinWinLength) + " to " + side +
                  " on a " + side + "x" + side + " board (0: the whole line), got " +
                  std::to_string(win_length),
              request_id);
  return false;
}

bool RoomDesk::valid_clock(LobbyPlayer& player, const wire::ClockSettings& clock,
                           std::uint32_t request_id) {
  if (clock.initial_ms() == 0 && clock.increment_ms() == 0) return true;
  if (clock.initial_ms() < kMinClockMs || clock.initial_ms() > kMaxClockMs ||
      clock.increment_ms() > kMaxIncrementMs) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                "a clock is 1 s to 180 min for the game plus 0 to 60 s a move, got " +
                    std::to_string(clock.initial_ms()) + " ms + " +
                    std::to_string(clock.increment_ms()) + " ms",
                request_id);
    return false;
  }
  return true;
}

bool RoomDesk::within_quota(LobbyPlayer& player, bool bot_game, std::uint32_t request_id) {
  const std::string refusal = rooms_.quota_refusal(player.address, bot_game);
  if (refusal.empty()) return true;
  host_.error(player, wire::ERROR_CODE_TOO_MANY_GAMES, refusal, request_id);
  return false;
}

bool RoomDesk::may_hold_seat(const LobbyPlayer& player) const {
  return rooms_.quota_refusal(player.address, false).empty();
}

bool RoomDesk::can_enter(LobbyPlayer& player, std::uint32_t request_id) {
  if (host_.shutting_down()) {
    host_.error(player, wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", request_id);
    return false;
  }
  if (host_.draining()) {
    host_.error(player, wire::ERROR_CODE_DRAINING,
                "this node is being drained: it takes no new games (reconnect to play elsewhere)",
                request_id);
    return false;
  }
  if (player.room) {
    host_.error(
        player, wire::ERROR_CODE_ALREADY_IN_GAME,
        "you are already in game " + std::to_string(number(player.room->id())) + ": leave it first",
        request_id);
    return false;
  }
  quick_match_.withdraw(player.id);
  return true;
}

void RoomDesk::create(LobbyPlayer& player, const wire::CreateGame& create,
                      std::uint32_t request_id) {
  if (!valid_rules(player, create.size(), create.win_length(), request_id)) return;
  if (!valid_clock(player, create.clock(), request_id)) return;
  const auto level = wire::level_of(create.bot_level());
  if (create.vs_bot() && !level) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST, "unknown bot level", request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  if (!within_quota(player, create.vs_bot(), request_id)) return;
  if (create.vs_bot() && rooms_.bots_busy()) {
    host_.error(player, wire::ERROR_CODE_BOTS_BUSY,
                "the server's bots are busy thinking for other games: try again in a moment",
                request_id);
    return;
  }
  RoomSettings settings;
  settings.size = create.size();
  settings.win_length = wire::win_length_of(create.size(), create.win_length());
  settings.is_private = create.is_private();
  settings.clock = create.clock();
  settings.vs_bot = create.vs_bot();
  if (create.vs_bot()) settings.bot_level = bot_level_code(*level);
  // Against the server's bot, only when asked: the bot's default is no.
  settings.rated = create.vs_bot() ? create.rated() == wire::RATED_YES
                                   : RoomRegistry::allows_rating(player, create.rated());
  if (settings.is_private) settings.invite_code = invites_.issue();
  settings.origin = player.address;
  auto room = rooms_.open(std::move(settings));
  const wire::Side side = create.side() == wire::SIDE_O ? wire::SIDE_O : wire::SIDE_X;
  player.room = room;
  rooms_.took_seat(player);
  room->seat(player.ref(), side, request_id);
  spdlog::debug("game {} created by {} ({}x{}, {} in a row{}{})", number(room->id()), player.name,
                create.size(), create.size(), room->settings().win_length,
                create.is_private() ? ", private" : "", create.vs_bot() ? ", vs bot" : "");
  if (create.vs_bot()) {
    rooms_.add_bot(room, *level, side == wire::SIDE_X ? wire::SIDE_O : wire::SIDE_X,
                   player.address);
  }
}

void RoomDesk::join(LobbyPlayer& player, const wire::JoinGame& join, std::uint32_t request_id) {
  GameId id{join.game_id()};
  const bool by_code = id == GameId{};
  if (by_code) {
    const auto found =
        invites_.game_of(player, host_.invite_tries(player), join.invite_code(), request_id);
    if (!found) return;
    id = *found;
  }
  auto room = rooms_.find(id);
  if (!room) {
    if (auto listing = directory_.find(id); listing && elsewhere(*listing)) {
      // A code found the game already; a game id alone needs the right code.
      if (!by_code && !invites_.admits(player, host_.invite_tries(player), *listing,
                                       join.invite_code(), request_id)) {
        return;
      }
      if (!can_enter(player, request_id)) return;
      SeatRequest seat;
      seat.kind = SeatRequest::Kind::kJoin;
      seat.game = id;
      seat.rated = join.rated();
      seat.invite_code = join.invite_code();
      host_.seat_elsewhere(player, listing->node, std::move(seat), request_id);
      return;
    }
  }
  if (!room) {
    host_.error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(number(id)),
                request_id);
    return;
  }
  if (host_.seat_kept(id)) {
    host_.error(player, wire::ERROR_CODE_GAME_FULL,
                "game " + std::to_string(number(id)) + " has no free seat (watch it instead)",
                request_id);
    return;
  }
  // A code found the room already; a game id alone needs the right code.
  if (!by_code && !invites_.admits(player, host_.invite_tries(player), id, room->settings(),
                                   join.invite_code(), request_id)) {
    return;
  }
  if (!room->waiting()) {
    host_.error(player, wire::ERROR_CODE_GAME_FULL,
                "game " + std::to_string(number(id)) + " has no free seat (watch it instead)",
                request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  if (!within_quota(player, room->settings().vs_bot, request_id)) return;
  if (!RoomRegistry::allows_rating(player, join.rated())) room->make_unrated();
  player.room = room;
  rooms_.took_seat(player);
  room->seat(player.ref(), wire::SIDE_NONE, request_id);
}

void RoomDesk::spectate(LobbyPlayer& player, const wire::Spectate& spectate,
                        std::uint32_t request_id) {
  auto room = rooms_.find(GameId{spectate.game_id()});
  if (!room) {
    if (auto listing = directory_.find(GameId{spectate.game_id()});
        listing && elsewhere(*listing)) {
      if (!invites_.admits(player, host_.invite_tries(player), *listing, spectate.invite_code(),
                           request_id)) {
        return;
      }
      if (!can_enter(player, request_id)) return;
      SeatRequest seat;
      seat.kind = SeatRequest::Kind::kWatch;
      seat.game = GameId{spectate.game_id()};
      seat.invite_code = spectate.invite_code();
      host_.seat_elsewhere(player, listing->node, std::move(seat), request_id);
      return;
    }
  }
  if (!room) {
    host_.error(player, wire::ERROR_CODE_UNKNOWN_GAME,
                "no game " + std::to_string(spectate.game_id()), request_id);
    return;
  }
  if (!invites_.admits(player, host_.invite_tries(player), room->id(), room->settings(),
                       spectate.invite_code(), request_id)) {
    return;
  }
  if (room->spectators_full()) {
    host_.error(player, wire::ERROR_CODE_SPECTATORS_FULL,
                "game " + std::to_string(number(room->id())) + " has " +
                    std::to_string(room->spectators()) + " spectators, as many as a game takes",
                request_id);
    return;
  }
  // The seats for spectators are shared: one address takes a tenth at most.
  if (const std::size_t share = spectator_share(room->settings().max_spectators);
      share != 0 && !player.address.empty() && room->spectators_from(player.address) >= share) {
    host_.error(player, wire::ERROR_CODE_SPECTATORS_FULL,
                "your address watches game " + std::to_string(number(room->id())) + " " +
                    std::to_string(share) + " times already, as many as one address may",
                request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  player.room = room;
  room->watch(player.ref(), request_id);
}

void RoomDesk::leave(LobbyPlayer& player, std::uint32_t request_id) {
  if (quick_match_.wish_of(player.id) != nullptr) {
    quick_match_.withdraw(player.id);
    wire::ServerMessage message;
    message.set_in_reply_to(request_id);
    message.mutable_left();
    host_.reply(player, std::move(message));
    return;
  }
  auto room = player.room;
  if (!room) {
    host_.error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", request_id);
    return;
  }
  room->leave(player.id, request_id);
}

void RoomDesk::in_room(LobbyPlayer& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  // A local copy: the call may close the room, which drops the player's.
  const std::shared_ptr<GameRoom> room = player.room;
  if (message.has_make_move() && message.make_move().game_id() != 0 &&
      (!room || message.make_move().game_id() != number(room->id()))) {
    const GameId target{message.make_move().game_id()};
    if (rooms_.contains(target)) {
      host_.error(player, wire::ERROR_CODE_NOT_IN_GAME,
                  "you are not a player of game " + std::to_string(number(target)), rid);
    } else {
      host_.error(player, wire::ERROR_CODE_UNKNOWN_GAME,
                  "no game " + std::to_string(number(target)), rid);
    }
    return;
  }
  if (!room) {
    host_.error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", rid);
    return;
  }
  switch (message.body_case()) {
    case wire::ClientMessage::kMakeMove:
      room->move(player.id, message.make_move().row(), message.make_move().col(), rid);
      break;
    case wire::ClientMessage::kResign:
      room->resign(player.id, rid);
      break;
    case wire::ClientMessage::kOfferDraw:
      room->offer_draw(player.id, rid);
      break;
    case wire::ClientMessage::kRematch:
      room->rematch(player.id, rid);
      break;
    case wire::ClientMessage::kDecline:
      room->decline(player.id, rid);
      break;
    default:
      break;
  }
}

void RoomDesk::chat(LobbyPlayer& player, const wire::Chat& chat, std::uint32_t request_id) {
  const std::shared_ptr<GameRoom> room = player.room;
  if (!room) {
    host_.error(player, wire::ERROR_CODE_NOT_IN_GAME,
                "chat goes to a game: join or watch one first", request_id);
    return;
  }
  const std::string& text = chat.text();
  if (text.size() > kMaxChatBytes) {
    host_.error(player, wire::ERROR_CODE_CHAT_TOO_LONG,
                "a chat line is at most " + std::to_string(kMaxChatBytes) + " bytes", request_id);
    return;
  }
  const auto problem =
      text.empty() ? std::optional<std::string>("a chat line is not empty") : chat_problem(text);
  if (problem) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST, *problem, request_id);
    return;
  }
  if (!player.chat_limiter.allow()) {
    host_.error(player, wire::ERROR_CODE_RATE_LIMITED, "too many chat lines: slow down",
                request_id);
    return;
  }
  if (!player.address.empty() && !address_chat_.allow(player.address)) {
    host_.error(player, wire::ERROR_CODE_RATE_LIMITED,
                "too many chat lines from your address: slow down", request_id);
    return;
  }
  room->chat(player.id, text, request_id);
}

void RoomDesk::chat_settings(LobbyPlayer& player, const wire::ChatSettings& settings,
                             std::uint32_t request_id) {
  player.hears_spectators = settings.spectators();
  if (player.room) player.room->set_hears_spectators(player.id, player.hears_spectators);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  message.mutable_chat_settings()->set_spectators(player.hears_spectators);
  host_.reply(player, std::move(message));
}

void RoomDesk::quick_match(LobbyPlayer& player, const wire::QuickMatch& quick,
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
  quick_match_.ask(player, request, request_id);
}

}  // namespace ttt::server
