// FakeServer: a scripted stand-in for ttt-server on a loopback port, for what
// a real server can't be made to do on cue (refuse to save a move, or send
// whatever a hostile lobby would, or one node of several that sends clients
// on). It speaks the real protocol (frames of ServerMessage and
// ClientMessage), plain or over TLS, on one connection at a time; the test
// says each reply. Every wait is bounded; the sockets close with the object.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "client_support/test_certificates.hpp"
#include "ttt.pb.h"
#include "ttt/wire/frame.hpp"

using SSL = struct ssl_st;
using SSL_CTX = struct ssl_ctx_st;

namespace ttt::testing {

using namespace std::chrono_literals;

class FakeServer {
 public:
  // Listens on 127.0.0.1 and a free port, plain TCP (the clients the test
  // starts get --no-tls); throws std::runtime_error if it cannot.
  FakeServer();
  // The same over TLS, presenting certificate (the clients the test starts
  // get --fingerprint of it).
  explicit FakeServer(const CertificateFiles& certificate);
  ~FakeServer();
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  std::uint16_t port() const { return port_; }

  // The next client message that satisfies pred (accepting the connection
  // first if need be; others are skipped), or nullopt after timeout or when
  // the client hangs up.
  std::optional<wire::ClientMessage> expect(
      const std::function<bool(const wire::ClientMessage&)>& pred,
      std::chrono::milliseconds timeout = 5s);

  // Reads until the client ends its half of the connection (it leaves), then
  // closes ours, as the real server does; false if it did not within timeout.
  bool hang_up_after_the_client(std::chrono::milliseconds timeout = 5s);

  // Sends one frame (a failed test assertion if it can't).
  void send(const wire::ServerMessage& message);

  // Closes the connection of the moment, as a node does after a Redirect;
  // the next expect waits for a new one.
  void close_connection();

  // Sends the client on (a Redirect answering in_reply_to, 0 for none) and
  // closes the connection.
  void redirect(const wire::Redirect& redirect, std::uint32_t in_reply_to = 0);

  // Welcome for the Hello, as player 1 named `name` (the Hello's name when
  // empty), with rating 1200, resume token "token", server_instance
  // `instance` and game_id `game_id`.
  void welcome(const wire::ClientMessage& hello, const std::string& name = "",
               const std::string& instance = "", std::uint64_t game_id = 0);
  // That Welcome, not sent (a test adds to it, then sends it).
  static wire::ServerMessage welcome_message(const wire::ClientMessage& hello,
                                             const std::string& name = "",
                                             const std::string& instance = "",
                                             std::uint64_t game_id = 0);

  // A GameState event (or a reply, with in_reply_to).
  void state(const wire::GameState& state, std::uint32_t in_reply_to = 0);

 private:
  // Takes a new connection (and its TLS handshake); false if there was
  // none to take or the handshake failed.
  bool accept_one();
  // Reads what is there into reader_; false when the client hung up.
  bool read_some();
  bool buffered() const;  // TLS holds bytes already read from the socket

  int listen_fd_ = -1;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::string fingerprint_;  // the certificate's, with TLS
  SSL_CTX* tls_ = nullptr;
  SSL* ssl_ = nullptr;
  wire::FrameReader reader_;
};

}  // namespace ttt::testing
