// ttt-bench: the load tool. Plays quick-match games as fast as the server
// answers and reports throughput and move round-trip latency; --baseline
// measures the same load against a minimal relay (the physical limit),
// --idle holds idle connections and reports the server's memory per
// connection, --churn drops and resumes connections and checks for leaks,
// --lobby holds idle players online and times the lobby's answers.
#include <sys/resource.h>
#include <unistd.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_future.hpp>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "load/flood.hpp"
#include "load/handshakes.hpp"
#include "load/load_player.hpp"
#include "load/lobby_probe.hpp"
#include "load/relay.hpp"
#include "load/stats_query.hpp"
#include "ttt/cli/flags.hpp"
#include "ttt/cli/invocation.hpp"
#include "ttt/cli/program.hpp"
#include "ttt/tls/alpn.hpp"
#include "ttt/tls/stream.hpp"

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using std::chrono::steady_clock;
using namespace ttt::bench;

struct BenchConfig {
  std::string host = "127.0.0.1";
  std::int64_t port = 7777;
  std::int64_t connections = 100;
  std::int64_t seconds = 10;
  std::int64_t size = 3;
  std::int64_t idle = 0;
  std::int64_t lobby = 0;
  std::string flood;  // a FloodKind's name; empty: no flood
  std::int64_t rounds = 300;
  std::int64_t seed = 1;
  bool baseline = false;
  bool churn = false;
  bool tls = false;
  bool handshakes = false;
  bool web = false;
  std::int64_t pace = 2000;  // --web: moves a second offered in all; 0 = as fast as answered
  std::string stats_token;   // the server's --stats-token (its memory counters need it)
};

// The bench's TLS: the settings every client has, and no check of the
// server's certificate (it measures a server of its own, on loopback).
std::shared_ptr<asio::ssl::context> client_tls() {
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  ttt::tls::harden(*context);
  ttt::tls::offer_ttt_protocol(*context);
  context->set_verify_mode(asio::ssl::verify_none);
  return context;
}

void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Runs the io_context for `duration`, printing a live status line on a
// terminal.
void run_measured(asio::io_context& io, LoadCounters& counters, std::chrono::seconds duration,
                  const char* label) {
  const bool live = isatty(STDERR_FILENO) != 0;
  const auto start = steady_clock::now();
  const auto end = start + duration;
  while (steady_clock::now() < end) {
    io.run_for(
        std::min<steady_clock::duration>(std::chrono::seconds(1), end - steady_clock::now()));
    if (live) {
      const double elapsed = std::chrono::duration<double>(steady_clock::now() - start).count();
      std::fprintf(stderr, "\r%s: %.0f s, %.0f moves/s, %llu games, %llu errors   ", label, elapsed,
                   static_cast<double>(counters.moves) / std::max(elapsed, 1e-9),
                   static_cast<unsigned long long>(counters.games),
                   static_cast<unsigned long long>(counters.errors));
    }
  }
  if (live) std::fprintf(stderr, "\r%*s\r", 70, "");
}

std::optional<ttt::wire::ServerStats> stats_of(tcp::endpoint server, const std::string& token) {
  asio::io_context io;
  auto future = asio::co_spawn(io, query_stats(server, token), asio::use_future);
  io.run();
  return future.get();
}

// Asks for the server's stats while io keeps serving the load's connections.
std::optional<ttt::wire::ServerStats> stats_while_running(asio::io_context& io,
                                                          tcp::endpoint server,
                                                          const std::string& token) {
  bool done = false;
  std::optional<ttt::wire::ServerStats> stats;
  asio::co_spawn(io, query_stats(server, token),
                 [&](std::exception_ptr, std::optional<ttt::wire::ServerStats> s) {
                   stats = s;
                   done = true;
                 });
  while (!done) io.run_for(std::chrono::milliseconds(20));
  return stats;
}

