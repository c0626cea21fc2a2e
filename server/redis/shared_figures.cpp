#include "redis/shared_figures.hpp"

#include <spdlog/spdlog.h>

#include <cmath>

#include "game/rating.hpp"
#include "redis/redis_cluster.hpp"

namespace ttt::server::redis {
namespace {

node::AccountFigures figures_of(const StoredPlayer& account) {
  node::AccountFigures figures;
  figures.set_account(static_cast<std::uint64_t>(account.id));
  figures.set_name(account.name);
  figures.set_name_key(account.key);
  figures.set_is_bot(account.is_bot);
  figures.set_rating(account.rating);
  figures.set_games_played(account.games_played);
  figures.set_wins(account.wins);
  figures.set_losses(account.losses);
  figures.set_draws(account.draws);
  figures.set_rated_games(account.rated_games);
  for (std::int64_t opponent : account.opponents) figures.add_opponents(opponent);
  return figures;
}

bool readable(const node::AccountFigures& figures) {
  return figures.account() != 0 && !figures.name().empty() && std::isfinite(figures.rating());
}

StoredPlayer account_of(const node::AccountFigures& figures) {
  StoredPlayer account;
  account.id = static_cast<std::int64_t>(figures.account());
  account.name = figures.name();
  account.key = figures.name_key();
  account.is_bot = figures.is_bot();
  account.rating = figures.rating();
  account.games_played = figures.games_played();
  account.wins = figures.wins();
  account.losses = figures.losses();
  account.draws = figures.draws();
  account.rated_games = figures.rated_games();
  // Bounded as the account store keeps them (it adds them to those it knows).
  for (std::int64_t opponent : figures.opponents()) {
    if (std::ssize(account.opponents) >= kVariedOpponents) break;
    account.opponents.push_back(opponent);
  }
  return account;
}

}  // namespace

SharedFigures::SharedFigures(boost::asio::any_io_executor executor, RedisCluster& cluster)
    : cluster_(cluster), delay_(std::move(executor), kFlushEvery) {}

SharedFigures::~SharedFigures() { delay_.stop(); }

void SharedFigures::share(const StoredPlayer& account) {
  if (waiting_.size() >= kMaxWaiting && !waiting_.contains(account.id)) {
    // Redis has been away long: a node that was cut off too reads every
    // account's figures again when it is back.
    return;
  }
  waiting_[account.id] = figures_of(account);
  delay_.arm([this] { flush(); });
}

void SharedFigures::flush() {
  delay_.disarm();
  // While Redis is away they wait: told when it is back (RedisCluster::restore).
  if (waiting_.empty() || !cluster_.available()) return;
  node::FiguresChange change;
  change.set_node(cluster_.self().id);
  std::size_t bytes = 0;
  for (auto& [id, figures] : waiting_) {
    bytes += figures.ByteSizeLong();
    *change.add_accounts() = std::move(figures);
    if (bytes >= kMessageBytes) {
      publish(change);
      change.clear_accounts();
      bytes = 0;
    }
  }
  waiting_.clear();
  if (change.accounts_size() > 0) publish(change);
}

void SharedFigures::publish(const node::FiguresChange& change) {
  cluster_.commands().command(
      {"PUBLISH", kChannel, cluster_.signer().sign(kChannel, change.SerializeAsString())},
      [](const RedisResult&) {});
}

void SharedFigures::stop() { delay_.stop(); }

bool SharedFigures::said_here(std::string_view payload) const {
  node::FiguresChange change;
  return change.ParseFromArray(payload.data(), static_cast<int>(payload.size())) &&
         change.node() == cluster_.self().id;
}

void SharedFigures::apply(const std::string& payload) {
  node::FiguresChange change;
  if (!change.ParseFromString(payload)) {
    warn_("cluster: unreadable accounts' figures; dropped");
    return;
  }
  if (change.node() == cluster_.self().id) return;
  int unreadable = 0;
  for (const node::AccountFigures& figures : change.accounts()) {
    if (!readable(figures)) {
      ++unreadable;
      continue;
    }
    if (handler_) handler_(account_of(figures));
  }
  if (unreadable > 0) {
    warn_(fmt::format("cluster: {} unreadable account figures from node {}; dropped", unreadable,
                      change.node().substr(0, 64)));
  }
}

}  // namespace ttt::server::redis
