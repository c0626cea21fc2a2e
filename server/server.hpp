// Server: the lobby server as one object — the I/O threads, the logic
// executor, the bot thread pool, the store and the parts the lobby talks to,
// and the listener. main.cpp and in-process tests use it.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <memory>
#include <optional>
#include <string>

#include "config.hpp"
#include "local_lobby.hpp"
#include "metrics/metrics_http.hpp"
#include "metrics/server_metrics.hpp"
#include "net/connection_slots.hpp"
#include "net/listener.hpp"
#include "net/read_budget.hpp"
#include "net/web_server.hpp"
#include "redis/redis_cluster.hpp"
#include "redis/shared_directory.hpp"
#include "redis/shared_matchmaker.hpp"
#include "store/sequence_ids.hpp"
#include "store/store_writer.hpp"
#include "store/stored_holders.hpp"
#include "tls/tls_identity.hpp"

namespace ttt::server {

class Server {
 public:
  // Loads the TLS certificate (making the self-signed one on first start),
  // opens the database (restoring its games in progress) and binds the
  // listening socket; throws std::runtime_error (TlsError for a certificate
  // or key, StoreError for the database) with a clear reason if one fails.
  explicit Server(ServerConfig config);
  ~Server();

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The port actually bound (useful with port 0).
  std::uint16_t port() const noexcept { return listener_->port(); }

  // Serves on config.threads threads (this one included) until stop()
  // completes, then returns. An exception that escapes a handler is logged
  // and the thread goes on serving: it never ends the process.
  void run();

  // Graceful shutdown from any thread: stops accepting, ends games, says
  // Goodbye, lets queued messages flush (bounded), then run() returns.
  void stop(std::string reason = "the server is shutting down");

  // Several nodes (--redis): SIGTERM drains instead of stopping. No new
  // games; players out of a game go to other nodes; games in progress
  // finish here for up to --drain-timeout; then the rest are handed over
  // (their games let go in the database, their players sent to other
  // nodes, which adopt them) and the server stops. Alone, it stops.
  void drain();
  // Whether this server is a node of several (--redis).
  bool clustered() const noexcept { return cluster_ != nullptr; }

  // The I/O context, e.g. for a signal_set.
  boost::asio::io_context& io_context() noexcept { return io_; }

  // A snapshot of the lobby's counts; safe from any thread while run() is
  // running (it waits for the logic executor).
  LobbyStats stats();

  // The fingerprint of the TLS certificate served now; empty with --no-tls.
  std::string fingerprint() const { return tls_ ? tls_->fingerprint() : std::string(); }

  // Reads the TLS certificate and key again (SIGHUP): new connections get
  // the new ones, open connections keep theirs. On failure the current
  // certificate stays; the error is logged and returned.
  std::optional<std::string> reload_tls();

  // The port of the HTTP metrics (--metrics), 0 without them.
  std::uint16_t metrics_port() const noexcept { return metrics_http_ ? metrics_http_->port() : 0; }

  // Test seam: the database's writer (e.g. to make its writes fail); null
  // without a database.
  StoreWriter* store_writer() noexcept { return opened_.writer.get(); }

 private:
  // What the database held at startup.
  struct Opened {
    std::unique_ptr<StoreWriter> writer;  // null with --db none
    std::vector<StoredPlayer> players;
    std::vector<RatedPairing> pairings;                         // for the ratings' repeat rule
    std::vector<std::pair<std::int64_t, std::int64_t>> blocks;  // who blocked whom
    StoredState state;
    RecordId max_record{};
    std::string where;  // the store's place, for logs and /readyz
  };
  // Opens the store the config names (--postgres, else --db) and reads what
  // the server starts from.
  static Opened open_records(const ServerConfig& config, boost::asio::any_io_executor completions,
                             metrics::Histogram* commit_seconds);
  // /metrics and /readyz, gathered on the logic executor.
  boost::asio::awaitable<std::string> metrics_page();
  boost::asio::awaitable<metrics::Readiness> readiness();
  void serve();
  // Several nodes: joins the others (the directory, queues and heartbeat in
  // Redis) once the port is known.
  void join_cluster();
  boost::asio::awaitable<void> run_drain();
  // Several nodes: the orphan sweep, every --orphan-sweep.
  boost::asio::awaitable<void> sweep_orphans();
  // Several nodes: every --node-heartbeat, the heartbeat in the database
  // and the lobby's watch on whether this node may have looked dead.
  boost::asio::awaitable<void> keep_fence();
  // After shutdown: waits (bounded) for the sessions to close, then stops.
  boost::asio::awaitable<void> wait_for_sessions();
  // Now and then: the log's held-back counts, and memory that a wave of
  // closed connections freed given back to the system.
  boost::asio::awaitable<void> housekeeping();

  ServerConfig config_;
  boost::asio::io_context io_;
  // Where the lobby and every room run: the one thread's executor, or a
  // strand when there are several I/O threads.
  boost::asio::any_io_executor logic_;
  boost::asio::thread_pool compute_;
  ReadBudget read_budget_;
  std::unique_ptr<TlsIdentity> tls_;  // null with --no-tls
  metrics::ServerMetrics metrics_;
  std::shared_ptr<ConnectionSlots> slots_;
  Opened opened_;
  // Several nodes (--redis): what they share; all null for a node alone.
  std::unique_ptr<redis::RedisCluster> cluster_;
  std::unique_ptr<redis::SharedGameDirectory> shared_directory_;
  std::unique_ptr<redis::SharedMatchmaker> shared_matchmaker_;
  std::unique_ptr<SequenceIds> room_ids_;
  std::unique_ptr<SequenceIds> game_ids_;
  std::unique_ptr<SequenceIds> player_ids_;
  std::unique_ptr<StoredHolders> holders_;
  LocalLobby local_;
  Lobby& lobby_ = local_.lobby;
  std::unique_ptr<WebServer> web_;  // null with --web off
  std::unique_ptr<Listener> listener_;
  std::unique_ptr<metrics::MetricsHttp> metrics_http_;  // null without --metrics
  std::atomic<bool> stopping_{false};
  std::atomic<bool> draining_{false};
  std::atomic<std::size_t> nodes_alive_{0};  // as the logic executor last read it
};

}  // namespace ttt::server
