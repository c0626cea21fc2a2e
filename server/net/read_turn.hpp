// ReadTurn: how much one wake-up of a connection's reader may handle before
// it lets the other connections run: bytes taken from the socket, reads made
// (over TLS, about one record each) and frames handled. A connection that
// streams anything at all (frames of any kind, TLS records, bytes that never
// make a frame) then costs every other connection at most one turn's wait.
// Any session kind takes its turns the same way: begin() when it wakes,
// account each read and frame, and yield (post itself to the back of its
// executor, without waiting on the socket) once over(). One connection's
// reader only: not thread-safe.
#pragma once

#include <cstddef>

namespace ttt::server {

struct ReadTurnLimits {
  std::size_t bytes = 64 * 1024;  // taken from the socket in one turn
  std::size_t reads = 64;         // reads (TLS records) in one turn
  std::size_t frames = 64;        // frames handled in one turn
};

class ReadTurn {
 public:
  explicit ReadTurn(ReadTurnLimits limits = {}) noexcept : limits_(limits) {}

  // A new wake-up: the whole turn is left again.
  void begin() noexcept {
    bytes_ = 0;
    reads_ = 0;
    frames_ = 0;
  }

  // The most the next read may take from the socket (never 0 while the
  // turn is not over).
  std::size_t bytes_left() const noexcept {
    return bytes_ >= limits_.bytes ? 0 : limits_.bytes - bytes_;
  }

  // One read, which took `bytes` from the socket.
  void read(std::size_t bytes) noexcept {
    bytes_ += bytes;
    ++reads_;
  }

  // One frame handled.
  void frame() noexcept { ++frames_; }

  // The turn is spent: the reader yields now (input may be left).
  bool over() const noexcept {
    return bytes_ >= limits_.bytes || reads_ >= limits_.reads || frames_ >= limits_.frames;
  }

  // The frames this turn has handled so far.
  std::size_t frames() const noexcept { return frames_; }
  const ReadTurnLimits& limits() const noexcept { return limits_; }

 private:
  ReadTurnLimits limits_;
  std::size_t bytes_ = 0;
  std::size_t reads_ = 0;
  std::size_t frames_ = 0;
};

}  // namespace ttt::server
