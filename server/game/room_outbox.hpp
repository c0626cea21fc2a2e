// RoomOutbox: what a room says while its writes to the journal are in
// flight, held back until the journal has them all, so that nobody hears
// of a move the store may yet refuse. The messages that announce a move in
// flight are marked: a refused move takes them back, and only them.
// On the room's executor only.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "net/participant.hpp"

namespace ttt::server {

class RoomOutbox {
 public:
  // A write to the journal begins; messages are held until it ends.
  void write_started() noexcept { ++writes_in_flight_; }
  // A write ended (once settled, flush delivers what was held).
  void write_ended() noexcept { --writes_in_flight_; }
  // No write is in flight: messages go out at once.
  bool settled() const noexcept { return writes_in_flight_ == 0; }

  // Sends the message to `to` now, or holds it while a write is in flight.
  void send(const std::weak_ptr<Participant>& to, const Outbound& message);
  // Where the messages said from now on start (for mark_move).
  std::size_t mark() const noexcept { return held_.size(); }
  // The messages said since `from` announce the move in flight.
  void mark_move(std::size_t from) noexcept { move_messages_ = {from, held_.size()}; }
  // The move in flight was refused: the messages that announced it are
  // dropped; whatever else was said meanwhile stays.
  void take_back_move();
  // Delivers everything held, in order.
  void flush();
  // Drops everything held (the room's game is another node's now).
  void clear() noexcept { held_.clear(); }

 private:
  int writes_in_flight_ = 0;
  // The held entries [first, last) that announce the move in flight.
  std::pair<std::size_t, std::size_t> move_messages_{0, 0};
  std::vector<std::pair<std::weak_ptr<Participant>, Outbound>> held_;
};

}  // namespace ttt::server
