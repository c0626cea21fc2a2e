// GameRoom: one game table, the coordinator of its parts: two seats (with
// the reconnect grace period of an absent player), its Spectators, the
// authoritative ttt::Game, its GameClocks and its RoomOffers; it records
// through the journal and speaks to everyone in the room. Rematches replay
// in the same room with sides swapped.
//
// Every method runs on the logic executor. Call a room through a local
// shared_ptr: a call may end in RoomOwner::room_closed, after which the
// owner drops its own reference.
#pragma once

#include <array>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "game/block_book.hpp"
#include "game/game_clocks.hpp"
#include "game/game_journal.hpp"
#include "game/player_ref.hpp"
#include "game/room_offers.hpp"
#include "game/room_outbox.hpp"
#include "game/room_owner.hpp"
#include "game/seat_hold.hpp"
#include "game/spectators.hpp"
#include "ids.hpp"
#include "limits/log_limiter.hpp"
#include "limits/rate_limiter.hpp"
#include "net/participant.hpp"
#include "ttt/game.hpp"

namespace ttt::server {

struct RoomSettings {
  int size = 3;
  int win_length = 0;  // marks in a line that win; 0 = size (whole lines)
  bool is_private = false;
  std::string invite_code;  // non-empty for a private room
  bool vs_bot = false;
  int bot_level = 0;   // bot_level_code (game/bot_level_code.hpp), 0 without the bot
  bool rated = false;  // results change the players' ratings
  // Whether a game between two accounts of one address (an IPv6 /64) may be
  // rated (a club behind one NAT); if not, such a round is unrated.
  bool rate_one_address = false;
  // A Fischer clock (initial_ms 0: none); with one, no move timeout.
  wire::ClockSettings clock;
  std::chrono::milliseconds move_timeout{60'000};     // 0 = no clock
  std::chrono::milliseconds reconnect_grace{30'000};  // shorter in a game against the bot
  std::size_t max_spectators = 0;                     // 0 = no limit
  // The spectators' chat of the room together: a line a second on average.
  double spectator_chat_per_second = 1.0;
  double spectator_chat_burst = 5.0;
  // How often at most everyone hears the spectator count change.
  std::chrono::milliseconds spectator_count_every{1'000};
  std::string origin;  // the creator's address: whose share of the log the room's lines are
};

// What a room reports to and reads from: its owner, its journal and the
// book its players' ratings come from. All outlive the room.
struct RoomDependencies {
  RoomOwner& owner;
  GameJournal& journal;
  RatingBook& ratings;
  LogLimiter* log = nullptr;          // null: every line is logged
  const BlockBook* blocks = nullptr;  // null: nobody blocks anybody
};

class GameRoom : public std::enable_shared_from_this<GameRoom> {
 public:
  GameRoom(GameId id, RoomSettings settings, boost::asio::any_io_executor executor,
           RoomDependencies deps);

  GameId id() const noexcept { return id_; }
  const RoomSettings& settings() const noexcept { return settings_; }
  // A joining player who doesn't allow rating makes the game unrated (before
  // it starts).
  void make_unrated() noexcept { settings_.rated = false; }

  // True while a seat is free and nobody has played.
  bool waiting() const noexcept;
  // True from the moment both seats are filled until the game ends.
  bool in_progress() const noexcept;
  // No write of the room's is waiting for the journal: everything it said
  // has reached its players' queues.
  bool settled() const noexcept { return outbox_.settled(); }
  // True if the player holds a seat (present or away).
  bool is_seated(SeatId who) const noexcept;

  // Seats the player (on `preferred` if free, else the other seat), replies
  // Joined, and starts the game when both seats are filled. Precondition:
  // waiting().
  void seat(PlayerRef player, wire::Side preferred, std::uint32_t request_id);

  // Adds a spectator and replies Joined; the others hear the new count (at
  // most once every spectator_count_every). Precondition: !spectators_full().
  void watch(PlayerRef player, std::uint32_t request_id);
  // True when the room has as many spectators as it takes.
  bool spectators_full() const noexcept;
  std::size_t spectators() const noexcept { return spectators_.size(); }
  // Spectators who connect from this address (key).
  std::size_t spectators_from(const std::string& address) const noexcept;
  // Whether this round changes ratings: the settings', unless both players
  // connect from one address; once the game is settled, whether its
  // result counted (what GameState, the game list and the records say alike).
  bool rated() const noexcept { return started_ ? rated_ : settings_.rated; }

  // The player or spectator leaves; a player resigns a game in progress.
  void leave(SeatId who, std::uint32_t request_id);

  // In-game requests from a seated player (others get an Error).
  void move(SeatId who, int row, int col, std::uint32_t request_id);
  void resign(SeatId who, std::uint32_t request_id);
  void offer_draw(SeatId who, std::uint32_t request_id);
  void rematch(SeatId who, std::uint32_t request_id);
  // Declines the opponent's pending draw offer (else rematch request); told
  // to everyone in the room as an OfferEnded.
  void decline(SeatId who, std::uint32_t request_id);
  // Chat from a player or spectator; the text is already checked. A
  // player's line goes to everyone in the room; a spectator's to the
  // spectators and the players who chose to hear them, within the room's
  // spectator chat limit (else RATE_LIMITED to the sender).
  void chat(SeatId who, const std::string& text, std::uint32_t request_id = 0);
  // Whether a seated player hears the spectators' chat from now on.
  void set_hears_spectators(SeatId who, bool on);

  // The player's connection dropped: a seat in a game in progress is held for
  // the grace period; otherwise the player leaves.
  void away(SeatId who);
  // The player (or a spectator) is back on a new connection: reseated, sent
  // the full state (a Joined answering request_id, the Hello that took the
  // player back).
  void back(const PlayerRef& player, std::uint32_t request_id = 0);

  // Server shutdown: the game ends without a result.
  void abort();

  // Several nodes: another node holds this game now (or ended it). The room
  // says nothing more (what waits in its outbox was never stored: dropped),
  // its clocks stop and it writes nothing more; its owner sends its players
  // to the game's holder. Only the answers of writes in flight still come.
  void lose();
  bool lost() const noexcept { return lost_; }

  // After a restart: seats both players (away until they come back, except
  // bots) in round `round` with the moves already played, and starts the
  // clocks. An away player's seat is held for `grace` this once: the whole
  // reconnect grace even in a game against the bot, whose player was away
  // through no choice of theirs. Precondition: the room is new.
  // With a Fischer clock, clock_left is each side's time left (X, O) as
  // stored; the side to move's runs from now: the restart is not charged.
  void restore(PlayerRef x, PlayerRef o, std::uint32_t round, RecordId record_id,
               const std::vector<Move>& moves, std::chrono::milliseconds grace,
               std::array<std::chrono::milliseconds, 2> clock_left = {});

  // The room as the game list shows it.
  wire::GameSummary summary() const;
  // The accounts seated (AccountId{} for a free seat or a bot): who may see
  // a private room in the list.
  std::array<AccountId, 2> seated_accounts() const noexcept;
  wire::GameStatus status() const noexcept;
  wire::GameState state() const;
  // The same, written into s (a message in an arena, say).
  void fill_state(wire::GameState& s) const;

  const PlayerRef& player(Player side) const noexcept {
    return seats_[side == Player::X ? 0 : 1].player;
  }
  std::uint32_t round() const noexcept { return round_; }
  RecordId record_id() const noexcept { return record_id_; }

 private:
  struct Seat {
    PlayerRef player;  // id 0: free
    SeatHold hold;     // held: the player is away, the seat kept for the grace period
  };
  // A seated player who was away when their game ended.
  struct AwayPlayer {
    AccountId account{};
    Player side{};
    std::string opponent;
  };

  Seat* seat_of(SeatId who) noexcept;
  Seat& seat_for(Player p) noexcept { return seats_[p == Player::X ? 0 : 1]; }
  std::optional<Player> player_side(SeatId who) const noexcept;
  // The seated player's side, or nullopt after replying an Error.
  std::optional<Player> require_player(SeatId who, std::uint32_t request_id);
  // The same, and the game must be in progress.
  std::optional<Player> require_playing(SeatId who, std::uint32_t request_id);

  void start_round();
  // Records the new round and starts its clock.
  void begin_round();
  // Ends the game other than by a move and records it.
  void finish(GameResult result);
  // The game's end with its settlement (held by the rating book until the
  // journal answers).
  GameEnding ending(const GameResult& result);
  // The journal answered for an ending: settles its ratings and counts it;
  // the players who were away at the end get the result when they return.
  void ending_recorded(const GameEnding& ending, bool ok, const std::vector<AwayPlayer>& away);
  std::vector<AwayPlayer> away_players() const;
  void report_away_results(const GameEnding& recorded, const std::vector<AwayPlayer>& away);
  // Ends a pending offer of that kind (if any) and tells the room how.
  void end_offer(wire::OfferKind kind, wire::OfferEnd how);
  // The player is gone (left, or away): every pending offer lapses.
  void offers_lapse_without(Player gone);
  // Tells everyone in the room how an offer ended.
  void announce(const RoomOffers::Ended& ended);
  // Reads both players' ratings from the book (at a seat change or a
  // game's end: ratings change nowhere else).
  void refresh_ratings();
  // Marks the game over (clocks stopped, logged) without recording it.
  void conclude(const GameResult& result);
  void on_move_recorded(bool ok, Player mover, std::uint32_t request_id);
  // A Done for the journal that releases the outbox once every write is in.
  GameJournal::Done write_done(std::function<void(bool)> on_result = {});
  // The player to move ran out of time.
  void on_move_clock();
  void on_grace_expired(SeatId who);
  // Keeps an absent player's seat for the grace period.
  void hold_seat(Seat& seat, std::chrono::milliseconds grace);
  void remove_seat(Seat& seat);
  void close_if_empty();

  void broadcast(const Outbound& message);
  void broadcast_state();
  // Everyone hears how many watch now (Spectators throttles the calls).
  void announce_spectators(std::uint32_t count);
  // A chat line from `speaker` to everyone in the room (a spectator's: to the
  // spectators and the players who hear them), except those who blocked the
  // speaker.
  void broadcast_chat(const Outbound& message, AccountId speaker, bool from_spectator);
  // An info line, within the log's allowance for the room's origin.
  void note(const std::string& line) const;
  // Every message goes through here: held back while a write is in flight.
  void send_to(const PlayerRef& player, const Outbound& message);
  void send_error_to(const PlayerRef& player, wire::ErrorCode code, std::string text,
                     std::uint32_t request_id);
  void send_joined(const PlayerRef& player, wire::Side side, std::uint32_t request_id);
  void tell_opponent(Player about, wire::OpponentStatus status);

  const GameId id_;
  RoomSettings settings_;
  boost::asio::any_io_executor executor_;
  RoomDependencies deps_;

  std::array<Seat, 2> seats_;               // [0] = X, [1] = O
  std::array<double, 2> ratings_{};         // of the seated accounts, as last read
  std::array<double, 2> ratings_before_{};  // as they were when the game ended
  // Why each rating moved less than the result alone would (final state).
  std::array<wire::RatingNote, 2> rating_notes_{};
  int repeat_game_ = 0;                      // the pair's n-th in the window, n > 1
  std::array<int, 2> opponent_varieties_{};  // with RATING_NOTE_FEW_OPPONENTS
  std::array<std::string, 2> last_names_;    // who sat last, for the spectators' goodbye
  Spectators spectators_;
  Game game_;
  bool started_ = false;
  bool rated_ = false;  // rated(): this round's
  std::optional<GameResult> result_;
  std::uint32_t round_ = 1;
  RoomOffers offers_;
  GameClocks clocks_;
  bool closed_ = false;
  bool lost_ = false;  // another node holds the game: the room is silent

  RecordId record_id_{};         // the current round's game in the journal
  bool move_in_flight_ = false;  // a move waits for the journal
  RoomOutbox outbox_;
};

}  // namespace ttt::server
