// NetworkParticipant: what a network session is at the lobby's end,
// whatever its transport: a Participant (deliver, close, heartbeat) with a
// life (ConnectionLife), a way to the lobby (InboxRelay), a watchdog that
// does what the deadlines ask, the message rate's warnings, and one path
// from a fatal Error to a closed connection. The transport's reader and
// writer are the derived class's (Session: TCP or TLS; WebSession: a
// WebSocket), as Beast's advanced server splits its sessions; it gives:
//   void enqueue(const std::shared_ptr<const std::string>& frame);
//                                      // queue a frame for the writer
//   bool can_speak() const;            // frames may be written now
//   void closing_begun();              // wake the writer to flush and close
//   void close_transport();            // close the stream; drop the queue
//   time_point wake_at(time_point now, time_point next);
//                                      // when the watchdog looks again
//   void became_ready();               // the peer said Hello
//   static constexpr bool kCorks;      // handle each message in a WriteCork
// Everything runs on the session's executor but deliver, close and
// set_heartbeat, which are safe from any thread.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "limits/rate_limiter.hpp"
#include "net/connection_life.hpp"
#include "net/inbox.hpp"
#include "net/inbox_relay.hpp"
#include "net/message_rate.hpp"
#include "net/participant.hpp"
#include "net/session_limits.hpp"

namespace ttt::server {

template <typename Derived>
class NetworkParticipant : public Participant, public std::enable_shared_from_this<Derived> {
 public:
  // Participant: safe from any thread.
  void deliver(const Outbound& message) override;
  void close() override;
  void set_heartbeat(bool on) override;

 protected:
  using Clock = std::chrono::steady_clock;

  // kind: how the log names this sort of connection ("connection");
  // peer: "ADDRESS:PORT"; address: the key limits per address count it by
  // (net/peer_address.hpp). The executor is the session's own.
  NetworkParticipant(boost::asio::any_io_executor executor, Gate& gate,
                     boost::asio::any_io_executor logic, const SessionLimits& limits,
                     SessionCommons commons, std::shared_ptr<void> slot, const char* kind,
                     std::string peer, std::string address, ConnectionPhase first);
  ~NetworkParticipant() override = default;

  // Runs a coroutine of this session on its executor; one that throws ends
  // the session (logged once, then stopped like any other end).
  void spawn(boost::asio::awaitable<void> coroutine);
  // Does what the life's deadlines ask until the session stops.
  boost::asio::awaitable<void> watchdog();

  // Handles a message read at `now` that parsed: pings answered, anything
  // before Hello refused, the rest handed to the lobby. False when the
  // connection must stop reading.
  bool take(wire::ClientMessage& message, Clock::time_point now);
  // Tells the peer it is over the message rate, at most once a second; the
  // reply goes to the request `body` holds, if it reads as one.
  void warn_rate(std::string_view body, Clock::time_point now);
  void send_now(const wire::ServerMessage& message);
  // Sends a fatal Error, then closes (at once if nothing can be said yet).
  void fail(wire::ErrorCode code, std::string text);
  // Flushes what is queued, then closes, within the linger.
  void begin_close(std::string reason);
  // Closes now: the log line, the inbox told.
  void stop(std::string reason);

  // True when the caller runs on the session's executor and it is the
  // io_context's (one thread): where dispatch would run a function at once.
  bool on_own_thread() const noexcept;
  bool closing() const noexcept { return life_.closing(); }
  bool stopped() const noexcept { return life_.stopped(); }

  // The session's executor, kept apart from its stream's: other threads
  // post to it while a stream moves.
  const boost::asio::any_io_executor executor_;
  const SessionLimits& limits_;
  SessionCommons commons_;
  boost::asio::steady_timer watchdog_timer_;
  MessageRate rate_;                     // every frame the peer sends
  RateLimiter rate_warnings_{1.0, 1.0};  // tell a flooding peer once a second
  std::shared_ptr<void> slot_;           // the connection's place in ConnectionSlots
  const char* const kind_;
  const std::string peer_;
  const std::string address_;
  ConnectionLife life_;
  InboxRelay relay_;

 private:
  // A message too large for the whole queue: the server's own error, logged
  // as such; the client gets a short Error instead and stays connected.
  void refuse_oversized(const Outbound& message);
  Derived& derived() noexcept { return static_cast<Derived&>(*this); }

  // The io_context's executor behind executor_ when it is that (one
  // thread), else null (a strand).
  const boost::asio::io_context::executor_type* const own_io_;
};

}  // namespace ttt::server
