// TypedMoves: the moves the player typed and the server has not taken yet.
// Moves typed before the player's turn wait for it (a script can type a
// whole game ahead) and go one at a time, each checked against the board
// first; one is in flight until the server answers, and one unanswered for
// long is said to be waiting. Moves typed while the link is down wait for
// it, and are dropped if the position changed meanwhile.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "console/current_game.hpp"
#include "console/request_sender.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class TypedMoves {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Moves for `game` (read as it is now) go to sender.
  TypedMoves(Terminal& terminal, const CurrentGame& game, RequestSender& sender)
      : terminal_(terminal), game_(game), sender_(sender) {}

  // A move typed with the link up. Out of a game it waits when one is on
  // its way (game_coming: a reply is due, or a place in the queue);
  // otherwise a move that can't be played now is refused in one line. True
  // when it went onto the game's queue (and maybe to the server).
  bool type(const std::string& text, bool game_coming);

  // A move typed while the link is down, in a game whose seat is held:
  // pending until the link is back.
  void type_while_down(const std::string& text);

  // Sends the first waiting move that is legal now, on our turn with no
  // move in flight; the illegal ones before it are said and dropped.
  void play();

  // Back in the game after a reconnect: the moves typed while the link was
  // down are sent if the position is as it was, else dropped (said).
  void check_after_resume(const wire::GameState& state);

  // The server refused request (an Error in reply): if it was the move in
  // flight, the next may go.
  void refused(std::uint32_t request) noexcept;
  // The move in flight is answered (the game moved on) or lost with the link.
  void forget_in_flight() noexcept { in_flight_ = 0; }
  // The waiting moves are dropped (the game was left or lost).
  void clear() noexcept { waiting_.clear(); }

  // No move waits.
  bool empty() const noexcept { return waiting_.empty(); }
  // A move was sent and not answered yet.
  bool in_flight() const noexcept { return in_flight_ != 0; }

  // Once a second: a move unanswered for kAnswerWait is said to be waiting.
  void tick(time_point now);

  // A move without an answer this long is said to be waiting.
  static constexpr std::chrono::milliseconds kAnswerWait{2'000};

 private:
  void say(const std::string& line);

  Terminal& terminal_;
  const CurrentGame& game_;
  RequestSender& sender_;
  std::deque<std::string> waiting_;  // typed, not sent yet
  std::uint32_t in_flight_ = 0;      // the request of the move sent; 0 = none
  time_point sent_at_{};
  bool wait_said_ = false;  // the move in flight was said to be waiting
  // The position (round, moves) when moves were typed with the link down.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> typed_down_at_;
};

}  // namespace ttt::client
