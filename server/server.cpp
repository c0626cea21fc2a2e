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

#include "lobby/text_rules.hpp"
#include "net/memory_trim.hpp"
#include "store/open_store.hpp"
#include "ttt/count_text.hpp"

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

// The Redis of --redis, answering PING, or a clear error: a node does not
// start without the others' shared state.
redis::RedisAddress redis_of(const ServerConfig& config) {
  std::string error;
  auto address = redis::parse_redis_address(config.redis, error);
  if (!address) throw std::runtime_error("--redis: " + error);
  address->ca_file = config.redis_ca;
  address->cert_file = config.redis_cert;
  address->key_file = config.redis_key;
  if (auto problem = redis::check_redis(*address, std::chrono::seconds(3))) {
    throw std::runtime_error("Redis at " + address->text() + " can't be reached: " + *problem +
                             " (--redis)");
  }
  return *address;
}

constexpr auto kHousekeepingEvery = std::chrono::seconds(2);
// Closed connections worth giving memory back for.
constexpr std::size_t kTrimAfterClosed = 64;

}  // namespace

Server::Opened Server::open_records(const ServerConfig& config, asio::any_io_executor completions,
                                    metrics::Histogram* commit_seconds) {
  Opened opened;
  auto store = open_store(config.db, config.postgres,
                          config.redis.empty() ? StoreUse::kServer : StoreUse::kNode);
  if (!store) {
    spdlog::info("no database (--db none): names, games and ratings are not kept");
    return opened;
  }
  const bool node = !config.redis.empty();
  if (node) {
    // The server's bots have one account each in the whole lobby: whichever
    // node starts first makes them.
    for (Level level : {Level::Random, Level::Easy, Level::Medium, Level::Hard, Level::Perfect}) {
      StoredPlayer bot;
      bot.name = std::string(kBotNamePrefix) + std::string(to_string(level)) + ")";
      bot.key = name_key(bot.name);
      bot.is_bot = true;
      store->ensure_player(bot);
    }
  }
  // Keys made under an older rule are made again (the store's copy: the
  // accounts in memory get theirs from the names as they load).
  if (const std::size_t rekeyed = store->rekey_names(name_key); rekeyed > 0) {
    spdlog::info("database: {} made again under today's name rule",
                 count_text(rekeyed, "name key", "name keys"));
  }
  opened.players = store->load_players();
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  opened.pairings = store->load_rated_pairings(now_ms - kRepeatWindowMs);
  // A node starts with no games: each game in progress is held by a node,
  // and comes here only when one of its players does (adoption).
  if (!node) {
    opened.state.unfinished_games = store->load_unfinished_games();
    opened.state.tokens = store->load_tokens();
  }
  opened.blocks = store->load_blocks();
  opened.state.max_room_id = store->max_room_id();
  opened.max_record = RecordId{store->max_game_id()};
  // Serving from now on: a database that stops answering is noticed.
  store->answer_within(config.postgres_timeout);
  opened.where = store->where();
  spdlog::info("database {}: {}, {} in progress", opened.where,
               count_text(opened.players.size(), "player", "players"),
               count_text(opened.state.unfinished_games.size(), "game", "games"));
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
      cluster_(config_.redis.empty() ? nullptr
                                     : std::make_unique<redis::RedisCluster>(
                                           logic_, redis_of(config_), NodeInfo{},
                                           redis::RedisCluster::Timings{config_.node_heartbeat,
                                                                        config_.node_dead_after},
                                           redis::NodeSigner(config_.cluster_key))),
      shared_directory_(cluster_ ? std::make_unique<redis::SharedGameDirectory>(logic_, *cluster_)
                                 : nullptr),
      shared_matchmaker_(cluster_ ? std::make_unique<redis::SharedMatchmaker>(*cluster_) : nullptr),
      room_ids_(cluster_ ? std::make_unique<SequenceIds>(*opened_.writer, Store::IdKind::kRoom)
                         : nullptr),
      game_ids_(cluster_ ? std::make_unique<SequenceIds>(*opened_.writer, Store::IdKind::kGame)
                         : nullptr),
      player_ids_(cluster_ ? std::make_unique<SequenceIds>(*opened_.writer, Store::IdKind::kPlayer)
                           : nullptr),
      holders_(cluster_ ? std::make_unique<StoredHolders>(*opened_.writer, cluster_->self().id,
                                                          config_.node_dead_after)
                        : nullptr),
      local_(logic_, compute_.get_executor(), lobby_config(config_), opened_.writer.get(),
             opened_.players, opened_.max_record, opened_.pairings, &read_budget_, &metrics_.moves,
             opened_.blocks,
             cluster_ ? SharedParts{shared_directory_.get(), shared_matchmaker_.get(),
                                    cluster_.get(), room_ids_.get(), holders_.get()}
                      : SharedParts{}),
      web_(config_.web
               ? std::make_unique<WebServer>(lobby_, logic_, config_.session,
                                             SessionCommons{read_budget_, local_.log, &metrics_},
                                             config_.web_settings)
               : nullptr),
      listener_(std::make_unique<Listener>(
          io_, config_.bind, config_.port, lobby_, logic_, config_.session,
          SessionCommons{read_budget_, local_.log, &metrics_, web_.get()}, slots_,
          config_.threads > 1, tls_.get(), config_.listener)) {
  opened_.players = {};
  opened_.pairings = {};
  opened_.blocks = {};
  lobby_.restore(opened_.state);
  opened_.state = {};
  if (cluster_) join_cluster();
  if (opened_.writer) {
    opened_.writer->on_waiting([this](bool waiting) { lobby_.database_waiting(waiting); });
  }
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

void Server::join_cluster() {
  local_.accounts.share(player_ids_.get());
  local_.journal.share(game_ids_.get(), cluster_->self().id);
  // A write refused because another node holds the game now: the room goes.
  local_.journal.on_lost(
      [this](RecordId record, const std::string& holder) { lobby_.game_lost(record, holder); });
  NodeInfo self = cluster_->self();
  std::string error;
  const std::string advertised = config_.advertise.empty() ? config_.bind : config_.advertise;
  auto address = redis::parse_host_port(advertised, listener_->port(), error);
  if (!address) throw std::runtime_error("--advertise: " + error);
  if (config_.advertise.empty()) address->port = listener_->port();
  self.host = address->host;
  self.port = address->port;
  self.fingerprint = fingerprint();
  cluster_->set_self(self);
  cluster_->attach(shared_directory_.get());
  lobby_.serve_other_nodes();
  asio::post(logic_, [this] {
    cluster_->start();
    shared_directory_->start();
  });
  if (config_.orphan_sweep.count() > 0) asio::co_spawn(logic_, sweep_orphans(), asio::detached);
  asio::co_spawn(logic_, keep_fence(), asio::detached);
  spdlog::info("node {} of the lobby shared through Redis {}, reached at {}:{}", self.id,
               cluster_->commands().address().text(), self.host, self.port);
}

asio::awaitable<void> Server::sweep_orphans() {
  asio::steady_timer timer(logic_);
  while (!stopping_) {
    timer.expires_after(config_.orphan_sweep);
    auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec || stopping_) co_return;
    lobby_.sweep_orphans();
  }
}

asio::awaitable<void> Server::keep_fence() {
  asio::steady_timer timer(logic_);
  while (!stopping_) {
    lobby_.keep_fence();
    timer.expires_after(config_.node_heartbeat);
    auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
  }
}

void Server::drain() {
  if (!cluster_) {
    stop("terminated (SIGTERM)");
    return;
  }
  if (draining_.exchange(true) || stopping_) return;
  asio::co_spawn(logic_, run_drain(), asio::detached);
}

asio::awaitable<void> Server::run_drain() {
  lobby_.drain();
  asio::steady_timer poll(logic_);
  const auto deadline = std::chrono::steady_clock::now() + config_.drain_timeout;
  // A game over whose last words still wait for their write counts as
  // being played: its players hear its end here before they go.
  while ((lobby_.games_in_progress() > 0 || !lobby_.settled()) &&
         std::chrono::steady_clock::now() < deadline && !stopping_) {
    poll.expires_after(std::chrono::milliseconds(200));
    co_await poll.async_wait(asio::use_awaitable);
  }
  if (stopping_) co_return;
  const std::size_t left = lobby_.games_in_progress();
  // Nothing more lands here; every write made so far is committed and its
  // words said (the rooms settled); then the games in progress are let go,
  // so the nodes their players go to adopt them.
  lobby_.freeze();
  while (!stopping_ &&
         (!lobby_.settled() || (opened_.writer && opened_.writer->counters().queued > 0))) {
    poll.expires_after(std::chrono::milliseconds(20));
    co_await poll.async_wait(asio::use_awaitable);
  }
  if (left > 0 && holders_) {
    bool released = false, done = false;
    holders_->release_all([&](bool ok) {
      released = ok;
      done = true;
    });
    while (!done) {
      poll.expires_after(std::chrono::milliseconds(20));
      co_await poll.async_wait(asio::use_awaitable);
    }
    if (!released) spdlog::error("draining: the games in progress could not be let go");
  }
  const std::size_t sent = lobby_.hand_over();
  spdlog::info("drained: {} in progress handed over, {} sent to other nodes",
               count_text(left, "game", "games"), count_text(sent, "player", "players"));
  bool gone = false;
  cluster_->leave([&gone] { gone = true; });
  for (int i = 0; i < 100 && !gone; ++i) {
    poll.expires_after(std::chrono::milliseconds(20));
    co_await poll.async_wait(asio::use_awaitable);
  }
  stop("drained");
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
  if (cluster_) {
    asio::post(logic_, [this] {
      shared_directory_->stop();
      cluster_->leave([] {});
      holders_->leave();
    });
  }
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
    // Several nodes: how many players this node holds, told in its heartbeat
    // (a drain sends players to the least loaded node).
    if (cluster_) {
      lobby_.share_presence();
      cluster_->set_load(lobby_.counts().players);
      nodes_alive_ = cluster_->nodes_alive();
    }
    const std::size_t closed =
        listener_->accepted() - listener_->connections() + listener_->refused();
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
      logic_,
      [this]() -> asio::awaitable<LobbyStats> {
        if (cluster_) nodes_alive_ = cluster_->nodes_alive();
        co_return lobby_.stats();
      },
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
    snapshot.store_waiting = counters.waiting;
  }
  if (cluster_) {
    snapshot.cluster = true;
    snapshot.cluster_reachable = cluster_->available();
    snapshot.draining = draining_;
    snapshot.nodes_alive = nodes_alive_.load();
    snapshot.redirects = lobby.redirects;
    snapshot.games_adopted = lobby.games_adopted;
    snapshot.games_lost = lobby.games_lost;
  }
  co_return metrics_.render(snapshot);
}

asio::awaitable<metrics::Readiness> Server::readiness() {
  if (stopping_) co_return metrics::Readiness{false, "shutting down"};
  if (draining_) co_return metrics::Readiness{false, "draining: taking no new games"};
  if (cluster_ && !cluster_->available()) {
    co_return metrics::Readiness{false, "the lobby's shared state (Redis " +
                                            cluster_->commands().address().text() +
                                            ") can't be reached"};
  }
  if (slots_->open() >= slots_->max_total()) {
    co_return metrics::Readiness{
        false, "full: " + std::to_string(slots_->max_total()) + " connections (--max-connections)"};
  }
  if (opened_.writer && opened_.writer->counters().waiting) {
    co_return metrics::Readiness{
        false, "the database (" + opened_.where + ") can't be reached: writes wait for it"};
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
