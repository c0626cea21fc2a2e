// FrameWriter: one connection's bounded queue of frames on their way to the
// peer, and the bookkeeping of writing them: the frames waiting, the batch
// one write has in flight (kept alive until it ends), a frame the socket
// took only in part, and the bounds past which the peer is a slow consumer.
// It does no I/O: the session writes what it gathers and says how much went
// out (Session over TCP or TLS, WebSession one WebSocket message a write).
// One connection's executor only: not thread-safe.
#pragma once

#include <boost/asio/buffer.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ttt::server {

class FrameWriter {
 public:
  using Frame = std::shared_ptr<const std::string>;

  // At most max_bytes (not yet written) and max_frames (waiting) queued.
  // skip: bytes at the head of every frame that are never written (a
  // WebSocket frames the body itself: the 4-byte length goes).
  FrameWriter(std::size_t max_bytes, std::size_t max_frames, std::size_t skip = 0);

  // Whether a frame of frame_bytes fits beside what is queued and `backlog`
  // bytes held elsewhere on their way (TLS records made already).
  bool fits(std::size_t frame_bytes, std::size_t backlog = 0) const noexcept;
  // Queues a frame of which `sent` bytes are written already (only the
  // first frame waiting may be written in part).
  void push(Frame frame, std::size_t sent = 0);
  // Takes the first frame waiting back out (none of it written).
  Frame pop_front();

  // Frames waiting (not in a write in flight).
  std::size_t frames() const noexcept { return queue_.size(); }
  bool empty() const noexcept { return queue_.empty(); }
  // Bytes not yet written: waiting and in the write in flight.
  std::size_t bytes() const noexcept { return bytes_; }

  // The unwritten bytes of up to max_frames waiting frames, for a write
  // that may take part of them; consume() says how much it took.
  const std::vector<boost::asio::const_buffer>& gather(std::size_t max_frames);
  // `n` bytes of the waiting frames went out: whole frames leave, a frame
  // cut short stays first with what is left of it.
  void consume(std::size_t n);

  // Moves up to max_frames waiting frames into one write that takes all of
  // them or fails; their buffers stay valid until end_write().
  const std::vector<boost::asio::const_buffer>& begin_write(std::size_t max_frames);
  // The write in flight ended (written, or handed on to the TLS stream):
  // its bytes no longer count.
  void end_write();

  // A slow consumer: every waiting frame is dropped but one the socket took
  // in part (the peer would read what follows as the rest of it).
  void drop_waiting();
  // Drops everything (the connection stopped).
  void clear();

 private:
  std::size_t unsent(const Frame& frame, std::size_t sent) const noexcept;

  const std::size_t max_bytes_;
  const std::size_t max_frames_;
  const std::size_t skip_;
  std::deque<Frame> queue_;
  std::size_t bytes_ = 0;
  std::size_t front_sent_ = 0;  // bytes of the first waiting frame already written
  std::vector<Frame> in_flight_;
  std::size_t in_flight_bytes_ = 0;
  std::vector<boost::asio::const_buffer> buffers_;
};

}  // namespace ttt::server
