// The Lobby's games: listing, creating, joining, quick match and its bot
// fallback, watching, leaving, in-game requests and chat, the server's bots,
// and what rooms tell the lobby.
#include <spdlog/spdlog.h>

#include "executor_check.hpp"
#include "game/bot_level_code.hpp"
#include "game/house_bot.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
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

bool Lobby::valid_rules(LobbyPlayer& player, int size, int win_length, std::uint32_t request_id) {
  if (size < kMinBoardSize || size > kMaxBoardSize) {
    error(player, wire::ERROR_CODE_BAD_REQUEST,
          "board size must be " + std::to_string(kMinBoardSize) + " to " +
              std::to_string(kMaxBoardSize) + ", got " + std::to_string(size),
          request_id);
    return false;
  }
  if (win_length == 0 || Board::valid_win_length(size, win_length)) return true;
  const std::string side = std::to_string(size);
  error(player, wire::ERROR_CODE_BAD_REQUEST,
        "win length must be " + std::to_string(Board::kMinWinLength) + " to " + side + " on a " +
            side + "x" + side + " board (0: the whole line), got " + std::to_string(win_length),
        request_id);
  return false;
}

bool Lobby::valid_clock(LobbyPlayer& player, const wire::ClockSettings& clock,
                        std::uint32_t request_id) {
  if (clock.initial_ms() == 0 && clock.increment_ms() == 0) return true;
  if (clock.initial_ms() < kMinClockMs || clock.initial_ms() > kMaxClockMs ||
      clock.increment_ms() > kMaxIncrementMs) {
    error(player, wire::ERROR_CODE_BAD_REQUEST,
          "a clock is 1 s to 180 min for the game plus 0 to 60 s a move, got " +
              std::to_string(clock.initial_ms()) + " ms + " + std::to_string(clock.increment_ms()) +
              " ms",
          request_id);
    return false;
  }
  return true;
}

bool Lobby::within_quota(LobbyPlayer& player, bool bot_game, std::uint32_t request_id) {
  const std::string refusal = rooms_.quota_refusal(player.address, bot_game);
  if (refusal.empty()) return true;
  error(player, wire::ERROR_CODE_TOO_MANY_GAMES, refusal, request_id);
  return false;
}

bool Lobby::may_hold_seat(const LobbyPlayer& player) const {
  return rooms_.quota_refusal(player.address, false).empty();
}

void Lobby::took_seat(LobbyPlayer& player) { challenges_.end_all_of(player); }

