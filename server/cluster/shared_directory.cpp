#include "cluster/shared_directory.hpp"

#include <spdlog/spdlog.h>

#include <charconv>

#include "cluster/redis_cluster.hpp"

namespace ttt::server::cluster {
namespace {

constexpr const char* kGames = "ttt:games";

// Deletes field ARGV[1] of ttt:games if it still holds ARGV[2] (what this
// node wrote): a listing another node wrote since stays.
constexpr const char* kWithdraw = R"lua(
if redis.call('HGET', 'ttt:games', ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', 'ttt:games', ARGV[1])
end
return 0
)lua";

std::string key_of(GameId id) { return std::to_string(id); }
// What a listing's signature covers beside its bytes: its place.
std::string context_of(const std::string& field) { return std::string(kGames) + ":" + field; }

}  // namespace

node::Listing to_message(const Listing& listing) {
  node::Listing m;
  *m.mutable_summary() = listing.summary;
  m.set_x_account(number(listing.players[0]));
  m.set_o_account(number(listing.players[1]));
  m.set_node(listing.node);
  m.set_invite_key(listing.invite_key);
  return m;
}

Listing from_message(const node::Listing& m) {
  Listing listing;
  listing.summary = m.summary();
  listing.players = {static_cast<AccountId>(m.x_account()), static_cast<AccountId>(m.o_account())};
  listing.node = m.node();
  listing.invite_key = m.invite_key();
  return listing;
}

SharedGameDirectory::SharedGameDirectory(boost::asio::any_io_executor executor,
                                         RedisCluster& cluster)
    : cluster_(cluster), timer_(std::move(executor)) {}

void SharedGameDirectory::start() { schedule(); }

void SharedGameDirectory::stop() {
  stopped_ = true;
  timer_.cancel();
}

void SharedGameDirectory::schedule() {
  if (stopped_) return;
  timer_.expires_after(kFullReadEvery);
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    resync();
    schedule();
  });
}

Listing SharedGameDirectory::shown(const Listing& listing) const {
  Listing out = listing;
  if (auto node = cluster_.node(listing.node)) {
    out.summary.set_node(node->host + ":" + std::to_string(node->port));
  }
  return out;
}

std::string SharedGameDirectory::stored(const Listing& listing) const {
  const std::string field = key_of(listing.summary.game_id());
  return cluster_.signer().sign(context_of(field), to_message(listing).SerializeAsString());
}

void SharedGameDirectory::write(const Listing& listing) {
  node::DirectoryChange change;
  change.set_node(cluster_.self().id);
  *change.mutable_publish() = to_message(listing);
  auto& redis = cluster_.commands();
  redis.command({"HSET", kGames, key_of(listing.summary.game_id()), stored(listing)},
                [](const RedisResult&) {});
  redis.command(
      {"PUBLISH", RedisCluster::kDirectoryChannel,
       cluster_.signer().sign(RedisCluster::kDirectoryChannel, change.SerializeAsString())},
      [](const RedisResult&) {});
}

void SharedGameDirectory::publish(const Listing& listing) {
  Listing mine = listing;
  mine.node = cluster_.self().id;
  own_[mine.summary.game_id()] = mine;
  if (cluster_.available()) write(mine);
}

void SharedGameDirectory::withdraw(GameId game) {
  const auto it = own_.find(game);
  if (it == own_.end()) return;
  const std::string written = stored(it->second);
  own_.erase(it);
  if (!cluster_.available()) return;
  node::DirectoryChange change;
  change.set_node(cluster_.self().id);
  change.set_withdraw(game);
  auto& redis = cluster_.commands();
  redis.command({"EVAL", kWithdraw, "0", key_of(game), written}, [](const RedisResult&) {});
  redis.command(
      {"PUBLISH", RedisCluster::kDirectoryChannel,
       cluster_.signer().sign(RedisCluster::kDirectoryChannel, change.SerializeAsString())},
      [](const RedisResult&) {});
}

void SharedGameDirectory::apply(const node::DirectoryChange& change) {
  if (change.has_publish()) {
    Listing listing = from_message(change.publish());
    listing.node = change.node();
    if (listing.node == cluster_.self().id) return;
    others_[listing.summary.game_id()] = std::move(listing);
  } else if (change.has_withdraw()) {
    const auto it = others_.find(change.withdraw());
    if (it != others_.end() && it->second.node == change.node()) others_.erase(it);
  }
}

void SharedGameDirectory::resync() {
  if (!cluster_.available()) return;
  // This node's games first: Redis may have restarted without them.
  for (const auto& [id, listing] : own_) write(listing);
  cluster_.commands().command({"HGETALL", kGames}, [this](const RedisResult& result) {
    if (!result.ok() || result.value->type != RedisValue::Type::kArray) return;
    std::map<GameId, Listing> others;
    std::vector<std::string> stale;
    const auto& e = result.value->elements;
    for (std::size_t i = 0; i + 1 < e.size(); i += 2) {
      node::Listing message;
      const auto bytes = cluster_.signer().open(context_of(e[i].text), e[i + 1].text);
      if (!bytes || !message.ParseFromString(*bytes)) {
        stale.push_back(e[i].text);  // unreadable, or not written by a node of ours
        continue;
      }
      Listing listing = from_message(message);
      if (listing.node == cluster_.self().id) {
        // Ours no longer: a game this node closed while its withdrawal was lost.
        if (!own_.contains(listing.summary.game_id())) stale.push_back(e[i].text);
        continue;
      }
      if (!cluster_.alive(listing.node)) {
        // Its node is dead: whoever adopts the game lists it again.
        if (cluster_.registry_ready()) stale.push_back(e[i].text);
        continue;
      }
      others.emplace(listing.summary.game_id(), std::move(listing));
    }
    others_ = std::move(others);
    cluster_.drop_fields(kGames, stale);
  });
}

ListPage SharedGameDirectory::list(const ListQuery& query) const {
  std::map<GameId, Listing> all;
  for (const auto& [id, listing] : own_) all.emplace(id, shown(listing));
  if (cluster_.available()) {
    for (const auto& [id, listing] : others_) {
      if (cluster_.alive(listing.node) && !all.contains(id)) all.emplace(id, shown(listing));
    }
  }
  return page_of(all, query);
}

std::size_t SharedGameDirectory::size() const { return own_.size() + others_.size(); }

std::optional<Listing> SharedGameDirectory::find(GameId game) const {
  if (auto it = own_.find(game); it != own_.end()) return it->second;
  if (auto it = others_.find(game); it != others_.end() && cluster_.alive(it->second.node)) {
    return it->second;
  }
  return std::nullopt;
}

std::optional<Listing> SharedGameDirectory::find_by_invite(const std::string& invite_key) const {
  if (auto mine = with_invite(own_, invite_key)) return mine;
  if (!cluster_.available()) return std::nullopt;
  auto theirs = with_invite(others_, invite_key);
  if (theirs && !cluster_.alive(theirs->node)) return std::nullopt;
  return theirs;
}

bool SharedGameDirectory::complete() const { return cluster_.available(); }

}  // namespace ttt::server::cluster
