#include "config.hpp"

#include "metrics/metrics_http.hpp"
#include "redis/node_signer.hpp"
#include "redis/redis_client.hpp"
#include "ttt/cli/invocation.hpp"

namespace ttt::server {

ServerArgs parse_server_args(int argc, const char* const* argv, ServerConfig& config) {
  cli::Flags flags(cli::invocation_name("ttt-server"),
                   "The ttt lobby server: hosts games between players on different machines.");
  std::int64_t port = config.port;
  std::int64_t threads = config.threads;
  std::int64_t bot_threads = config.bot_threads;
  std::int64_t max_connections = static_cast<std::int64_t>(config.max_connections);
  std::int64_t max_frame = static_cast<std::int64_t>(config.session.max_frame);
  std::int64_t rate_limit = static_cast<std::int64_t>(config.session.messages_per_second);
  std::int64_t bot_budget = config.lobby.bot_budget.count();
  std::string fallback_level(to_string(config.lobby.fallback_level));
  std::int64_t max_hello_frame = static_cast<std::int64_t>(config.session.max_hello_frame);
  std::int64_t send_queue = static_cast<std::int64_t>(config.session.max_queued_bytes);
  std::int64_t read_budget = static_cast<std::int64_t>(config.read_buffer_budget);
  std::int64_t bot_queue = static_cast<std::int64_t>(config.lobby.bot_queue);
  std::int64_t max_spectators = static_cast<std::int64_t>(config.lobby.max_spectators);
  std::int64_t games_per_address = static_cast<std::int64_t>(config.lobby.quotas.games);
  std::int64_t bot_games_per_address = static_cast<std::int64_t>(config.lobby.quotas.bot_games);
  std::int64_t per_ip = static_cast<std::int64_t>(config.max_connections_per_ip);
  std::int64_t rate_per_ip = static_cast<std::int64_t>(config.listener.connections_per_second);
  std::int64_t challenges = static_cast<std::int64_t>(config.lobby.challenges_per_minute);
  std::int64_t new_names = static_cast<std::int64_t>(config.lobby.new_names_per_hour);
  std::int64_t identity_failures = static_cast<std::int64_t>(config.lobby.identity_failures);

  flags.add_string("--bind", "", &config.bind, "ADDR", "address to listen on (IPv4 or IPv6)");
  flags.add_int("--port", "", &port, 0, 65535, "N", "TCP port; 0 picks a free one");
  flags.add_int("--threads", "", &threads, 1, 64, "N", "I/O threads");
  flags.add_int("--bot-threads", "", &bot_threads, 1, 64, "N",
                "threads for the server's bot searches");
  flags.add_choice("--log-level", "", &config.log_level,
                   {"trace", "debug", "info", "warn", "error"}, "log verbosity");
  flags.add_choice("--log-format", "", &config.log_format, {"text", "json"},
                   "log lines as text, or one JSON object each (time, level, message) for log "
                   "shippers");
  flags.add_seconds("--move-timeout", &config.lobby.move_timeout, 86400,
                    "time a player has for each move, 0 = unlimited");
  flags.add_seconds("--reconnect-grace", &config.lobby.reconnect_grace, 86400,
                    "how long a disconnected player's seat is held");
  flags.add_int("--max-connections", "", &max_connections, 1, 1'000'000, "N",
                "connections served at once; more are told the server is full");
  flags.add_int("--max-connections-per-ip", "", &per_ip, 0, 1'000'000, "N",
                "connections one address (an IPv4 address, an IPv6 /64) may hold at once; more "
                "are told TOO_MANY_CONNECTIONS (over TLS: reset before any TLS), 0 = no limit; "
                "an IPv6 /48 may hold 8 times this");
  flags.add_int("--max-connection-rate-per-ip", "", &rate_per_ip, 0, 1'000'000, "N",
                "new connections one address may open a second, bursts of twice that (an IPv6 "
                "/48: 8 times that); more are reset at once, before any TLS, 0 = no limit");
  flags.add_int("--max-frame", "", &max_frame, 64, 16 << 20, "BYTES",
                "largest frame a client may send");
  flags.add_seconds("--bot-fallback", &config.lobby.bot_fallback, 86400,
                    "quick match: a bot steps in after this wait, 0 = never");
  flags.add_choice("--bot-fallback-level", "", &fallback_level,
                   {"random", "easy", "medium", "hard", "perfect"}, "level of that bot");
  flags.add_int("--bot-budget", "", &bot_budget, 1, 60'000, "MS",
                "thinking time of the server's bots per move");
  flags.add_seconds("--hello-timeout", &config.session.hello_timeout, 3600,
                    "a new connection must say Hello within this time");
  flags.add_seconds("--heartbeat-timeout", &config.session.heartbeat_timeout, 3600,
                    "a player in a game whose link is silent this long is away (pinged every "
                    "third of it), 0 = only --idle-timeout");
  flags.add_seconds("--idle-timeout", &config.session.idle_timeout, 86400,
                    "silent connections are pinged at half this time and dropped at it, 0 = never");
  flags.add_string("--db", "", &config.db, "PATH",
                   "SQLite database of players, games and ratings (default: "
                   "$XDG_STATE_HOME/ttt/ttt.db, that is ~/.local/state/ttt/ttt.db; \":memory:\" "
                   "for a throwaway one, \"none\" to keep nothing)");
  flags.add_string("--postgres", "", &config.postgres, "CONNINFO",
                   "keep players, games and ratings in PostgreSQL instead of --db: a libpq "
                   "connection string or URI, e.g. \"host=db1 dbname=ttt user=ttt\" or "
                   "postgresql://ttt@db1/ttt (a password belongs in ~/.pgpass or PGPASSWORD)");
  flags.add_string("--export-games", "", &config.export_games, "FILE",
                   "write every finished game of --db (or --postgres) to FILE as plain text, "
                   "then exit");
  flags.add_int("--rate-limit", "", &rate_limit, 0, 1'000'000, "N",
                "messages per second a connection may send (bursts of twice that), 0 = no limit");
  flags.add_int("--max-hello-frame", "", &max_hello_frame, 64, 65536, "BYTES",
                "largest frame a connection may send before its Hello");
  flags.add_int("--send-queue", "", &send_queue, 16 * 1024, std::int64_t{1} << 30, "BYTES",
                "what may wait to be sent to one connection; a client that falls this far "
                "behind is dropped as a slow consumer");
  flags.add_int("--read-buffer-budget", "", &read_budget, 0, std::int64_t{1} << 40, "BYTES",
                "memory all connections' read buffers may hold beyond 2 KiB each; a connection "
                "that would go over is not read until there is room, 0 = no cap");
  flags.add_seconds("--bot-game-grace", &config.lobby.bot_game_grace, 86400,
                    "a game against the server's bot whose player is away ends after this");
  flags.add_int("--bot-queue", "", &bot_queue, 0, 1'000'000, "N",
                "bot moves waiting for a search thread past which new games against the bots "
                "are refused (bots are busy), 0 = no cap");
  flags.add_int("--max-spectators", "", &max_spectators, 0, 1'000'000, "N",
                "spectators a game takes (one address a tenth of them, 2 at least), 0 = no "
                "limit");
  flags.add_bool("--rate-same-address", "", &config.lobby.rate_one_address,
                 "rate games between two accounts of one address (an IPv6 /64) too, e.g. a club "
                 "behind one NAT; by default such games are unrated: one address could be one "
                 "person farming a rating");
  flags.add_int("--max-games-per-address", "", &games_per_address, 0, 1'000'000, "N",
                "game seats the players from one address may hold at once, 0 = no limit");
  flags.add_int("--max-bot-games-per-address", "", &bot_games_per_address, 0, 1'000'000, "N",
                "of those, in games against the server's bots, 0 = no limit");
  flags.add_int("--max-new-names-per-address", "", &new_names, 0, 1'000'000, "N",
                "new names one address may register in an hour (an IPv6 /48: 8 times that), 0 = "
                "no limit");
  flags.add_int("--max-identity-failures-per-address", "", &identity_failures, 0, 1'000'000, "N",
                "wrong secrets for one name from one address (an IPv6 /48), or unknown resume "
                "tokens (or operator tokens) from one address, that are free in an hour before "
                "each costs a growing wait (1 s, 2 s, 4 s ... 5 min), 0 = no limit");
  flags.add_int("--challenges-per-minute", "", &challenges, 0, 1'000'000, "N",
                "challenges one player may make a minute (its address twice that, an IPv6 /48 "
                "16 times), 0 = no limit");
  flags.add_seconds("--challenge-cooldown", &config.lobby.challenge_cooldown, 86400,
                    "how long before a player may challenge the same player again after a "
                    "challenge that ended without a game (declined, withdrawn, expired), 0 = at "
                    "once");
  flags.add_string("--metrics", "", &config.metrics, "ADDR:PORT",
                   "serve /metrics (Prometheus), /healthz and /readyz over HTTP there, e.g. "
                   "127.0.0.1:9100 (plain HTTP: keep it off the internet); default: off");
  flags.add_seconds("--token-lifetime", &config.lobby.token_lifetime, 365.0 * 86400,
                    "a resume token works for this long after it is issued");
  flags.add_string("--stats-token", "", &config.lobby.stats_token, "TOKEN",
                   "GetStats carrying this token (32 characters at least) gets the operator's "
                   "counters (connections, memory, bots); without it, nobody does; wrong tokens "
                   "count as wrong secrets do");
  bool no_tls = !config.tls.enabled;
  flags.add_bool("--no-tls", "", &no_tls,
                 "speak plain TCP, unencrypted (loopback benchmarks, a trusted network)");
  flags.add_string("--tls-cert", "", &config.tls.cert_file, "FILE",
                   "a certificate chain from a CA (PEM, e.g. Let's Encrypt's fullchain.pem), "
                   "with --tls-key; read again on SIGHUP. Default: a self-signed one of the "
                   "server's own");
  flags.add_string("--tls-key", "", &config.tls.key_file, "FILE",
                   "the private key of --tls-cert (PEM, no passphrase)");
  flags.add_string("--tls-dir", "", &config.tls.dir, "DIR",
                   "where the self-signed key and certificate are made and kept (default: the "
                   "folder of --db; with --db none or :memory: or --postgres, $STATE_DIRECTORY or "
                   "$XDG_STATE_HOME/ttt)");
  flags.add_bool("--print-fingerprint", "", &config.print_fingerprint,
                 "print the TLS certificate's fingerprint (SHA256:...) and exit; give the "
                 "same flags as a normal start");

  std::string web = config.web ? "on" : "off";
  flags.add_choice("--web", "", &web, {"on", "off"},
                   "serve the web client on the game port: browsers play and watch at "
                   "https://HOST:PORT/ (http:// with --no-tls); docs/web.md");
  std::string web_origins;
  flags.add_string("--web-origin", "", &web_origins, "URL[,URL...]",
                   "other origins whose pages may open the game's WebSocket besides the page's "
                   "own, e.g. https://ttt.example.org behind a reverse proxy (docs/hosting.md)");
  std::string trusted_proxies;
  flags.add_string("--web-trusted-proxy", "", &trusted_proxies, "ADDR[,ADDR...]",
                   "reverse proxies in front of the web client whose X-Forwarded-For is "
                   "believed: the browsers they forward count by their own addresses for the "
                   "limits per address, not the proxy's (docs/hosting.md)");
  flags.add_string("--web-url", "", &config.lobby.web_url, "URL",
                   "the web client's public address when a reverse proxy serves it, e.g. "
                   "https://ttt.example.org: the clients' watch links start with it");

  flags.add_string("--redis", "", &config.redis, "HOST:PORT|URL",
                   "run as one node of a lobby of several: the Redis the nodes share (the game "
                   "list, quick-match queues, who is where, heartbeats); needs --postgres. "
                   "HOST:PORT, or redis://[USER:PASSWORD@]HOST:PORT to log in (an ACL user, or "
                   "the password alone for requirepass; TTT_REDIS_PASSWORD holds it when the URL "
                   "does not), rediss://... for TLS");
  flags.add_string("--redis-ca", "", &config.redis_ca, "FILE",
                   "with rediss://: the CA certificates (PEM) Redis's certificate is checked "
                   "against (default: the system's); its name must be the host of --redis");
  flags.add_string("--redis-cert", "", &config.redis_cert, "FILE",
                   "with rediss://: a client certificate (PEM) to show Redis (tls-auth-clients); "
                   "needs --redis-key");
  flags.add_string("--redis-key", "", &config.redis_key, "FILE",
                   "with rediss://: the key of --redis-cert (PEM)");
  flags.add_string("--advertise", "", &config.advertise, "HOST:PORT",
                   "with --redis: how clients reach this node when another node sends them here "
                   "(default: --bind and --port, if --bind names one address)");
  flags.add_seconds("--drain-timeout", &config.drain_timeout, 86400,
                    "with --redis: on SIGTERM this node drains (no new games, players out of a "
                    "game go to other nodes) and lets games in progress finish for this long, "
                    "then hands the rest to other nodes and exits");

  flags.add_seconds("--orphan-sweep", &config.orphan_sweep, 3600,
                    "with --redis: how often this node looks for games in progress that no live "
                    "node holds and none of whose players came back; one found twice in a row is "
                    "taken over here (its players then have --reconnect-grace), 0 = never");
  flags.add_string("--cluster-key-file", "", &config.cluster_key_file, "FILE",
                   "with --redis (needed): the key the nodes of the lobby share, in a file only "
                   "its owner may read (32 bytes at least, e.g. made by openssl rand -hex 32); "
                   "every node signs what it tells the others through Redis with it and ignores "
                   "what is not signed with it");
  flags.add_seconds("--node-heartbeat", &config.node_heartbeat, 60,
                    "with --redis: how often this node renews its heartbeat in Redis and in "
                    "PostgreSQL");
  flags.add_seconds("--node-dead-after", &config.node_dead_after, 600,
                    "with --redis: a node whose heartbeats (in Redis and in PostgreSQL) are "
                    "older than this is dead for the others, who may take its games over; a "
                    "node that could not renew its own for this long checks which games are "
                    "still its own (at least twice --node-heartbeat)");
  flags.add_seconds("--seat-hold", &config.lobby.seat_hold, 600,
                    "with --redis: how long this node keeps a seat (or a place to watch or "
                    "challenge from) for a player another node sends here; untaken, it is "
                    "held against the account and address that asked");
  flags.add_seconds("--postgres-timeout", &config.postgres_timeout, 3600,
                    "with --postgres: a statement PostgreSQL does not answer within this time "
                    "means the database is lost (stopped, cut off): writes wait and players "
                    "are told, and the server connects again; 0 = wait for ever");

  ServerArgs args{flags.parse(argc, argv), flags.usage(), ""};
  if (!args.result.ok) return args;
  args.effective_config = flags.effective_config();
  config.port = static_cast<std::uint16_t>(port);
  config.tls.enabled = !no_tls;
  config.web = web == "on";
  config.lobby.web_client = config.web;
  config.tls.http = config.web;
  config.web_settings.origins.clear();
  for (std::size_t start = 0; start <= web_origins.size() && !web_origins.empty();) {
    const std::size_t comma = std::min(web_origins.find(',', start), web_origins.size());
    std::string origin = web_origins.substr(start, comma - start);
    while (!origin.empty() && origin.back() == '/') origin.pop_back();
    if (origin.rfind("http://", 0) != 0 && origin.rfind("https://", 0) != 0) {
      args.result.ok = false;
      args.result.error = "--web-origin: '" + origin +
                          "' is not an origin (https://HOST or https://HOST:PORT, no path)";
      break;
    }
    config.web_settings.origins.push_back(std::move(origin));
    start = comma + 1;
  }
  config.web_settings.trusted_proxies.clear();
  for (std::size_t start = 0;
       args.result.ok && !trusted_proxies.empty() && start <= trusted_proxies.size();) {
    const std::size_t comma = std::min(trusted_proxies.find(',', start), trusted_proxies.size());
    const std::string text = trusted_proxies.substr(start, comma - start);
    boost::system::error_code bad;
    const auto proxy = boost::asio::ip::make_address(text, bad);
    if (bad) {
      args.result.ok = false;
      args.result.error = "--web-trusted-proxy: '" + text + "' is not an IP address";
      break;
    }
    config.web_settings.trusted_proxies.push_back(proxy);
    start = comma + 1;
  }
  while (!config.lobby.web_url.empty() && config.lobby.web_url.back() == '/') {
    config.lobby.web_url.pop_back();
  }
  if (args.result.ok && !config.lobby.web_url.empty() &&
      config.lobby.web_url.rfind("http://", 0) != 0 &&
      config.lobby.web_url.rfind("https://", 0) != 0) {
    args.result.ok = false;
    args.result.error =
        "--web-url: '" + config.lobby.web_url + "' does not start with https:// or http://";
  }
  if (args.result.ok && !config.web &&
      (!web_origins.empty() || !config.lobby.web_url.empty() || !trusted_proxies.empty())) {
    args.result.ok = false;
    args.result.error =
        "--web off: --web-origin, --web-trusted-proxy and --web-url are the web client's; leave "
        "them out";
  }
  if (config.tls.cert_file.empty() != config.tls.key_file.empty()) {
    args.result.ok = false;
    args.result.error = config.tls.cert_file.empty() ? "--tls-key needs --tls-cert too"
                                                     : "--tls-cert needs --tls-key too";
  } else if (no_tls && (!config.tls.cert_file.empty() || config.print_fingerprint)) {
    args.result.ok = false;
    args.result.error = config.print_fingerprint
                            ? "--print-fingerprint: there is no certificate with --no-tls"
                            : "--no-tls and --tls-cert contradict each other: pick one";
  }
  if (args.result.ok && !config.postgres.empty() && !config.db.empty()) {
    args.result.ok = false;
    args.result.error = "--db and --postgres name two different stores: give one of them";
  }
  if (args.result.ok && !config.redis.empty()) {
    std::string error;
    if (config.postgres.empty()) {
      args.result.ok = false;
      args.result.error =
          "--redis needs --postgres: the nodes of one lobby keep their records "
          "in one PostgreSQL database";
    } else if (auto redis = redis::parse_redis_address(config.redis, error); !redis) {
      args.result.ok = false;
      args.result.error = "--redis: " + error;
    } else if (!redis->tls && (!config.redis_ca.empty() || !config.redis_cert.empty() ||
                               !config.redis_key.empty())) {
      args.result.ok = false;
      args.result.error =
          "--redis-ca, --redis-cert and --redis-key are for TLS to Redis: give "
          "--redis rediss://HOST:PORT";
    } else if (config.redis_cert.empty() != config.redis_key.empty()) {
      args.result.ok = false;
      args.result.error = config.redis_cert.empty() ? "--redis-key needs --redis-cert too"
                                                    : "--redis-cert needs --redis-key too";
    } else if (config.advertise.empty() && (config.bind == "0.0.0.0" || config.bind == "::")) {
      args.result.ok = false;
      args.result.error =
          "--redis: other nodes must tell clients how to reach this one: give "
          "--advertise HOST:PORT (or --bind one address)";
    } else if (!config.advertise.empty() &&
               !redis::parse_host_port(config.advertise, config.port, error)) {
      args.result.ok = false;
      args.result.error = "--advertise: " + error;
    } else if (!config.export_games.empty()) {
      args.result.ok = false;
      args.result.error = "--export-games reads the records only: leave out --redis";
    } else if (config.cluster_key_file.empty()) {
      args.result.ok = false;
      args.result.error =
          "--redis needs --cluster-key-file FILE: the nodes sign what they tell "
          "each other through Redis with the key in FILE, so that whoever else "
          "reaches Redis can't speak for a node (make one with: openssl rand "
          "-hex 32 > FILE; chmod 600 FILE; the same file on every node)";
    } else if (auto key = redis::read_cluster_key(config.cluster_key_file, error); !key) {
      args.result.ok = false;
      args.result.error = "--cluster-key-file: " + error;
    } else if (config.lobby.seat_hold.count() <= 0) {
      args.result.ok = false;
      args.result.error =
          "--seat-hold must be more than 0: a player sent to a seat needs the time "
          "to get there";
    } else if (config.node_heartbeat.count() <= 0 ||
               config.node_dead_after < 2 * config.node_heartbeat) {
      args.result.ok = false;
      args.result.error =
          "--node-dead-after must be at least twice --node-heartbeat (and "
          "--node-heartbeat more than 0): a node misses a heartbeat or two "
          "before it is dead";
    } else {
      config.cluster_key = std::move(*key);
    }
  } else if (args.result.ok && !config.cluster_key_file.empty()) {
    args.result.ok = false;
    args.result.error = "--cluster-key-file is the key of the nodes of one lobby: it needs --redis";
  } else if (args.result.ok && !config.advertise.empty()) {
    args.result.ok = false;
    args.result.error =
        "--advertise says how clients reach this node among others: it needs "
        "--redis";
  }
  if (args.result.ok && !config.lobby.stats_token.empty() &&
      config.lobby.stats_token.size() < kMinStatsToken) {
    args.result.ok = false;
    args.result.error = "--stats-token: at least " + std::to_string(kMinStatsToken) +
                        " characters, so that nobody guesses it (e.g. the output of "
                        "`openssl rand -hex 16`); this one has " +
                        std::to_string(config.lobby.stats_token.size());
  }
  if (args.result.ok && !config.metrics.empty()) {
    std::string address, error;
    std::uint16_t metrics_port = 0;
    if (!metrics::parse_listen_address(config.metrics, address, metrics_port, error)) {
      args.result.ok = false;
      args.result.error = "--metrics: " + error;
    }
  }
  config.threads = static_cast<int>(threads);
  config.bot_threads = static_cast<int>(bot_threads);
  config.max_connections = static_cast<std::size_t>(max_connections);
  config.session.max_frame = static_cast<std::size_t>(max_frame);
  config.session.messages_per_second = static_cast<double>(rate_limit);
  config.session.message_burst = 2.0 * static_cast<double>(rate_limit);
  config.lobby.bot_budget = std::chrono::milliseconds(bot_budget);
  config.lobby.heartbeat_timeout = config.session.heartbeat_timeout;
  config.lobby.node_dead_after = config.node_dead_after;
  config.lobby.fallback_level = *parse_level(fallback_level);
  config.session.max_hello_frame = static_cast<std::size_t>(max_hello_frame);
  config.session.max_queued_bytes = static_cast<std::size_t>(send_queue);
  config.read_buffer_budget = static_cast<std::size_t>(read_budget);
  config.lobby.bot_queue = static_cast<std::size_t>(bot_queue);
  config.lobby.max_spectators = static_cast<std::size_t>(max_spectators);
  config.lobby.quotas.games = static_cast<std::size_t>(games_per_address);
  config.lobby.quotas.bot_games = static_cast<std::size_t>(bot_games_per_address);
  config.max_connections_per_ip = static_cast<std::size_t>(per_ip);
  config.listener.connections_per_second = static_cast<double>(rate_per_ip);
  config.lobby.challenges_per_minute = static_cast<double>(challenges);
  config.lobby.new_names_per_hour = static_cast<std::size_t>(new_names);
  config.lobby.identity_failures = static_cast<std::size_t>(identity_failures);
  return args;
}

}  // namespace ttt::server
