// RoomRegistry: the rooms this node holds and the seats in them. It opens
// each room (its id, the lobby's terms, its listing and invite code), seats
// players in the rooms it opens for a pairing, an accepted challenge or the
// bot fallback, seats the server's bots (their seat-holders, their
// connections through the host, the searches they share), counts the seats
// each address holds (AddressQuotas), brings back stored games in progress,
// and hears what the rooms say (RoomOwner): a seat left, a listing changed,
// a round recorded, a room closed, a result decided while its player was
// away (kept for the player's next Welcome). Nakama's MatchRegistry is the
// model. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "game/bot_search_queue.hpp"
#include "game/game_room.hpp"
#include "ids.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/account_store.hpp"
#include "lobby/address_quotas.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/invite_codes.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/player_table.hpp"
#include "ttt.pb.h"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot;

// What the registry asks of the lobby around it (the Lobby, or a test's fake).
class RoomHost {
 public:
  virtual ~RoomHost() = default;
  // A bot seat-holder needs a connection as a person's does: the lobby
  // opens one for `house_bot`, speaking for `bot`.
  virtual void connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) = 0;
  // The player sits in a room as a player now (its seat counted already):
  // its challenges end.
  virtual void took_seat(LobbyPlayer& player) = 0;
  // The player has nothing left here (away and out of its seat, or a bot
  // whose game is over): forgotten.
  virtual void forget(SeatId who) = 0;
  // A room changed or recorded a round: it may be over (a draining lobby
  // sends its players on).
  virtual void round_may_be_over(GameRoom& room) = 0;
};

