// Connection: one client's link to a ttt server, kept up on its own. It
// connects (with a deadline), makes the link TLS and checks the server's
// certificate (trust/server_trust.hpp), says Hello, answers the server's
// Pings, pings a silent server itself (as often as the server's Welcome asks,
// so a dead link is noticed within its heartbeat timeout), and when the link
// drops it reconnects with the resume token, backing off, for up to the retry
// period, or, while a seat is at stake, for as long as the server may still
// hold it. A reader and a writer
// coroutine share one socket; the writer drains a bounded queue with exactly
// one write in flight.
//
// A lobby may be several nodes. The connection knows their addresses (the
// first is the lobby as the user names it) and tries them in order; after a
// lost link it tries the node it was on first, then the others in order,
// round after round with backoff. A node may send it on to another
// (Redirect): it follows at once, with the seat the node kept for it
// (Hello.reservation) and the certificate the node vouched for, and tells
// its owner in one line; a redirect that can't be right (no host, port 0, a
// fingerprint that isn't one, a certificate other than the one vouched for)
// or too many of them in a short time end the connection, never hang it
// (NodeAttempts decides which node is next).
//
// Used by ttt-client and ttt-bot. Everything runs on one executor (one
// thread); the events are called on it.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "link/node_attempts.hpp"
#include "link/server_list.hpp"
#include "ttt.pb.h"
#include "ttt/tls/stream.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::client {

