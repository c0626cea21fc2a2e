// Session: one client connection over TCP, plain or TLS (tls::Stream): its
// transport's reader and writer. A reader, a writer and a watchdog
// coroutine keep it alive: the reader opens TLS, reads what has arrived
// within its turn and the read budget and cuts it into frames; the writer
// drains the FrameWriter's bounded queue with exactly one write in flight;
// the watchdog (NetworkParticipant's) does what the deadlines ask. What it
// is at the lobby's end, and how it closes, is its NetworkParticipant base
// (docs/architecture.md, "One concurrency story").
#pragma once

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "net/budget_share.hpp"
#include "net/frame_writer.hpp"
#include "net/inbox.hpp"
#include "net/network_participant.hpp"
#include "net/read_turn.hpp"
#include "net/session_limits.hpp"
#include "net/write_cork.hpp"
#include "ttt/tls/stream.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {

class Session : public NetworkParticipant<Session>, public WriteCork::Writer {
 public:
  // The socket's executor is the session's own: a strand of its own, or the
  // one thread's executor. With a TLS context the peer must open with a TLS
  // handshake (a plain client is told TLS_REQUIRED); without one, the session
  // speaks plain TCP (a client opening a TLS handshake is told
  // TLS_UNAVAILABLE). slot, if given, is let go when the session is destroyed
  // (net/connection_slots.hpp).
  Session(boost::asio::ip::tcp::socket socket, Gate& gate, boost::asio::any_io_executor logic,
          const SessionLimits& limits, SessionCommons commons, std::shared_ptr<void> slot = nullptr,
          std::shared_ptr<boost::asio::ssl::context> tls = nullptr);

  // Opens its inbox and starts the coroutines.
  void start();

  // WriteCork::Writer: what was queued while corked goes out in one write.
  void uncork() noexcept override;

 private:
  friend class NetworkParticipant<Session>;

  boost::asio::awaitable<void> read_loop();
  // A TLS server's first step: the handshake, or a plain client told that
  // TLS is required. False once the session stopped.
  boost::asio::awaitable<bool> open_tls();
  enum class ReadResult { kDrained, kPaused, kYield, kStopped };
  // Reads and handles whatever has arrived (plain, or TLS after the
  // handshake): until the socket is drained, the read budget is spent
  // (paused), this wake-up's turn is spent (yield: input may be left), or
  // the session stopped.
  ReadResult read_available();
  // Handles the whole frames the reader holds, arrived at `now`, as many
  // as the turn allows.
  void take_frames(std::chrono::steady_clock::time_point now);
  // Reserves from the read budget what the next read needs beyond the
  // allowance (and, over TLS, OpenSSL's buffers given back while idle);
  // false if the budget can't give it now.
  bool reserve_read_space();
  // Gives back to the budget what the read buffer no longer holds.
  void return_read_space();
  // TLS: an idle connection gives OpenSSL's buffers back (and their share
  // of the budget); the next time to look, or max() when nothing is held.
  std::chrono::steady_clock::time_point release_idle_tls(std::chrono::steady_clock::time_point now);
  boost::asio::awaitable<void> write_loop();

  // Handles one frame that arrived at `now`; false when the connection must
  // stop reading.
  bool handle_frame(std::string_view body, std::chrono::steady_clock::time_point now);

  // What NetworkParticipant asks of its transport (network_participant.hpp).
  void enqueue(const std::shared_ptr<const std::string>& frame);
  bool can_speak() const noexcept { return framing_; }
  void closing_begun();
  void close_transport();
  // The watchdog also gives TLS buffers back while the connection is idle.
  std::chrono::steady_clock::time_point wake_at(std::chrono::steady_clock::time_point now,
                                                std::chrono::steady_clock::time_point next);
  void became_ready();
  static constexpr bool kCorks = true;

  // Writes the frame now as far as the socket takes it (nothing queued, no
  // write in flight); the rest is queued for the writer.
  void write_at_once(const std::shared_ptr<const std::string>& frame);
  // Queues the frame, `sent` bytes of it written already, for the writer.
  void queue_push(const std::shared_ptr<const std::string>& frame, std::size_t sent);
  // Sends (or hands the writer) the TLS records a read made.
  void send_stream_output();
  // The write queue overflowed: drops what is queued for one fatal Error.
  void drop_slow_consumer();
  // The connection is a browser's: its stream (with `received`, the bytes
  // read from it) and slot go to the web entrance; this session ends
  // without a word.
  void hand_to_web(std::string received);

  boost::asio::ip::tcp::socket& socket() noexcept { return stream_.socket(); }

  tls::Stream stream_;
  std::shared_ptr<boost::asio::ssl::context> tls_;  // null: plain TCP
  // Frames may be written: plain TCP, or TLS once its handshake is done.
  // Apart from the phase: a close may begin before the handshake ends.
  bool framing_ = false;
  BudgetShare read_share_;  // the read budget this session's read buffer holds
  BudgetShare tls_share_;   // the read budget held for its TLS state

  wire::FrameReader reader_;
  FrameWriter writer_;
  bool writing_ = false;  // the writer's write (or TLS flush) is in flight
  // The queue's frames wait for an open WriteCork to close (uncork), which
  // sends them in one write.
  bool corked_ = false;
  bool dropped_backlog_ = false;  // a slow consumer: the stream's records no longer count
  boost::asio::steady_timer wake_writer_;
  ReadTurn turn_;
  std::size_t drained_ = 0;                          // bytes read and dropped while closing
  std::chrono::steady_clock::time_point last_read_;  // the last bytes taken from the socket
  bool first_read_ = true;  // plain TCP: the first bytes are checked for a TLS handshake
};

}  // namespace ttt::server