// The terms every room is opened with, and the bots'.
struct RoomTerms {
  std::chrono::milliseconds move_timeout{60'000};     // 0 = no move clock
  std::chrono::milliseconds reconnect_grace{30'000};  // for a person to come back
  std::chrono::milliseconds bot_game_grace{5'000};    // ...in a game against the bot
  std::size_t max_spectators = 100;                   // per room; 0 = no limit
  bool rate_one_address = false;                      // RoomSettings::rate_one_address
  Level fallback_level = Level::Hard;                 // the bot quick match falls back to
  std::chrono::milliseconds bot_budget{200};          // thinking time per bot move
  int bot_threads = 1;                                // searches that run at once
  std::size_t bot_queue = 64;                         // searches waiting; 0 = no cap
  QuotaLimits quotas;                                 // game seats per address
  double chat_per_second = 1.0;                       // a restored player's chat rate
  double chat_burst = 5.0;
};

class RoomRegistry final : public RoomOwner {
 public:
  // Rooms, bots and their timers run on `logic`, the bots' searches on
  // `compute`. room_ids: where room ids come from (null: counting on from
  // the largest restored). The references outlive the registry.
  RoomRegistry(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
               AccountStore& accounts, GameJournal& journal, GameDirectory& directory,
               LogLimiter& log, IdSource* room_ids, PlayerTable& players, InviteCodes& invites,
               RoomHost& host, RoomTerms terms);
  ~RoomRegistry() override;

  RoomRegistry(const RoomRegistry&) = delete;
  RoomRegistry& operator=(const RoomRegistry&) = delete;

  // --- rooms
  // A new room by `settings` and the registry's terms, listed; `id` given
  // for a stored game, else the next.
  std::shared_ptr<GameRoom> open(RoomSettings settings, GameId id = {});
  // The room of game `id` here, or null.
  std::shared_ptr<GameRoom> find(GameId id) const;
  bool contains(GameId id) const { return rooms_.contains(id); }
  // The room whose round is record `record`, or null.
  std::shared_ptr<GameRoom> by_record(RecordId record) const;
  // The room is gone from here (closed, or lost to another node whose
  // players the caller let go): its invite code and listing go with it.
  void drop(GameRoom& room);
  // Room ids counted on from past `largest` (a restart).
  void ids_after(GameId largest);
  // One stored game in progress back in a new room, its people away (held
  // as players until they come back), its bot seated.
  void restore(const GameRecord& game);

  // --- seats for pairings, challenges and the bot
  // Whether a player's side of a game lets it be rated: a person's does
  // unless it says no, a program's only when it asks.
  static bool allows_rating(const LobbyPlayer& player, wire::Rated asked);
  // The player sits in its room as a player: its seat counts against its
  // address until it leaves the seat, and the host hears it (took_seat).
  void took_seat(LobbyPlayer& player);
  // QuickMatchHost::open_pair: `waiting` as X, `player` (if any) as O.
  std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                      LobbyPlayer* player, const MatchRequest& rules,
                                      std::uint32_t request_id);
  // An accepted challenge (both players out of any room): the challenger
  // as X, the challenged as O (answering request_id).
  std::shared_ptr<GameRoom> open_challenge_game(LobbyPlayer& challenger, LobbyPlayer& challenged,
                                                const wire::Challenge& settings,
                                                std::uint32_t request_id);
  // Quick match fell back to the bot: the player as X, the bot of the
  // fallback level as O, by the rules it waited for.
  void play_bot(LobbyPlayer& player, const MatchRequest& rules);
  // The server's bot of `level` sits in `room` on `side`; its searches take
  // `share`'s turns.
  void add_bot(const std::shared_ptr<GameRoom>& room, Level level, wire::Side side,
               const std::string& share);

  // --- seats per address, and the bots' room
  // Why the address may not hold one more seat (against the bot or not),
  // or "" if it may.
  std::string quota_refusal(const std::string& address, bool bot_game) const;
  // The player's seat no longer counts against its address.
  void release_seat(LobbyPlayer& player);
  // Whether the bots' searches are full (no new bot game now).
  bool bots_busy() const { return bot_searches_.busy(); }
  // The bot's house bot is gone (the bot forgotten or let go).
  void drop_bot(SeatId bot) { bots_.erase(bot); }

  // --- what rooms said
  // The results decided while the account's player was away, handed over
  // once (its Welcome tells them).
  std::vector<wire::AwayResult> take_away_results(AccountId account);

  // --- counts and walks (the operator's page, draining, fencing, shutdown)
  std::size_t size() const noexcept { return rooms_.size(); }
  std::size_t bots() const noexcept { return bots_.size(); }
  std::uint64_t games_finished() const noexcept { return games_finished_; }
  std::size_t bot_searches_waiting() const { return bot_searches_.waiting(); }
  std::size_t bot_searches_running() const { return bot_searches_.running(); }
  // Rooms by state ("waiting", "playing", "finished") and board size.
  std::map<std::pair<std::string, int>, std::size_t> by_state() const;
  // Rounds in progress here.
  std::size_t in_progress() const;
  // No room waits for a write.
  bool settled() const;
  // The records of the rooms here: every room's, or only those in progress.
  std::vector<RecordId> records(bool in_progress_only) const;
  // Every room ends without a result (shutdown without a journal that keeps games).
  void abort_all();

  // RoomOwner
  void left_room(GameRoom& room, SeatId who) override;
  void room_changed(GameRoom& room) override;
  void game_recorded(GameRoom& room) override;
  void room_closed(GameRoom& room) override;
  void decided_while_away(AccountId account, wire::AwayResult result) override;

 private:
  // A bot seat-holder for room; its searches take the share's turns.
  LobbyPlayer& add_bot_player(Level level, const std::shared_ptr<GameRoom>& room,
                              const std::string& share);
  const StoredPlayer& bot_account(Level level);

  boost::asio::any_io_executor logic_;
  AccountStore& accounts_;
  GameJournal& journal_;
  GameDirectory& directory_;
  LogLimiter& log_;
  IdSource* room_ids_;
  PlayerTable& players_;
  InviteCodes& invites_;
  RoomHost& host_;
  RoomTerms terms_;
  AddressQuotas quotas_;  // seats held per address
  BotSearchQueue bot_searches_;
  std::map<GameId, std::shared_ptr<GameRoom>> rooms_;  // the rooms this node holds
  std::unordered_map<SeatId, std::shared_ptr<HouseBot>> bots_;
  // Results of games that ended while their player was away, told at the
  // player's next Welcome (in memory: a restart forgets them).
  std::unordered_map<AccountId, std::vector<wire::AwayResult>> away_results_;
  std::uint64_t next_bot_id_ = std::uint64_t{1} << 48;  // bots' seat ids, apart from accounts'
  GameId next_game_id_{1};
  std::uint64_t games_finished_ = 0;
};

}  // namespace ttt::server