// The i-th of many loopback addresses (127.0.2.1, 127.0.2.2, ...), so many
// players look like many machines to a server's limits per address.
asio::ip::address spread_address(std::int64_t i) {
  const auto n = static_cast<std::uint32_t>(i);
  return asio::ip::make_address_v4((127u << 24) | ((2u + n / 250) << 8) | (1u + n % 250));
}

std::vector<std::shared_ptr<LoadPlayer>> spawn_players(asio::io_context& io, const BenchConfig& c,
                                                       const PlayerOptions& base,
                                                       LoadCounters& counters,
                                                       const std::string& prefix = "bench",
                                                       std::int64_t per_address = 0) {
  std::vector<std::shared_ptr<LoadPlayer>> players;
  for (std::int64_t i = 0; i < c.connections; ++i) {
    PlayerOptions options = base;
    if (per_address > 0) options.source = spread_address(i / per_address);
    options.seed = static_cast<std::uint64_t>(c.seed) * 1'000'003 + static_cast<std::uint64_t>(i);
    // Names unique to this run: a server remembers names it has seen.
    auto player = std::make_shared<LoadPlayer>(
        io, options, counters, prefix + "-" + std::to_string(getpid()) + "-" + std::to_string(i));
    asio::co_spawn(io, player->run(), asio::detached);
    players.push_back(player);
  }
  return players;
}

int run_load(const BenchConfig& c, tcp::endpoint endpoint, Target target) {
  asio::io_context io;
  LoadCounters counters;
  PlayerOptions base;
  base.target = target;
  base.endpoint = endpoint;
  base.size = static_cast<int>(c.size);
  if (target == Target::Server && c.tls) base.tls = client_tls();
  auto players = spawn_players(io, c, base, counters);
  // Until every player is in a game (or 20 s), nothing is measured.
  const auto warmup_end = steady_clock::now() + std::chrono::seconds(20);
  while (counters.started < static_cast<std::uint64_t>(c.connections) &&
         steady_clock::now() < warmup_end) {
    io.run_for(std::chrono::milliseconds(10));
  }
  if (counters.connected == 0) {
    std::fprintf(stderr, "ttt-bench: could not connect to %s port %u\n",
                 endpoint.address().to_string().c_str(), endpoint.port());
    return 1;
  }
  if (counters.started < static_cast<std::uint64_t>(c.connections)) {
    counters.errors += static_cast<std::uint64_t>(c.connections) - counters.started;
    counters.error_kinds["never started a game"] +=
        static_cast<std::uint64_t>(c.connections) - counters.started;
  }
  counters.measuring = true;
  run_measured(io, counters, std::chrono::seconds(c.seconds), "bench");
  counters.measuring = false;
  for (auto& p : players) p->stop();
  io.run_for(std::chrono::milliseconds(200));

  for (const auto& [kind, count] : counters.error_kinds) {
    std::fprintf(stderr, "ttt-bench: %llu x %s\n", static_cast<unsigned long long>(count),
                 kind.c_str());
  }
  const double per_second = static_cast<double>(counters.moves) / static_cast<double>(c.seconds);
  std::printf(
      "bench: connections=%lld moves_per_s=%.0f p50_us=%u p99_us=%u p999_us=%u games=%llu "
      "errors=%llu\n",
      static_cast<long long>(c.connections), per_second, counters.latency.percentile(50),
      counters.latency.percentile(99), counters.latency.percentile(99.9),
      static_cast<unsigned long long>(counters.games),
      static_cast<unsigned long long>(counters.errors));
  return 0;
}