struct ConnectionOptions {
  // The first node: the lobby as the user names it (identity files are kept
  // under this address whichever node serves).
  std::string host = "localhost";
  std::uint16_t port = 7777;
  // The lobby's other nodes (--host A,B,...), tried after host:port, in order.
  std::vector<ServerAddress> other_nodes;
  std::string name;            // the player's name in Hello
  std::string client_version;  // Hello.client, for the server's log
  std::string resume_token;    // from an earlier run: take that player back
  std::string secret;  // the secret that owns the name on this server (or will, for a new name)
  // A new secret the server may have stored without saying so (a rotation
  // whose answer was lost): tried once if `secret` is refused.
  std::string next_secret;
  bool program = false;    // Hello.bot: a program playing on its own (unrated unless it asks)
  bool take_over = false;  // Hello.take_over: move a session of this name that is connected now
  std::chrono::milliseconds connect_timeout{5'000};  // per attempt, and for the Welcome
  std::chrono::milliseconds retry{30'000};           // how long to keep reconnecting after a drop
  // Until a Welcome gives the server's heartbeat: server silence before we
  // ping it, and the silence after which the link is dead.
  std::chrono::milliseconds keepalive{15'000};
  std::chrono::milliseconds answer_timeout{10'000};
  // Beyond the server's grace and heartbeat timeout, how much longer to try
  // while a seat is at stake.
  std::chrono::milliseconds seat_margin{5'000};
  // While in a game in progress (set_in_game), how long at least to keep
  // trying: a server restarted within it restores the game and holds its
  // seats for its grace again. 0: only retry and the seat.
  std::chrono::milliseconds restart_wait{0};
  std::size_t max_queued_frames = 256;  // more waiting means the server is not reading
  std::size_t max_frame = 4 << 20;      // the largest server frame accepted
  bool tls = true;                      // false: plain TCP (--no-tls)
  std::string fingerprint;              // a pinned certificate (canonical "SHA256:..."), or empty
  std::string known_servers;            // servers trusted on first use; empty = remember none
  // Redirects followed: more than max_redirects within redirect_window end
  // the connection (nodes sending it round in circles).
  std::size_t max_redirects = 5;
  std::chrono::milliseconds redirect_window{30'000};
};

// What a Connection reports to its owner.
class ConnectionEvents {
 public:
  virtual ~ConnectionEvents() = default;
  // The server accepted Hello, after the first connect and after every
  // reconnect. welcome.resumed() says whether the old player (and any seat)
  // came back; if not, this is a new player in the lobby.
  virtual void on_welcome(const wire::Welcome& welcome) = 0;
  // Every other server message, fatal errors and Goodbye included; Ping and
  // Pong are handled inside.
  virtual void on_message(const wire::ServerMessage& message) = 0;
  // The link dropped; the connection tries again (called before each try)
  // for up to `left` more. Reasons here and in on_closed quote the server
  // only through safe_text.
  virtual void on_reconnecting(const std::string& reason, std::chrono::milliseconds left) = 0;
  // The connection is over for good: after close() (failed = false), or
  // because it could not connect or reconnect (failed = true, reason says why).
  virtual void on_closed(const std::string& reason, bool failed) = 0;
  // A TLS server no CA vouches for, not pinned and not in known_servers:
  // answer(true) trusts it (and remembers it there), answer(false) gives up.
  // May answer later (after asking someone). where is "host:port".
  virtual void on_unknown_server(const std::string& where, const std::string& fingerprint,
                                 std::function<void(bool)> answer) = 0;
  // A node sent this connection on to another (Redirect), which it now
  // connects to at once, without backoff; on_welcome follows from there (or
  // on_reconnecting, if it can't be reached). where is the node it goes to
  // ("host:port"), reason the server's one line through safe_text (may be
  // empty). Not an error: the session goes on.
  virtual void on_redirected(const std::string& where, const std::string& reason) {
    static_cast<void>(where);
    static_cast<void>(reason);
  }
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // events must outlive the connection's work on executor.
  Connection(boost::asio::any_io_executor executor, ConnectionOptions options,
             ConnectionEvents& events);

  // Starts connecting. Call once.
  void start();

  // Sends a request with a fresh request id and returns the id, or returns 0
  // without sending when there is no live, welcomed link (the caller says so).
  std::uint32_t send(wire::ClientMessage message);

  // Sends what is queued, closes, and ends with on_closed(failed = false).
  // Stops any reconnecting. Safe to call more than once.
  void close();

  // True between a Welcome and the next drop.
  bool connected() const noexcept { return welcomed_ && !closing_; }

  // True when the last Welcome came from a new start of the same node (the
  // address of the Welcome before, a different server_instance). A Welcome
  // from another node of the lobby is no restart.
  bool server_restarted() const noexcept { return server_restarted_; }

  // True when the last Welcome came from a node a Redirect sent us to.
  bool redirected() const noexcept { return redirected_; }

  // The node of the current link, or of the one being tried: "host:port".
  std::string current_server() const { return where(); }

  // Whether a seat in a game in progress is at stake: then a lost link is
  // retried for as long as the server may hold the seat (its grace, plus
  // its heartbeat timeout to notice, plus seat_margin), if that is longer
  // than the retry period; a retry period of 0 still means never.
  void set_seat_at_stake(bool at_stake) noexcept { seat_at_stake_ = at_stake; }

  // Whether the owner is in a game in progress (seated or watching): then a
  // lost link is retried for restart_wait at least (a retry period of 0
  // still means never).
  void set_in_game(bool in_game) noexcept { in_game_ = in_game; }

  // How long a lost link is retried now (see set_seat_at_stake, set_in_game).
  std::chrono::milliseconds retry_period() const noexcept;

  // The server's settings from the last Welcome (0 when it sent none).
  std::chrono::milliseconds server_grace() const noexcept { return grace_; }

  // The secret the last Hello carried (after a Welcome: the one the server
  // took), and a new one for the Hellos to come (a rotation the server
  // confirmed).
  const std::string& secret() const noexcept { return secret_; }
  void set_secret(std::string secret) {
    secret_ = std::move(secret);
    next_secret_.clear();
  }
  // A secret the server may be storing now (a rotation on its way): tried
  // once if a reconnect's Hello is refused with the current one.
  void offer_next_secret(std::string secret) { next_secret_ = std::move(secret); }

 private:
  using tcp = boost::asio::ip::tcp;

  boost::asio::awaitable<void> run();
  // A Redirect: followed (the node it names is tried next), or refused (the
  // connection gives up). The link ends either way.
  void follow(const wire::Redirect& redirect);
  boost::asio::awaitable<std::optional<tls::Stream>> open_link(std::string& reason);
  boost::asio::awaitable<boost::system::error_code> resolve_and_connect(tcp::socket& socket);
  // TLS: the handshake and the check of the server's certificate (asking
  // the owner about an unknown one). False with reason if the link can't be
  // used.
  boost::asio::awaitable<bool> secure(tls::Stream& stream, std::string& reason);
  boost::asio::awaitable<bool> ask_about(const std::string& fingerprint);
  boost::asio::awaitable<void> serve(tls::Stream stream);
  boost::asio::awaitable<void> read_loop();
  boost::asio::awaitable<void> write_loop();
  boost::asio::awaitable<void> keepalive();

  // Handles one frame; false when the link must end.
  bool handle_frame(std::string_view body);
  // A fatal Error: decides whether to reconnect, start afresh or give up;
  // false when the owner need not hear of it (a retry it can't tell from a
  // reconnect).
  bool on_fatal(const wire::Error& error);
  void enqueue(const wire::ClientMessage& message);
  // The first reason the link ended wins.
  void set_reason(std::string reason);
  void finish(const std::string& reason, bool failed);
  std::string where() const;

  boost::asio::any_io_executor executor_;
  ConnectionOptions options_;
  ConnectionEvents& events_;
  NodeAttempts nodes_;  // host:port, then other_nodes: which is tried next
  Attempt attempt_;     // the current (or last) link's

  std::shared_ptr<boost::asio::ssl::context> tls_context_;  // null with tls off
  std::optional<tls::Stream> stream_;
  wire::FrameReader reader_;
  std::deque<std::string> queue_;
  boost::asio::steady_timer wake_writer_;
  boost::asio::steady_timer watchdog_;
  boost::asio::steady_timer connect_timer_;
  boost::asio::steady_timer backoff_timer_;
  boost::asio::steady_timer answer_timer_;  // wakes ask_about when the answer comes

  std::string token_;
  std::string secret_;
  std::string next_secret_;
  std::string server_instance_;  // from the last Welcome
  bool server_restarted_ = false;
  bool redirected_ = false;
  std::string reason_;  // why the current link ended
  std::chrono::steady_clock::time_point linked_at_{};
  std::chrono::steady_clock::time_point last_received_{};
  std::uint32_t next_request_id_ = 1;
  std::chrono::steady_clock::time_point last_ping_{};
  std::chrono::milliseconds grace_{0};              // the server's seat grace
  std::chrono::milliseconds heartbeat_{0};          // ping a server silent this long...
  std::chrono::milliseconds heartbeat_timeout_{0};  // ...and give it up after this
  bool seat_at_stake_ = false;
  bool in_game_ = false;
  bool welcomed_ = false;       // the current link got its Welcome
  bool ever_welcomed_ = false;  // some link got a Welcome
  bool give_up_ = false;        // the last link ended in a way retrying can't fix
  bool retry_now_ = false;      // reconnect at once (a stale token was dropped)
  bool asked_ = false;          // this link waited for someone to trust the server
  bool closing_ = false;
  bool finished_ = false;
};

}  // namespace ttt::client
