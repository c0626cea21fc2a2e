// ServerMetrics: everything the server counts as it runs, bumped by the parts
// that see it happen (the listener, the sessions, the store's writer), and
// the page /metrics renders from them and from a snapshot of the lobby
// taken at scrape time. Every name starts with ttt_ (docs/hosting.md lists
// them). Thread-safe: atomics only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "metrics/metric_types.hpp"
#include "ttt.pb.h"

namespace ttt::server::metrics {

// Where a connection is in its life (ttt_connections{state=...}).
enum class ConnectionState { kNone, kHandshake, kHello, kReady, kClosing };

// What the lobby and the store say at scrape time (gauges).
struct Snapshot {
  std::size_t players_online = 0;  // people with a connection, past Hello
  std::size_t players_away = 0;    // seated, connection lost, seat held
  // Rooms by state ("waiting", "playing", "finished") and board size.
  std::map<std::pair<std::string, int>, std::size_t> games;
  std::size_t bot_searches_running = 0;
  std::size_t bot_searches_waiting = 0;
  bool store = false;                // a database is kept
  std::size_t store_queue = 0;       // writes waiting for the writer thread
  std::uint64_t store_failures = 0;  // batches the database refused
  bool store_waiting = false;        // the database can't be reached: writes wait
  // Several nodes (--redis); all zero for a node alone.
  bool cluster = false;
  bool cluster_reachable = false;  // Redis answers
  bool draining = false;
  std::size_t nodes_alive = 0;      // this one included
  std::uint64_t redirects = 0;      // connections sent to another node
  std::uint64_t games_adopted = 0;  // games taken over from a dead or drained node
  std::uint64_t games_lost = 0;     // games dropped: another node held them (fencing)
};

class ServerMetrics {
 public:
  explicit ServerMetrics(std::string version, bool tls);

  // A connection moves from one state to another (kNone: arrives or goes).
  void connection_state(ConnectionState from, ConnectionState to) noexcept;

  // An Error the server sends (ttt_errors_sent_total); a code that is a
  // limit also counts as a hit of that limit (ttt_limit_hits_total).
  void error_sent(wire::ErrorCode code) noexcept;

  // The exposition text (Prometheus 0.0.4) of everything, with the snapshot.
  std::string render(const Snapshot& snapshot) const;

  Counter connections_accepted;
  LabeledCounters tls_handshakes{"result", {"ok", "failed", "plain_client", "no_budget"}};
  LabeledCounters frames_refused{"reason",
                                 {"too_large", "unparseable", "before_hello", "rate_limited",
                                  "flood", "tls_at_plain", "plain_at_tls"}};
  LabeledCounters limit_hits{
      "limit",
      {"connections", "connections_per_address", "connection_rate_per_address",
       "new_names_per_address", "identity_failures_per_address", "games_per_address",
       "games_per_player", "message_rate", "send_queue", "frame_size", "read_budget", "spectators",
       "bot_queue", "hello_timeout", "idle_timeout"}};
  Counter moves;                                      // ttt_moves_total: moves a room accepted
  Histogram move_reply_seconds{latency_buckets()};    // a move read -> its state queued
  Histogram store_commit_seconds{latency_buckets()};  // one batch written and synced
  Counter store_commits;
  // The web client (--web on): browsers' connections apart from the others.
  Gauge web_connections;  // HTTP connections open (before any upgrade)
  Gauge web_sessions;     // WebSocket sessions open (also in ttt_connections)
  LabeledCounters web_requests{"result", {"ok", "not_modified", "not_found", "bad_request"}};
  LabeledCounters web_upgrades{"result", {"ok", "foreign_origin", "not_found"}};

 private:
  const std::string version_;
  const bool tls_;
  std::array<Gauge, 5> connections_;  // by ConnectionState
  std::array<Counter, 64> errors_;    // by ErrorCode (those past 63 in the last)
};

}  // namespace ttt::server::metrics