// --web: the server's CPU time per move of games over its web side
// (WebSocket, binary protobuf) against the same games over TCP, in one run:
// rounds of TCP then WebSocket players, each measured from the server's
// own CPU counter (GetStats with the operator's token) around the measured
// seconds. Target: a web move at most 1.5x a TCP move's CPU.
int run_web_comparison(const BenchConfig& c, tcp::endpoint endpoint) {
  constexpr int kRounds = 2;
  struct Total {
    double moves = 0;
    double cpu_us = 0;
    std::uint64_t errors = 0;
  } totals[2];
  for (int round = 0; round < kRounds; ++round) {
    for (const bool web : {false, true}) {
      asio::io_context io;
      LoadCounters counters;
      PlayerOptions base;
      base.target = Target::Server;
      base.endpoint = endpoint;
      base.size = static_cast<int>(c.size);
      base.web = web;
      if (c.pace > 0) {
        // Each game offers pace / games moves a second: its two players alternate.
        base.move_delay = std::chrono::microseconds(c.connections / 2 * 1'000'000 / c.pace);
      }
      BenchConfig phase = c;
      const std::string prefix = std::string(web ? "web" : "tcp") + std::to_string(round);
      auto players = spawn_players(io, phase, base, counters, prefix);
      const auto warmup_end = steady_clock::now() + std::chrono::seconds(20);
      while (counters.started < static_cast<std::uint64_t>(c.connections) &&
             steady_clock::now() < warmup_end) {
        io.run_for(std::chrono::milliseconds(10));
      }
      const auto before = stats_while_running(io, endpoint, c.stats_token);
      counters.measuring = true;
      run_measured(io, counters,
                   std::chrono::seconds(std::max<std::int64_t>(1, c.seconds / kRounds)),
                   web ? "web" : "tcp");
      counters.measuring = false;
      const auto after = stats_while_running(io, endpoint, c.stats_token);
      for (auto& p : players) p->stop();
      io.run_for(std::chrono::milliseconds(200));
      if (!before || !after || !after->operator_view()) {
        std::fprintf(stderr,
                     "ttt-bench: --web needs the server's CPU counter: give --stats-token (the "
                     "server's)\n");
        return 1;
      }
      for (const auto& [kind, count] : counters.error_kinds) {
        std::fprintf(stderr, "ttt-bench: %s: %llu x %s\n", web ? "web" : "tcp",
                     static_cast<unsigned long long>(count), kind.c_str());
      }
      Total& t = totals[web ? 1 : 0];
      t.moves += static_cast<double>(counters.moves);
      t.cpu_us += static_cast<double>(after->cpu_us() - before->cpu_us());
      t.errors += counters.errors;
    }
  }
  const double seconds =
      static_cast<double>(std::max<std::int64_t>(1, c.seconds / kRounds) * kRounds);
  const double tcp_per_move = totals[0].moves > 0 ? totals[0].cpu_us / totals[0].moves : 0;
  const double web_per_move = totals[1].moves > 0 ? totals[1].cpu_us / totals[1].moves : 0;
  const double ratio = tcp_per_move > 0 ? web_per_move / tcp_per_move : 0;
  std::printf(
      "web: connections=%lld pace=%lld tcp_moves_per_s=%.0f web_moves_per_s=%.0f "
      "tcp_cpu_us_per_move=%.2f "
      "web_cpu_us_per_move=%.2f ratio=%.2f target=1.50 %s errors=%llu\n",
      static_cast<long long>(c.connections), static_cast<long long>(c.pace),
      totals[0].moves / seconds, totals[1].moves / seconds, tcp_per_move, web_per_move, ratio,
      ratio > 0 && ratio <= 1.5 ? "met" : "NOT_MET",
      static_cast<unsigned long long>(totals[0].errors + totals[1].errors));
  return totals[0].moves > 0 && totals[1].moves > 0 && totals[0].errors + totals[1].errors == 0 ? 0
                                                                                                : 1;
}

int run_handshakes(const BenchConfig& c, tcp::endpoint endpoint) {
  const auto count = measure_handshakes(endpoint, static_cast<int>(c.connections),
                                        std::chrono::seconds(c.seconds), client_tls());
  if (count.handshakes == 0) {
    std::fprintf(stderr, "ttt-bench: no TLS handshake with %s port %u (%llu failed)\n",
                 endpoint.address().to_string().c_str(), endpoint.port(),
                 static_cast<unsigned long long>(count.errors));
    return 1;
  }
  std::printf("handshakes: loops=%lld per_s=%.0f errors=%llu\n",
              static_cast<long long>(c.connections),
              static_cast<double>(count.handshakes) / static_cast<double>(c.seconds),
              static_cast<unsigned long long>(count.errors));
  return 0;
}

