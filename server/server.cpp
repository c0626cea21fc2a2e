#include "server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <filesystem>
#include <future>
#include <thread>
#include <vector>

#include "net/memory_trim.hpp"
#include "store/open_store.hpp"

namespace ttt::server {
namespace asio = boost::asio;
namespace {

asio::any_io_executor logic_executor(asio::io_context& io, int threads) {
  if (threads == 1) return io.get_executor();
  return asio::make_strand(io);
}

// The lobby's settings, with what it must know of the server's.
LobbyConfig lobby_config(const ServerConfig& config) {
  LobbyConfig lobby = config.lobby;
  lobby.bot_threads = config.bot_threads;
  return lobby;
}

constexpr auto kHousekeepingEvery = std::chrono::seconds(2);
// Closed connections worth giving memory back for.
constexpr std::size_t kTrimAfterClosed = 64;

}  // namespace

Server::Opened Server::open_records(const ServerConfig& config, asio::any_io_executor completions,
                                  metrics::Histogram* commit_seconds) {
  Opened opened;
  auto store = open_store(config.db, config.postgres);
  if (!store) {
    spdlog::info("no database (--db none): names, games and ratings are not kept");
    return opened;
  }
  opened.players = store->load_players();
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  opened.pairings = store->load_rated_pairings(now_ms - kRepeatWindowMs);
  opened.state.unfinished_games = store->load_unfinished_games();
  opened.state.tokens = store->load_tokens();
  opened.blocks = store->load_blocks();
  opened.state.max_room_id = store->max_room_id();
  opened.max_record = store->max_game_id();
  opened.where = store->where();
  spdlog::info("database {}: {} players, {} games in progress", opened.where,
               opened.players.size(), opened.state.unfinished_games.size());
  opened.writer =
      std::make_unique<StoreWriter>(std::move(store), std::move(completions), commit_seconds);
  return opened;
}

Server::Server(ServerConfig config)
    : config_(std::move(config)),
      io_(config_.threads),
      logic_(logic_executor(io_, config_.threads)),
      compute_(static_cast<std::size_t>(config_.bot_threads)),
      read_budget_(config_.read_buffer_budget),
      tls_(config_.tls.enabled ? std::make_unique<TlsIdentity>(config_.tls, config_.db) : nullptr),
      metrics_(config_.lobby.server_version, config_.tls.enabled),
      slots_(std::make_shared<ConnectionSlots>(config_.max_connections,
                                               config_.max_connections_per_ip)),
      opened_(open_records(config_, logic_, &metrics_.store_commit_seconds)),
      local_(logic_, compute_.get_executor(), lobby_config(config_), opened_.writer.get(),
             opened_.players, opened_.max_record, opened_.pairings, &read_budget_, &metrics_.moves,
             opened_.blocks),
      listener_(std::make_unique<Listener>(io_, config_.bind, config_.port, lobby_, logic_,
                                           config_.session,
                                           SessionCommons{read_budget_, local_.log, &metrics_},
                                           slots_, config_.threads > 1, tls_.get())) {
  opened_.players = {};
  opened_.pairings = {};
  opened_.blocks = {};
  lobby_.restore(opened_.state);
  opened_.state = {};
  if (!config_.metrics.empty()) {
    std::string address, error;
    std::uint16_t port = 0;
    if (!metrics::parse_listen_address(config_.metrics, address, port, error)) {
      throw std::runtime_error("--metrics: " + error);
    }
    metrics_http_ = std::make_unique<metrics::MetricsHttp>(
        io_, address, port,
        metrics::MetricsPages{[this] { return metrics_page(); }, [this] { return readiness(); }});
    metrics_http_->start();
  }
  listener_->start();
  asio::co_spawn(logic_, housekeeping(), asio::detached);
}

std::optional<std::string> Server::reload_tls() {
  if (!tls_) return std::nullopt;
  if (auto error = tls_->reload()) {
    spdlog::error("tls: reloading failed, still serving the certificate {}: {}",
                  tls_->fingerprint(), *error);
    return error;
  }
  spdlog::info("tls: reloaded {} and {}", tls_->cert_file(), tls_->key_file());
  spdlog::info("tls fingerprint: {}", tls_->fingerprint());
  return std::nullopt;
}

std::optional<StoreWriter::Counters> Server::journal_counters() const {
  if (!opened_.writer) return std::nullopt;
  return opened_.writer->counters();
}

Server::~Server() { compute_.join(); }

void Server::serve() {
  for (;;) {
    try {
      io_.run();
      return;
    } catch (const std::exception& e) {
      // Handlers catch what they expect; this is the last net, so that one
      // failed handler never ends the process.
      spdlog::error("a handler failed: {}; serving on", e.what());
    }
  }
}

void Server::run() {
  std::vector<std::thread> threads;
  for (int i = 1; i < config_.threads; ++i) threads.emplace_back([this] { serve(); });
  serve();
  for (auto& t : threads) t.join();
}

void Server::stop(std::string reason) {
  if (stopping_.exchange(true)) return;
  listener_->close();
  if (metrics_http_) metrics_http_->close();
  asio::post(logic_, [this, reason = std::move(reason)] {
    spdlog::info("shutting down: {}", reason);
    lobby_.shutdown(reason);
    // Sessions close once flushed; a stuck one can't keep the process alive.
    asio::co_spawn(logic_, wait_for_sessions(), asio::detached);
  });
}

asio::awaitable<void> Server::wait_for_sessions() {
  asio::steady_timer poll(logic_);
  const auto give_up = std::chrono::steady_clock::now() + config_.session.close_linger +
                       std::chrono::milliseconds(500);
  while (listener_->connections() > 0 && std::chrono::steady_clock::now() < give_up) {
    poll.expires_after(std::chrono::milliseconds(20));
    co_await poll.async_wait(asio::use_awaitable);
  }
  if (listener_->connections() > 0) {
    spdlog::warn("{} connections did not close in time", listener_->connections());
  }
  io_.stop();
}

asio::awaitable<void> Server::housekeeping() {
  asio::steady_timer timer(logic_);
  std::size_t closed_at_trim = 0;
  bool trimming = false;  // a wave of closes is under way: trim until it is over
  while (!stopping_) {
    timer.expires_after(kHousekeepingEvery);
    auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
    local_.log.flush();
    const std::size_t closed = listener_->accepted() - listener_->connections();
    trimming = closed >= closed_at_trim + kTrimAfterClosed || (trimming && closed > closed_at_trim);
    if (trimming) {
      trim_freed_memory();
      closed_at_trim = closed;
    }
  }
}

asio::awaitable<std::string> Server::metrics_page() {
  // The lobby's part is read where the lobby runs.
  const LobbyStats lobby = co_await asio::co_spawn(
      logic_, [this]() -> asio::awaitable<LobbyStats> { co_return lobby_.stats(); },
      asio::use_awaitable);
  metrics::Snapshot snapshot;
  snapshot.players_online = lobby.players_online;
  snapshot.players_away = lobby.players_away;
  snapshot.games = lobby.games;
  snapshot.bot_searches_running = lobby.bot_searches_running;
  snapshot.bot_searches_waiting = lobby.bot_searches_waiting;
  if (opened_.writer) {
    const auto counters = opened_.writer->counters();
    snapshot.store = true;
    snapshot.store_queue = counters.queued;
    snapshot.store_failures = counters.failures;
  }
  co_return metrics_.render(snapshot);
}

asio::awaitable<metrics::Readiness> Server::readiness() {
  if (stopping_) co_return metrics::Readiness{false, "shutting down"};
  if (slots_->open() >= slots_->max_total()) {
    co_return metrics::Readiness{
        false, "full: " + std::to_string(slots_->max_total()) + " connections (--max-connections)"};
  }
  if (opened_.writer && !opened_.writer->counters().last_batch_ok) {
    co_return metrics::Readiness{
        false, "the database refused the last write (" + opened_.where + "): see the log"};
  }
  // The lobby answers: its executor is not stuck.
  co_await asio::co_spawn(
      logic_, []() -> asio::awaitable<void> { co_return; }, asio::use_awaitable);
  co_return metrics::Readiness{true, ""};
}

LobbyStats Server::stats() {
  std::promise<LobbyStats> promise;
  auto future = promise.get_future();
  asio::post(logic_, [this, &promise] { promise.set_value(lobby_.stats()); });
  return future.get();
}

}  // namespace ttt::server
