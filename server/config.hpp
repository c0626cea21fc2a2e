// ServerConfig: everything ttt-server's flags set, and their parser.
#pragma once

#include <cstdint>
#include <string>

#include "lobby/lobby_config.hpp"
#include "net/listener.hpp"
#include "net/session.hpp"
#include "net/web_server.hpp"
#include "tls/tls_identity.hpp"
#include "ttt/cli/flags.hpp"

namespace ttt::server {

struct ServerConfig {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 7777;  // 0 = any free port
  int threads = 1;            // I/O threads
  int bot_threads = 1;        // threads for the server's bot searches
  std::string log_level = "info";
  std::size_t max_connections = 10'000;
  std::size_t max_connections_per_ip = 32;  // per address key; 0 = no limit
  std::string metrics;                      // ADDR:PORT of the HTTP metrics; empty = off
  std::string log_format = "text";          // or "json"
  std::size_t read_buffer_budget = 64
                                   << 20;  // all read buffers beyond small allowances; 0 = no cap
  std::string db;  // SQLite file, ":memory:", "none" to keep nothing; empty: default_db_path()
  std::string postgres;      // libpq CONNINFO of a PostgreSQL store, in place of db; empty: db
  std::string export_games;  // write finished games to this file and exit
  bool print_fingerprint = false;  // print the TLS certificate's fingerprint and exit
  // Several nodes of one lobby: the Redis they share (HOST:PORT;
  // empty: this node is alone), how clients reach this node (HOST:PORT;
  // empty: --bind and --port when --bind names one address), and how long a
  // drain (SIGTERM) lets games in progress finish before handing them over.
  std::string redis;
  std::string advertise;
  std::chrono::milliseconds drain_timeout{10 * 60 * 1000};
  // How often a node looks for games in progress no live node holds (a game
  // found twice in a row is taken over).
  std::chrono::milliseconds orphan_sweep{30'000};
  // How often a node renews its heartbeats (in Redis and in the database),
  // and how old they both must be before the others take it for dead and
  // may take its games (--node-heartbeat, --node-dead-after).
  std::chrono::milliseconds node_heartbeat{1'000};
  std::chrono::milliseconds node_dead_after{2'500};
  // The key the nodes sign what they say through Redis with (read from
  // --cluster-key-file at start).
  std::string cluster_key_file;
  // rediss://: the CA file Redis's certificate is checked against (empty:
  // the system's), and a client certificate and key to show it.
  std::string redis_ca;
  std::string redis_cert;
  std::string redis_key;
  std::string cluster_key;
  // A PostgreSQL statement unanswered for this long: the database is taken
  // as lost (--postgres-timeout).
  std::chrono::milliseconds postgres_timeout{5'000};
  TlsConfig tls;
  // The web client on the game port (--web on|off, --web-origin): on by default.
  bool web = true;
  WebSettings web_settings;
  LobbyConfig lobby;
  SessionLimits session;
  ListenerLimits listener;
};

// The shortest --stats-token taken.
inline constexpr std::size_t kMinStatsToken = 32;

// Fills config from argv and the --config file. usage holds the --help text;
// on ok, effective_config the --print-config text.
struct ServerArgs {
  cli::ParseResult result;
  std::string usage;
  std::string effective_config;
};
ServerArgs parse_server_args(int argc, const char* const* argv, ServerConfig& config);

}  // namespace ttt::server
