// Server: the lobby server as one object — I/O threads, the lobby's strand,
// the bot thread pool and the listener. main.cpp and in-process tests use it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <memory>
#include <string>

#include "config.hpp"
#include "net/listener.hpp"
#include "lobby/lobby.hpp"
#include "store/store_writer.hpp"

namespace ttt::server {

class Server {
 public:
  // Opens the database (restoring its games in progress) and binds the
  // listening socket; throws std::runtime_error (StoreError for the database)
  // with a clear reason if either fails.
  explicit Server(ServerConfig config);
  ~Server();

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The port actually bound (useful with port 0).
  std::uint16_t port() const noexcept { return listener_->port(); }

  // Serves on config.threads threads (this one included) until stop()
  // completes, then returns.
  void run();

  // Graceful shutdown from any thread: stops accepting, ends games, says
  // Goodbye, lets queued messages flush (bounded), then run() returns.
  void stop(std::string reason = "the server is shutting down");

  // The I/O context, e.g. for a signal_set.
  boost::asio::io_context& io_context() noexcept { return io_; }

  // A snapshot of the lobby's counts; safe from any thread while run() is
  // running (it waits for the lobby's executor).
  LobbyStats stats();

  // The journal's counters, or nullopt without a database.
  std::optional<StoreWriter::Counters> journal_counters() const;

 private:
  ServerConfig config_;
  boost::asio::io_context io_;
  LogicExecutor logic_;
  boost::asio::thread_pool compute_;
  StoredState restored_;
  std::unique_ptr<StoreWriter> journal_;
  Lobby lobby_;
  std::unique_ptr<Listener> listener_;
  std::atomic<bool> stopping_{false};
};

}  // namespace ttt::server