bool Lobby::can_enter(LobbyPlayer& player, std::uint32_t request_id) {
  if (shutting_down_) {
    error(player, wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", request_id);
    return false;
  }
  if (draining()) {
    error(player, wire::ERROR_CODE_DRAINING,
          "this node is being drained: it takes no new games (reconnect to play elsewhere)",
          request_id);
    return false;
  }
  if (player.room) {
    error(
        player, wire::ERROR_CODE_ALREADY_IN_GAME,
        "you are already in game " + std::to_string(number(player.room->id())) + ": leave it first",
        request_id);
    return false;
  }
  quick_match_.withdraw(player.id);
  return true;
}

void Lobby::create_game(LobbyPlayer& player, const wire::CreateGame& create,
                        std::uint32_t request_id) {
  if (!valid_rules(player, create.size(), create.win_length(), request_id)) return;
  if (!valid_clock(player, create.clock(), request_id)) return;
  const auto level = wire::level_of(create.bot_level());
  if (create.vs_bot() && !level) {
    error(player, wire::ERROR_CODE_BAD_REQUEST, "unknown bot level", request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  if (!within_quota(player, create.vs_bot(), request_id)) return;
  if (create.vs_bot() && rooms_.bots_busy()) {
    error(player, wire::ERROR_CODE_BOTS_BUSY,
          "the server's bots are busy thinking for other games: try again in a moment", request_id);
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

void Lobby::join_game(LobbyPlayer& player, const wire::JoinGame& join, std::uint32_t request_id) {
  GameId id{join.game_id()};
  const bool by_code = id == GameId{};
  if (by_code) {
    const auto found =
        invites_.game_of(player, invite_tries(player), join.invite_code(), request_id);
    if (!found) return;
    id = *found;
  }
  auto room = find_room(id);
  if (!room) {
    if (auto listing = links_.directory.find(id); listing && elsewhere(*listing)) {
      // A code found the game already; a game id alone needs the right code.
      if (!by_code && !invites_.admits(player, invite_tries(player), *listing, join.invite_code(),
                                       request_id)) {
        return;
      }
      if (!can_enter(player, request_id)) return;
      SeatRequest seat;
      seat.kind = SeatRequest::Kind::kJoin;
      seat.game = id;
      seat.rated = join.rated();
      seat.invite_code = join.invite_code();
      router_.seat_elsewhere(player, listing->node, std::move(seat), request_id);
      return;
    }
  }
  if (!room) {
    error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(number(id)),
          request_id);
    return;
  }
  if (router_.seat_kept(id)) {
    error(player, wire::ERROR_CODE_GAME_FULL,
          "game " + std::to_string(number(id)) + " has no free seat (watch it instead)",
          request_id);
    return;
  }
  // A code found the room already; a game id alone needs the right code.
  if (!by_code && !invites_.admits(player, invite_tries(player), id, room->settings(),
                                   join.invite_code(), request_id)) {
    return;
  }
  if (!room->waiting()) {
    error(player, wire::ERROR_CODE_GAME_FULL,
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

void Lobby::spectate(LobbyPlayer& player, const wire::Spectate& spectate,
                     std::uint32_t request_id) {
  auto room = find_room(GameId{spectate.game_id()});
  if (!room) {
    if (auto listing = links_.directory.find(GameId{spectate.game_id()});
        listing && elsewhere(*listing)) {
      if (!invites_.admits(player, invite_tries(player), *listing, spectate.invite_code(),
                           request_id)) {
        return;
      }
      if (!can_enter(player, request_id)) return;
      SeatRequest seat;
      seat.kind = SeatRequest::Kind::kWatch;
      seat.game = GameId{spectate.game_id()};
      seat.invite_code = spectate.invite_code();
      router_.seat_elsewhere(player, listing->node, std::move(seat), request_id);
      return;
    }
  }
  if (!room) {
    error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(spectate.game_id()),
          request_id);
    return;
  }
  if (!invites_.admits(player, invite_tries(player), room->id(), room->settings(),
                       spectate.invite_code(), request_id)) {
    return;
  }
  if (room->spectators_full()) {
    error(player, wire::ERROR_CODE_SPECTATORS_FULL,
          "game " + std::to_string(number(room->id())) + " has " +
              std::to_string(room->spectators()) + " spectators, as many as a game takes",
          request_id);
    return;
  }
  // The seats for spectators are shared: one address takes a tenth at most.
  if (const std::size_t share = spectator_share(room->settings().max_spectators);
      share != 0 && !player.address.empty() && room->spectators_from(player.address) >= share) {
    error(player, wire::ERROR_CODE_SPECTATORS_FULL,
          "your address watches game " + std::to_string(number(room->id())) + " " +
              std::to_string(share) + " times already, as many as one address may",
          request_id);
    return;
  }
  if (!can_enter(player, request_id)) return;
  player.room = room;
  room->watch(player.ref(), request_id);
}

void Lobby::leave(LobbyPlayer& player, std::uint32_t request_id) {
  if (quick_match_.wish_of(player.id) != nullptr) {
    quick_match_.withdraw(player.id);
    wire::ServerMessage message;
    message.set_in_reply_to(request_id);
    message.mutable_left();
    reply(player, std::move(message));
    return;
  }
  auto room = player.room;
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", request_id);
    return;
  }
  room->leave(player.id, request_id);
}

void Lobby::in_room(LobbyPlayer& player, const wire::ClientMessage& message) {
  const std::uint32_t rid = message.request_id();
  // A local copy: the call may close the room, which drops the player's.
  const std::shared_ptr<GameRoom> room = player.room;
  if (message.has_make_move() && message.make_move().game_id() != 0 &&
      (!room || message.make_move().game_id() != number(room->id()))) {
    const GameId target{message.make_move().game_id()};
    if (rooms_.contains(target)) {
      error(player, wire::ERROR_CODE_NOT_IN_GAME,
            "you are not a player of game " + std::to_string(number(target)), rid);
    } else {
      error(player, wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(number(target)),
            rid);
    }
    return;
  }
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "you are not in a game", rid);
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

void Lobby::chat(LobbyPlayer& player, const wire::Chat& chat, std::uint32_t request_id) {
  const std::shared_ptr<GameRoom> room = player.room;
  if (!room) {
    error(player, wire::ERROR_CODE_NOT_IN_GAME, "chat goes to a game: join or watch one first",
          request_id);
    return;
  }
  const std::string& text = chat.text();
  if (text.size() > kMaxChatBytes) {
    error(player, wire::ERROR_CODE_CHAT_TOO_LONG,
          "a chat line is at most " + std::to_string(kMaxChatBytes) + " bytes", request_id);
    return;
  }
  const auto problem =
      text.empty() ? std::optional<std::string>("a chat line is not empty") : chat_problem(text);
  if (problem) {
    error(player, wire::ERROR_CODE_BAD_REQUEST, *problem, request_id);
    return;
  }
  if (!player.chat_limiter.allow()) {
    error(player, wire::ERROR_CODE_RATE_LIMITED, "too many chat lines: slow down", request_id);
    return;
  }
  if (!player.address.empty() && !address_chat_.allow(player.address)) {
    error(player, wire::ERROR_CODE_RATE_LIMITED, "too many chat lines from your address: slow down",
          request_id);
    return;
  }
  room->chat(player.id, text, request_id);
}

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
  quick_match_.ask(player, request, request_id);
}

std::shared_ptr<GameRoom> Lobby::open_challenge_game(LobbyPlayer& challenger,
                                                     LobbyPlayer& challenged,
                                                     const wire::Challenge& settings,
                                                     std::uint32_t request_id) {
  // Both leave what they watch or wait for: the game starts now.
  for (LobbyPlayer* p : {&challenger, &challenged}) {
    quick_match_.withdraw(p->id);
    if (auto watched = p->room) watched->leave(p->id, 0);
  }
  return rooms_.open_challenge_game(challenger, challenged, settings, request_id);
}

std::shared_ptr<GameRoom> Lobby::open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                           LobbyPlayer* player, const MatchRequest& rules,
                                           std::uint32_t request_id) {
  return rooms_.open_pair(waiting, waiting_rated, player, rules, request_id);
}

void Lobby::send_to_seat(LobbyPlayer& player, const NodeInfo& node, const std::string& reservation,
                         GameId game, const std::string& reason) {
  if (player.inbox == nullptr) return;
  router_.redirect(*static_cast<Connection*>(player.inbox), node, reservation, game, reason);
}

bool Lobby::bot_free_for(const LobbyPlayer& player) {
  return rooms_.quota_refusal(player.address, true).empty() && !rooms_.bots_busy();
}

void Lobby::play_bot(LobbyPlayer& player, const MatchRequest& rules) {
  rooms_.play_bot(player, rules);
}

// --- RoomHost -------------------------------------------------------------------

void Lobby::connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) {
  auto connection = std::static_pointer_cast<Connection>(open(house_bot, ""));
  house_bot->attach(connection);
  bot.inbox = connection.get();
  connection->player = &bot;
}

void Lobby::round_may_be_over(GameRoom& room) {
  if (draining()) send_on_after_game(room);
}

}  // namespace ttt::server
