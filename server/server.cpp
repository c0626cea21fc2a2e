#include "server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <future>
#include <spdlog/spdlog.h>
#include <thread>
#include <vector>

namespace ttt::server {
namespace asio = boost::asio;
namespace {

// Opens the database named by path and reads what a restart needs; null for
// "none".
std::unique_ptr<StoreWriter> open_journal(const std::string& path, StoredState& state,
                                          LogicExecutor logic) {
  if (path == "none") return nullptr;
  auto store = std::make_unique<Store>(path);
  state.players = store->load_players();
  state.unfinished_games = store->load_unfinished_games();
  state.tokens = store->load_tokens();
  state.max_game_id = store->max_game_id();
  state.max_room_id = store->max_room_id();
  spdlog::info("database {}: {} players, {} games in progress", path, state.players.size(),
               state.unfinished_games.size());
  return std::make_unique<StoreWriter>(std::move(store), logic);
}

}  // namespace

namespace {

ServerConfig with_threading(ServerConfig config) {
  config.session.one_thread = config.threads == 1;
  return config;
}

}  // namespace

Server::Server(ServerConfig config)
    : config_(with_threading(std::move(config))),
      io_(config_.threads),
      logic_(asio::make_strand(io_)),
      compute_(static_cast<std::size_t>(config_.bot_threads)),
      journal_(open_journal(config_.db, restored_, logic_)),
      lobby_(logic_, compute_.get_executor(), config_.lobby, journal_.get()),
      listener_(std::make_unique<Listener>(io_, config_.bind, config_.port, lobby_, logic_,
                                           config_.session, config_.max_connections)) {
  lobby_.restore(restored_);
  restored_ = {};
  listener_->start();
}

std::optional<StoreWriter::Counters> Server::journal_counters() const {
  if (!journal_) return std::nullopt;
  return journal_->counters();
}

Server::~Server() {
  compute_.join();
}

void Server::run() {
  std::vector<std::thread> threads;
  for (int i = 1; i < config_.threads; ++i) threads.emplace_back([this] { io_.run(); });
  io_.run();
  for (auto& t : threads) t.join();
}

void Server::stop(std::string reason) {
  if (stopping_.exchange(true)) return;
  listener_->close();
  asio::post(logic_, [this, reason = std::move(reason)] {
    spdlog::info("shutting down: {}", reason);
    lobby_.shutdown(reason);
  });
  // Sessions close once flushed; a stuck one can't keep the process alive.
  asio::co_spawn(
      logic_,
      [this]() -> asio::awaitable<void> {
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
      },
      asio::detached);
}

LobbyStats Server::stats() {
  std::promise<LobbyStats> promise;
  auto future = promise.get_future();
  asio::post(logic_, [this, &promise] { promise.set_value(lobby_.stats()); });
  return future.get();
}

}  // namespace ttt::server
