// ttt-server: the lobby server's command line.
#include <sys/resource.h>
#include <sys/stat.h>

#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "log_format.hpp"
#include "server.hpp"
#include "store/db_file.hpp"
#include "store/game_export.hpp"
#include "store/open_store.hpp"
#include "tls/tls_error.hpp"
#include "ttt/cli/invocation.hpp"

namespace {

// Raises the soft open-file limit to the hard one, so that many connections
// fit, and reports the result.
void raise_file_limit(std::size_t wanted_connections) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t before = limit.rlim_cur;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) limit.rlim_cur = before;
  }
  if (limit.rlim_cur != before) {
    spdlog::info("open-file limit raised from {} to {}", before, limit.rlim_cur);
  }
  if (limit.rlim_cur < wanted_connections + 64) {
    spdlog::warn("open-file limit {} caps connections below --max-connections {}", limit.rlim_cur,
                 wanted_connections);
  }
}

// --export-games: writes the finished games of --db (or --postgres) to a
// file. Reads only a database that exists: a mistyped path is an error
// (exit 1), not an empty export, and neither the database nor FILE is
// created.
int export_games(const ttt::server::ServerConfig& config) {
  if (config.postgres.empty()) {
    if (config.db == "none" || config.db == ":memory:") {
      std::fprintf(stderr,
                   "ttt-server: --export-games needs --db PATH of an existing database, not "
                   "--db %s (or --postgres CONNINFO)\n",
                   config.db.c_str());
      return 2;
    }
    std::error_code ec;
    const bool present = std::filesystem::exists(config.db, ec);
    if (ec) {
      std::fprintf(stderr, "ttt-server: cannot read database %s: %s\n", config.db.c_str(),
                   ec.message().c_str());
      return 1;
    }
    if (!present) {
      std::fprintf(stderr, "ttt-server: no database at %s\n", config.db.c_str());
      return 1;
    }
  }
  try {
    const auto store =
        ttt::server::open_store(config.db, config.postgres, ttt::server::StoreUse::kReader);
    std::error_code ec;
    std::ofstream out(config.export_games);
    // An existing file keeps its mode when overwritten: make it private too.
    std::filesystem::permissions(config.export_games, std::filesystem::perms::owner_read |
                                                           std::filesystem::perms::owner_write,
                                 ec);
    if (!out) {
      std::fprintf(stderr, "ttt-server: cannot write %s\n", config.export_games.c_str());
      return 1;
    }
    const std::size_t count = ttt::server::export_games(*store, out);
    out.close();
    if (!out) {
      std::fprintf(stderr, "ttt-server: writing %s failed\n", config.export_games.c_str());
      return 1;
    }
    std::printf("exported %zu games to %s\n", count, config.export_games.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-server: %s\n", e.what());
    return 1;
  }
}

// --print-fingerprint: the certificate's fingerprint alone on stdout (the
// self-signed pair is made first if it isn't there yet).
int print_fingerprint(const ttt::server::ServerConfig& config) {
  try {
    const ttt::server::TlsIdentity identity(config.tls, config.db);
    std::printf("%s\n", identity.fingerprint().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-server: %s\n", e.what());
    return 1;
  }
}

// SIGHUP reads the TLS certificate and key again, as often as it comes.
// SIGINT stops. SIGTERM stops a server alone; a node of several drains
// (its games finish or move on to other nodes), and a SIGINT (or a second
// SIGTERM) after that stops it at once.
void stop_on_signal(boost::asio::signal_set& signals, ttt::server::Server& server) {
  signals.async_wait([&signals, &server](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    static bool draining = false;
    if (signal == SIGTERM && server.clustered() && !draining) {
      draining = true;
      server.drain();
      stop_on_signal(signals, server);
      return;
    }
    server.stop(signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)");
  });
}

void reload_on_hangup(boost::asio::signal_set& hangups, ttt::server::Server& server) {
  hangups.async_wait([&hangups, &server](const boost::system::error_code& ec, int) {
    if (ec) return;
    server.reload_tls();
    reload_on_hangup(hangups, server);
  });
}

}  // namespace

int main(int argc, char** argv) {
  // Whatever the server writes (the database and its journal files, an
  // export) is its owner's only: 0600 files, 0700 folders.
  ::umask(077);
  // A peer that closes while the server writes (hiredis writes with plain
  // write(): Redis, or a TLS port spoken to in plain) is an error to handle,
  // never the end of the process.
  std::signal(SIGPIPE, SIG_IGN);
  ttt::server::ServerConfig config;
  const auto args = ttt::server::parse_server_args(argc, argv, config);
  if (!args.result.ok) {
    std::fprintf(stderr, "ttt-server: %s\n(see %s --help)\n", args.result.error.c_str(),
                 ttt::cli::invocation_name("ttt-server").c_str());
    return 2;
  }
  if (args.result.help) {
    std::fputs(args.usage.c_str(), stdout);
    return 0;
  }
  if (args.result.print_config) {
    std::fputs(args.effective_config.c_str(), stdout);
    return 0;
  }
  auto logger = spdlog::stderr_color_mt("ttt-server");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  if (config.log_format == "json") spdlog::set_formatter(ttt::server::json_log_formatter());
  // With --postgres there is no database file (and the self-signed
  // certificate goes to the state folder).
  const bool default_db = config.db.empty() && config.postgres.empty();
  if (default_db) {
    std::string error;
    config.db = ttt::server::default_db_path(error);
    if (config.db.empty()) {
      std::fprintf(stderr, "ttt-server: %s\n", error.c_str());
      return 1;
    }
  }
  if (!config.export_games.empty()) return export_games(config);
  if (config.print_fingerprint) return print_fingerprint(config);
  if (config.postgres.empty() && config.db != "none" && config.db != ":memory:") {
    std::string error;
    if (!ttt::server::prepare_db_file(config.db, default_db, error)) {
      std::fprintf(stderr, "ttt-server: cannot create the database: %s\n", error.c_str());
      return 1;
    }
  }
  raise_file_limit(config.max_connections);

  try {
    ttt::server::Server server(config);
    boost::asio::signal_set signals(server.io_context(), SIGINT, SIGTERM);
    stop_on_signal(signals, server);
    boost::asio::signal_set hangups(server.io_context(), SIGHUP);
    reload_on_hangup(hangups, server);
    spdlog::info("ttt-server {} listening on {} port {} ({} thread{}, {})",
                 config.lobby.server_version, config.bind, server.port(), config.threads,
                 config.threads == 1 ? "" : "s", config.tls.enabled ? "TLS" : "plain TCP, no TLS");
    if (config.tls.enabled) spdlog::info("tls fingerprint: {}", server.fingerprint());
    if (server.metrics_port() != 0) {
      spdlog::info("metrics over HTTP on {} (port {}): /metrics, /healthz, /readyz", config.metrics,
                   server.metrics_port());
    }
    // Machine-readable lines for scripts that start the server on port 0 (the
    // fingerprint first: it is there once the port is).
    if (config.tls.enabled) std::printf("tls fingerprint: %s\n", server.fingerprint().c_str());
    std::printf("listening on port %u\n", static_cast<unsigned>(server.port()));
    std::fflush(stdout);
    server.run();
    spdlog::info("stopped");
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