int run_idle(const BenchConfig& c, tcp::endpoint endpoint) {
  const auto before = stats_of(endpoint, c.stats_token);
  if (!before) {
    std::fprintf(stderr, "ttt-bench: no stats from the server at port %u\n", endpoint.port());
    return 1;
  }
  asio::io_context io;
  LoadCounters counters;
  PlayerOptions base;
  base.endpoint = endpoint;
  base.idle = true;
  BenchConfig idle = c;
  idle.connections = c.idle;
  auto players = spawn_players(io, idle, base, counters);
  const auto connect_end = steady_clock::now() + std::chrono::seconds(60);
  std::optional<ttt::wire::ServerStats> during;
  while (steady_clock::now() < connect_end) {
    io.run_for(std::chrono::milliseconds(100));
    if (counters.connected + counters.errors < static_cast<std::uint64_t>(c.idle)) continue;
    const auto now = stats_while_running(io, endpoint, c.stats_token);
    if (now && now->players() >= before->players() + static_cast<std::uint64_t>(c.idle)) {
      during = now;
      break;
    }
  }
  run_measured(io, counters, std::chrono::seconds(c.seconds), "idle");
  const auto held = stats_while_running(io, endpoint, c.stats_token);
  for (auto& p : players) p->stop();
  io.run_for(std::chrono::milliseconds(200));
  if (!held || !during) {
    std::printf("idle: connections=%lld held=0 errors=%llu\n", static_cast<long long>(c.idle),
                static_cast<unsigned long long>(counters.errors));
    return 1;
  }
  const auto held_connections = held->connections() - before->connections();
  const double per_connection = held_connections == 0
                                    ? 0.0
                                    : static_cast<double>(held->rss_bytes() - before->rss_bytes()) /
                                          static_cast<double>(held_connections);
  std::printf(
      "idle: connections=%lld held=%llu rss_base_kb=%llu rss_kb=%llu "
      "per_connection_bytes=%.0f errors=%llu\n",
      static_cast<long long>(c.idle), static_cast<unsigned long long>(held_connections),
      static_cast<unsigned long long>(before->rss_bytes() / 1024),
      static_cast<unsigned long long>(held->rss_bytes() / 1024), per_connection,
      static_cast<unsigned long long>(counters.errors));
  return counters.errors == 0 ? 0 : 1;
}

int run_lobby(const BenchConfig& c, tcp::endpoint endpoint) {
  asio::io_context io;
  LoadCounters counters;
  PlayerOptions base;
  base.endpoint = endpoint;
  base.idle = true;
  if (c.tls) base.tls = client_tls();
  BenchConfig idle = c;
  idle.connections = c.lobby;
  auto players = spawn_players(io, idle, base, counters, "bench", 20);
  LobbyProbe probe(io, endpoint, base.tls,
                   "lobby-" + std::to_string(getpid()) + "-" + std::to_string(c.seed) + "-");
  auto figures =
      asio::co_spawn(io,
                     probe.run(static_cast<int>(c.rounds), static_cast<std::uint32_t>(c.lobby),
                               std::chrono::seconds(120)),
                     asio::use_future);
  while (figures.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    io.run_for(std::chrono::milliseconds(50));
  }
  LobbyFigures f = figures.get();
  for (auto& p : players) p->stop();
  io.run_for(std::chrono::milliseconds(200));
  if (f.errors > 0) std::fprintf(stderr, "ttt-bench: %s\n", f.first_error.c_str());
  std::printf(
      "lobby: online=%lld rounds=%lld hello_p50_us=%u hello_p99_us=%u list_p50_us=%u "
      "list_p99_us=%u who_p50_us=%u who_p99_us=%u challenge_p50_us=%u challenge_p99_us=%u "
      "errors=%llu\n",
      static_cast<long long>(c.lobby), static_cast<long long>(c.rounds), f.hello.percentile(50),
      f.hello.percentile(99), f.list.percentile(50), f.list.percentile(99), f.who.percentile(50),
      f.who.percentile(99), f.challenge.percentile(50), f.challenge.percentile(99),
      static_cast<unsigned long long>(f.errors + counters.errors));
  return f.errors + counters.errors == 0 ? 0 : 1;
}

