// TestClient: a blocking protocol client over a real loopback socket, for
// tests. Every wait is bounded; a failed expectation is a test failure, never
// a hang.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ttt.pb.h"

struct ssl_st;
#include "ttt/wire/frame.hpp"

namespace ttt::testing {

using namespace std::chrono_literals;

// How a TestClient speaks: plain TCP, or TLS (any certificate is taken;
// peer_fingerprint() says which one the server showed).
enum class Transport { kPlain, kTls };

class TestClient {
 public:
  // Connects to host:port (from the local address `from`, e.g. 127.0.0.2, to
  // look like another machine to limits per address; empty: any), and makes
  // the TLS handshake with kTls; throws std::runtime_error if it can't.
  explicit TestClient(std::uint16_t port, const std::string& host = "127.0.0.1",
                      const std::string& from = "");
  TestClient(std::uint16_t port, Transport transport, const std::string& host = "127.0.0.1",
             const std::string& from = "");
  ~TestClient();
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  // Sends one message (with a fresh request id if it has none); returns its id.
  std::uint32_t send(wire::ClientMessage message);
  // Sends raw bytes; false if the connection is gone.
  bool send_raw(std::string_view bytes);

  // The next message within timeout, or nullopt on timeout or close. A zero
  // timeout returns a message that has already arrived, without waiting.
  std::optional<wire::ServerMessage> receive(std::chrono::milliseconds timeout = 5s);

  // Skips messages until one satisfies pred; fails the test (and returns an
  // empty message) if none comes within timeout.
  wire::ServerMessage expect(const std::function<bool(const wire::ServerMessage&)>& pred,
                             std::string_view what, std::chrono::milliseconds timeout = 5s);
  // The next Error with that code.
  wire::Error expect_error(wire::ErrorCode code, std::chrono::milliseconds timeout = 5s);
  // The next state satisfying pred (from Joined or GameState).
  wire::GameState expect_state(const std::function<bool(const wire::GameState&)>& pred,
                               std::string_view what, std::chrono::milliseconds timeout = 5s);

  // True if the server closes the connection within timeout (messages
  // before the close are skipped).
  bool wait_closed(std::chrono::milliseconds timeout = 5s);

  // Hello and the Welcome. Sends the secret a server gave this name before and
  // remembers a new one; take_over moves a session of the name connected now.
  wire::Welcome hello(const std::string& name, const std::string& resume_token = "",
                      bool take_over = false);

  // Requests, without waiting for the answer.
  std::uint32_t create(int size, bool is_private = false, bool vs_bot = false,
                       wire::BotLevel level = wire::BOT_LEVEL_PERFECT);
  std::uint32_t join(std::uint64_t game_id, const std::string& code = "");
  std::uint32_t quick(int size);
  std::uint32_t spectate(std::uint64_t game_id, const std::string& code = "");
  std::uint32_t move(int row, int col, std::uint64_t game_id = 0);
  std::uint32_t simple(void (*set)(wire::ClientMessage&));

  // Joined after a create/join/quick/spectate.
  wire::Joined expect_joined(std::chrono::milliseconds timeout = 5s);

  // Stops reading (the kernel buffers fill up); for slow-consumer tests.
  void set_receive_buffer(int bytes);

  // TLS: "SHA256:..." of the server's certificate; empty over plain TCP.
  const std::string& peer_fingerprint() const noexcept { return peer_fingerprint_; }
  // TLS: the protocol agreed ("TLSv1.3"); empty over plain TCP.
  std::string tls_version() const;
  // TLS 1.3: sends a KeyUpdate message now; false if it can't.
  bool key_update();

 private:
  // Reads what has arrived into reader_, waiting up to wait.
  enum class Read { kAgain, kTimeout, kClosed };
  Read read_some(std::chrono::milliseconds wait);

  int fd_ = -1;
  ssl_st* tls_ = nullptr;  // TLS: OpenSSL's connection over fd_
  std::string peer_fingerprint_;
  bool closed_ = false;
  std::uint32_t next_request_id_ = 1;
  wire::FrameReader reader_{16 << 20};
};

// A frame header declaring `length` bytes (for frames cut short or too long).
std::string frame_header(std::uint32_t length);

// Raises the soft open-file limit to the hard one (for tests with many
// connections).
void raise_file_limit();

// The player sides a state says are to move.
inline bool is_over(const wire::GameState& s) {
  return s.status() == wire::GAME_STATUS_X_WON || s.status() == wire::GAME_STATUS_O_WON ||
         s.status() == wire::GAME_STATUS_DRAW;
}

}  // namespace ttt::testing
