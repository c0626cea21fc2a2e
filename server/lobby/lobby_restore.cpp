// The Lobby after a restart: the games that were in progress come back with
// their players away (until they reconnect with their resume token) and the
// server's bots in their seats. With several nodes, a node starts with no
// games: each comes back where one of its players returns (GameHoldings).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <unordered_map>

#include "executor_check.hpp"
#include "game/bot_level_code.hpp"
#include "lobby/lobby.hpp"
#include "lobby/text_rules.hpp"
#include "ttt/count_text.hpp"

namespace ttt::server {

void Lobby::restore_game(const GameRecord& g) {
  RoomSettings settings;
  settings.size = g.size;
  settings.win_length = g.win_length;
  settings.is_private = g.is_private;
  settings.invite_code = g.invite_code;
  settings.vs_bot = g.bot_level != kNoBotLevel;
  settings.bot_level = g.bot_level;
  settings.rated = g.rated;
  settings.clock.set_initial_ms(static_cast<std::uint32_t>(g.clock_initial_ms));
  settings.clock.set_increment_ms(static_cast<std::uint32_t>(g.clock_increment_ms));
  auto room = new_room(settings, static_cast<GameId>(g.room_id));
  auto seat = [&](std::int64_t stored_id) -> PlayerRef {
    const StoredPlayer* account = links_.accounts.get(static_cast<AccountId>(stored_id));
    if (account == nullptr) {
      throw std::runtime_error("game " + std::to_string(g.id) + " names unknown player " +
                               std::to_string(stored_id));
    }
    if (account->is_bot) {
      return add_bot_player(level_of_code(g.bot_level), room,
                            "restored game " + std::to_string(g.room_id))
          .ref();
    }
    const SeatId id = seat_of(account_id(*account));
    LobbyPlayer* held = player_of(id);
    if (held == nullptr) {
      auto fresh = std::make_unique<LobbyPlayer>();
      fresh->id = id;
      fresh->account = account_id(*account);
      fresh->name = account->name;
      fresh->key = name_key(account->name);
      held = &players_.add(std::move(fresh));
    }
    LobbyPlayer& player = *held;
    player.room = room;
    player.chat_limiter = RateLimiter(config_.chat_per_second, config_.chat_burst);
    return player.ref();
  };
  std::vector<Move> moves;
  // Each side's time left as its last move left it (the initial time
  // before its first move).
  std::array<std::chrono::milliseconds, 2> clock_left{
      std::chrono::milliseconds(g.clock_initial_ms), std::chrono::milliseconds(g.clock_initial_ms)};
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const StoredMove& m = g.moves[i];
    moves.push_back({m.row, m.col});
    clock_left[i % 2] = std::chrono::milliseconds(m.clock_ms);
  }
  PlayerRef x = seat(g.x_player);
  PlayerRef o = seat(g.o_player);
  // Everyone gets the whole reconnect grace after a restart, even against the bot.
  room->restore(std::move(x), std::move(o), static_cast<std::uint32_t>(g.round), RecordId{g.id},
                moves, config_.reconnect_grace, clock_left);
}

void Lobby::restore(const StoredState& state) {
  // Before serving: no thread runs the logic executor yet, and the one
  // restoring stands in for it (the rooms, bots and callbacks it starts).
  const ExecutorStandIn before_serving;
  next_game_id_ =
      std::max(next_game_id_, GameId{static_cast<std::uint64_t>(state.max_room_id) + 1});
  const std::unordered_map<std::int64_t, std::string> tokens(state.tokens.begin(),
                                                             state.tokens.end());
  for (const GameRecord& g : state.unfinished_games) restore_game(g);
  // Every kept token works again: a seated player takes the seat back, anyone
  // else comes back to the lobby (and asks again for the place it had).
  for (const auto& [account, hash] : tokens) {
    if (links_.accounts.get(static_cast<AccountId>(account)) == nullptr) continue;
    desk_.tokens().restore(seat_of(static_cast<AccountId>(account)), hash);
  }
  if (!state.unfinished_games.empty()) {
    spdlog::info("restored {} in progress; their players have {} ms to come back",
                 count_text(state.unfinished_games.size(), "game", "games"),
                 config_.reconnect_grace.count());
  }
}

}  // namespace ttt::server