int run_flood_mode(const BenchConfig& c, tcp::endpoint endpoint, FloodKind kind) {
  // --lobby N: that many idle players online first.
  asio::io_context io;
  LoadCounters counters;
  PlayerOptions base;
  base.endpoint = endpoint;
  base.idle = true;
  if (c.tls) base.tls = client_tls();
  BenchConfig idle = c;
  idle.connections = c.lobby;
  // Twenty players an address: within a server's default limits per address.
  auto players = spawn_players(io, idle, base, counters, "bench", 20);
  const auto connect_end = steady_clock::now() + std::chrono::seconds(120);
  while (counters.connected < static_cast<std::uint64_t>(c.lobby) &&
         steady_clock::now() < connect_end) {
    io.run_for(std::chrono::milliseconds(50));
  }
  io.run_for(std::chrono::milliseconds(500));  // their Welcomes
  FloodFigures f = run_flood(kind, endpoint, base.tls, std::chrono::seconds(c.seconds),
                             "flood-" + std::to_string(getpid()) + "-");
  for (auto& p : players) p->stop();
  io.run_for(std::chrono::milliseconds(200));
  std::printf(
      "flood: kind=%s online=%lld victim_pings=%zu victim_p50_us=%u victim_p99_us=%u "
      "victim_max_us=%u lost=%llu attacker_connections=%llu attacker_cut_off=%llu "
      "attacker_bytes=%llu\n",
      c.flood.c_str(), static_cast<long long>(c.lobby), f.victim_pings.count(),
      f.victim_pings.percentile(50), f.victim_pings.percentile(99), f.victim_max_us,
      static_cast<unsigned long long>(f.lost_pings),
      static_cast<unsigned long long>(f.attacker_connections),
      static_cast<unsigned long long>(f.attacker_cut_off),
      static_cast<unsigned long long>(f.attacker_bytes));
  return f.victim_pings.count() > 0 ? 0 : 1;
}

int run_churn(const BenchConfig& c, tcp::endpoint endpoint) {
  const auto before = stats_of(endpoint, c.stats_token);
  if (!before) {
    std::fprintf(stderr, "ttt-bench: no stats from the server at port %u\n", endpoint.port());
    return 1;
  }
  asio::io_context io;
  LoadCounters counters;
  counters.measuring = true;
  std::mt19937_64 rng(static_cast<std::uint64_t>(c.seed));
  std::uint64_t cycles = 0;
  std::vector<std::shared_ptr<LoadPlayer>> slots(static_cast<std::size_t>(c.connections));
  // Each slot is one returning player: the same name, with its secret.
  std::vector<std::shared_ptr<std::string>> secrets;
  for (std::size_t i = 0; i < slots.size(); ++i) secrets.push_back(std::make_shared<std::string>());
  const auto end = steady_clock::now() + std::chrono::seconds(c.seconds);
  // Each slot runs one churn cycle after another until the time is up.
  std::function<void(std::size_t)> start_cycle = [&](std::size_t slot) {
    if (steady_clock::now() >= end) return;
    PlayerOptions options;
    options.endpoint = endpoint;
    options.size = static_cast<int>(c.size);
    options.seed = rng();
    options.drop_after_moves = 1 + static_cast<int>(rng() % 3);
    options.secret = secrets[slot];
    ++cycles;
    slots[slot] = std::make_shared<LoadPlayer>(
        io, options, counters, "churn-" + std::to_string(getpid()) + "-" + std::to_string(slot));
    asio::co_spawn(io, slots[slot]->run(), [&, slot](std::exception_ptr) { start_cycle(slot); });
  };
  for (std::size_t i = 0; i < slots.size(); ++i) start_cycle(i);
  run_measured(io, counters, std::chrono::seconds(c.seconds), "churn");
  for (auto& p : slots) {
    if (p) p->stop();
  }
  io.run_for(std::chrono::milliseconds(500));
  // The server forgets away players after its grace period: wait for it.
  std::optional<ttt::wire::ServerStats> after;
  const auto settle_end = steady_clock::now() + std::chrono::seconds(120);
  while (steady_clock::now() < settle_end) {
    after = stats_of(endpoint, c.stats_token);
    if (after && after->games() == before->games() && after->players() <= before->players() + 1 &&
        after->queued() == 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  if (!after) return 1;
  const auto leaked_players =
      after->players() > before->players() + 1 ? after->players() - before->players() - 1 : 0;
  std::printf(
      "churn: cycles=%llu games=%llu leaked_games=%llu leaked_players=%llu "
      "rss_base_kb=%llu rss_after_kb=%llu\n",
      static_cast<unsigned long long>(cycles),
      static_cast<unsigned long long>(after->games_finished() - before->games_finished()),
      static_cast<unsigned long long>(after->games() - std::min(after->games(), before->games())),
      static_cast<unsigned long long>(leaked_players),
      static_cast<unsigned long long>(before->rss_bytes() / 1024),
      static_cast<unsigned long long>(after->rss_bytes() / 1024));
  return after->games() == before->games() && leaked_players == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  BenchConfig c;
  ttt::cli::Flags flags("ttt-bench",
                        "Load tool: plays quick-match games as fast as the server answers and "
                        "reports moves/s and move round-trip latency.");
  flags.add_string("--host", "", &c.host, "ADDR", "server address (IPv4 or IPv6 literal)");
  flags.add_int("--port", "", &c.port, 1, 65535, "N", "server port");
  flags.add_int("--connections", "", &c.connections, 2, 200'000, "C",
                "connections, playing in pairs (even)");
  flags.add_int("--seconds", "", &c.seconds, 1, 86'400, "S", "how long to measure");
  flags.add_int("--size", "", &c.size, 3, 15, "N", "board size");
  flags.add_bool("--baseline", "", &c.baseline,
                 "measure the same load against an in-process minimal relay instead of a server");
  flags.add_bool("--churn", "", &c.churn,
                 "connections join, play a few moves, vanish mid-game and come back; then check "
                 "the server for leaks");
  flags.add_int("--idle", "", &c.idle, 0, 1'000'000, "N",
                "hold N idle connections for --seconds and report the server's memory per "
                "connection");
  flags.add_int("--lobby", "", &c.lobby, 0, 1'000'000, "N",
                "hold N idle players online, then time the lobby's answers (Hello, the game "
                "list, /who, a challenge) --rounds times each and print p50 and p99");
  flags.add_string("--flood", "", &c.flood, "KIND",
                   "flood the server from one address (pong: Pong frames; records: TLS records "
                   "of one byte; key-updates: TLS key updates; challenges: 30 accounts "
                   "challenging one player) for --seconds while a victim pings every 10 ms, "
                   "and print the victim's round trips; with --lobby N, N idle players online");
  flags.add_int("--rounds", "", &c.rounds, 1, 1'000'000, "R",
                "with --lobby: round trips of each request");
  flags.add_bool("--tls", "", &c.tls,
                 "speak TLS to the server, as every client does by default (the server's "
                 "certificate is not checked: measure servers of your own)");
  flags.add_bool("--handshakes", "", &c.handshakes,
                 "with --tls: full TLS handshakes per second, --connections at a time, instead "
                 "of games");
  flags.add_bool("--web", "", &c.web,
                 "compare the server's CPU per move over its web side (WebSocket) with TCP, in "
                 "one run: rounds of each, --seconds in all (needs --stats-token; plain TCP)");
  flags.add_int("--pace", "", &c.pace, 0, 1'000'000, "N",
                "with --web: moves a second offered in all, the same for both (each move waits "
                "its share first), so CPU per move compares at one load; 0 = as fast as the "
                "server answers");
  flags.add_int("--seed", "", &c.seed, 0, INT64_MAX, "N", "random seed for the moves");
  flags.add_string("--stats-token", "", &c.stats_token, "TOKEN",
                   "the server's --stats-token, for its memory and connection counters "
                   "(--idle and --churn)");
  const auto parsed = flags.parse(argc, argv);
  if (!parsed.ok) {
    std::fprintf(stderr, "ttt-bench: %s\n(see %s --help)\n", parsed.error.c_str(),
                 ttt::cli::invocation_name("ttt-bench").c_str());
    return 2;
  }
  const ttt::cli::ParsedArgs args{parsed, flags.usage(), flags.effective_config()};
  if (const auto done = ttt::cli::answer_command_line("ttt-bench", args)) return *done;
  if (c.connections % 2 != 0 && !c.churn) {
    std::fprintf(stderr, "ttt-bench: --connections must be even (players come in pairs)\n");
    return 2;
  }
  if (c.handshakes && !c.tls) {
    std::fprintf(stderr, "ttt-bench: --handshakes measures TLS: give --tls too\n");
    return 2;
  }
  std::optional<FloodKind> flood_kind;
  if (!c.flood.empty()) {
    flood_kind = parse_flood_kind(c.flood);
    if (!flood_kind) {
      std::fprintf(stderr,
                   "ttt-bench: --flood is pong, records, key-updates or challenges, "
                   "not '%s'\n",
                   c.flood.c_str());
      return 2;
    }
    if ((*flood_kind == FloodKind::kRecords || *flood_kind == FloodKind::kKeyUpdates) && !c.tls) {
      std::fprintf(stderr, "ttt-bench: --flood %s is of TLS: give --tls too\n", c.flood.c_str());
      return 2;
    }
  }
  if (c.lobby > 0 && (c.baseline || c.idle > 0 || c.churn || c.handshakes)) {
    std::fprintf(stderr,
                 "ttt-bench: --lobby is a mode of its own: leave out --baseline, --idle, "
                 "--churn and --handshakes\n");
    return 2;
  }
  if (c.tls && (c.baseline || c.idle > 0 || c.churn)) {
    std::fprintf(stderr,
                 "ttt-bench: --tls measures games (or --handshakes); --baseline, --idle and "
                 "--churn speak plain TCP\n");
    return 2;
  }
  if (c.web && (c.tls || c.baseline || c.idle > 0 || c.churn || c.handshakes)) {
    std::fprintf(stderr,
                 "ttt-bench: --web compares WebSocket and TCP games on a plain server: leave out "
                 "--tls, --baseline, --idle, --churn and --handshakes\n");
    return 2;
  }
  if (parsed.print_config) {
    std::fputs(flags.effective_config().c_str(), stdout);
    return 0;
  }
  raise_file_limit();

  if (c.baseline) {
    asio::io_context relay_io;
    Relay relay(relay_io);
    relay.start();
    std::thread relay_thread([&relay_io] { relay_io.run(); });
    const int rc = run_load(c, tcp::endpoint(asio::ip::make_address("127.0.0.1"), relay.port()),
                            Target::Relay);
    relay_io.stop();
    relay_thread.join();
    return rc;
  }
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(c.host, ec);
  if (ec) {
    std::fprintf(stderr, "ttt-bench: --host expects an IP address, got '%s'\n", c.host.c_str());
    return 2;
  }
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(c.port));
  if (flood_kind) return run_flood_mode(c, endpoint, *flood_kind);
  if (c.lobby > 0) return run_lobby(c, endpoint);
  if (c.idle > 0) return run_idle(c, endpoint);
  if (c.churn) return run_churn(c, endpoint);
  if (c.handshakes) return run_handshakes(c, endpoint);
  if (c.web) return run_web_comparison(c, endpoint);
  return run_load(c, endpoint, Target::Server);
}
