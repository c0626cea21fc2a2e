#include "redis/shared_directory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "redis/redis_cluster.hpp"

namespace ttt::server::redis {
namespace {

constexpr const char* kGames = "ttt:games";

// Deletes each field ARGV[i] of ttt:games that still holds ARGV[i + 1]
// (what this node wrote): a listing another node wrote since stays.
constexpr const char* kWithdraw = R"lua(
local gone = 0
for i = 1, #ARGV - 1, 2 do
  if redis.call('HGET', 'ttt:games', ARGV[i]) == ARGV[i + 1] then
    gone = gone + redis.call('HDEL', 'ttt:games', ARGV[i])
  end
end
return gone
)lua";

std::string key_of(GameId id) { return std::to_string(number(id)); }
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
    : cluster_(cluster), timer_(executor), flush_delay_(std::move(executor), kFlushEvery) {}

SharedGameDirectory::~SharedGameDirectory() {
  timer_.cancel();
  flush_delay_.stop();
}

void SharedGameDirectory::start() { schedule(); }

void SharedGameDirectory::stop() {
  stopped_ = true;
  timer_.cancel();
  flush_delay_.stop();
  flush();
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

std::string SharedGameDirectory::stored(const Listing& listing) const {
  const std::string field = key_of(GameId{listing.summary.game_id()});
  return cluster_.signer().sign(context_of(field), to_message(listing).SerializeAsString());
}

void SharedGameDirectory::changed(GameId game) {
  changed_.insert(game);
  flush_delay_.arm([this] { flush(); });
}

void SharedGameDirectory::flush() {
  flush_delay_.disarm();
  if (changed_.empty()) return;
  const std::set<GameId> changed = std::move(changed_);
  changed_.clear();
  if (!cluster_.available()) {
    // Written again whole when Redis is back (resync), whose full read also
    // finds what Redis still holds of the games gone meanwhile.
    for (const GameId id : changed) {
      if (!own_.contains(id)) written_.erase(id);
    }
    return;
  }
  auto& redis = cluster_.commands();
  const auto& signer = cluster_.signer();
  const std::vector<std::string> set_start{"HSET", kGames};
  const std::vector<std::string> withdraw_start{"EVAL", kWithdraw, "0"};
  std::vector<std::string> set = set_start;
  std::vector<std::string> gone = withdraw_start;
  node::DirectoryChange change;
  change.set_node(cluster_.self().id);
  std::size_t games_in_change = 0;
  auto send_set = [&] {
    if (set.size() > set_start.size()) redis.command(std::move(set), [](const RedisResult&) {});
    set = set_start;
  };
  auto send_gone = [&] {
    if (gone.size() > withdraw_start.size()) {
      redis.command(std::move(gone), [](const RedisResult&) {});
    }
    gone = withdraw_start;
  };
  auto send_change = [&] {
    if (games_in_change == 0) return;
    redis.command({"PUBLISH", RedisCluster::kDirectoryChannel,
                   signer.sign(RedisCluster::kDirectoryChannel, change.SerializeAsString())},
                  [](const RedisResult&) {});
    change.clear_published();
    change.clear_withdrawn();
    games_in_change = 0;
  };
  // The entries first, then the message: whoever hears it and reads the
  // hash finds them there.
  for (const GameId id : changed) {
    const std::string field = key_of(id);
    if (const auto it = own_.find(id); it != own_.end()) {
      std::string value = stored(it->second);
      set.push_back(field);
      set.push_back(value);
      written_[id] = std::move(value);
      *change.add_published() = to_message(it->second);
      if (set.size() >= set_start.size() + 2 * kGamesPerCommand) send_set();
    } else {
      const auto written = written_.find(id);
      if (written == written_.end()) continue;  // never written: nothing to take back
      gone.push_back(field);
      gone.push_back(std::move(written->second));
      written_.erase(written);
      change.add_withdrawn(number(id));
      if (gone.size() >= withdraw_start.size() + 2 * kGamesPerCommand) send_gone();
    }
    if (++games_in_change == kGamesPerCommand) {
      send_set();
      send_gone();
      send_change();
    }
  }
  send_set();
  send_gone();
  send_change();
}

void SharedGameDirectory::publish(const Listing& listing) {
  Listing mine = listing;
  mine.node = cluster_.self().id;
  own_index_.publish(mine);
  own_[GameId{mine.summary.game_id()}] = std::move(mine);
  changed(GameId{listing.summary.game_id()});
}

void SharedGameDirectory::withdraw(GameId game) {
  if (own_.erase(game) == 0) return;
  own_index_.withdraw(game);
  changed(game);
}

void SharedGameDirectory::heard(Listing listing) {
  const GameId id{listing.summary.game_id()};
  const auto [at, added] = node_of_.try_emplace(id, listing.node);
  if (!added && at->second != listing.node) {
    // The game moved (adopted by another node): listed by its new holder only.
    heard_withdrawn(at->second, id);
    node_of_[id] = listing.node;
  }
  others_[listing.node].publish(listing);
}

void SharedGameDirectory::heard_withdrawn(const std::string& node, GameId game) {
  const auto at = node_of_.find(game);
  if (at == node_of_.end() || at->second != node) return;
  node_of_.erase(at);
  const auto games = others_.find(node);
  if (games == others_.end()) return;
  games->second.withdraw(game);
  if (games->second.size() == 0) others_.erase(games);
}

void SharedGameDirectory::apply(const node::DirectoryChange& change) {
  if (change.node().empty() || change.node() == cluster_.self().id) return;
  auto publish_one = [&](const node::Listing& message) {
    Listing listing = from_message(message);
    listing.node = change.node();
    heard(std::move(listing));
  };
  if (change.has_publish()) publish_one(change.publish());
  if (change.has_withdraw()) heard_withdrawn(change.node(), GameId{change.withdraw()});
  for (const auto& message : change.published()) publish_one(message);
  for (const std::uint64_t id : change.withdrawn()) heard_withdrawn(change.node(), GameId{id});
}

void SharedGameDirectory::resync() {
  if (!cluster_.available()) return;
  // This node's games first: Redis may have restarted without them.
  for (const auto& [id, listing] : own_) changed_.insert(id);
  flush();
  cluster_.commands().command({"HGETALL", kGames}, [this](const RedisResult& result) {
    if (!result.ok() || result.value->type != RedisValue::Type::kArray) return;
    std::map<std::string, LocalGameDirectory> others;
    std::unordered_map<GameId, std::string> node_of;
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
        if (!own_.contains(GameId{listing.summary.game_id()}) &&
            !written_.contains(GameId{listing.summary.game_id()})) {
          stale.push_back(e[i].text);
        }
        continue;
      }
      if (!cluster_.alive(listing.node)) {
        // Its node is dead: whoever adopts the game lists it again.
        if (cluster_.registry_ready()) stale.push_back(e[i].text);
        continue;
      }
      const GameId id{listing.summary.game_id()};
      if (!node_of.try_emplace(id, listing.node).second) continue;
      others[listing.node].publish(listing);
    }
    others_ = std::move(others);
    node_of_ = std::move(node_of);
    cluster_.drop_fields(kGames, stale);
  });
}

ListPage SharedGameDirectory::list(const ListQuery& query) const {
  // A page from each live node's games (this node's first: it wins a game
  // listed twice while it moves), merged in id order. Each page holds every
  // game of its node from the cursor up to its next_after (0: to the end).
  struct Source {
    ListPage page;
    std::string address;  // where its node is reached, as the list shows it
  };
  auto address_of = [&](const std::string& node) {
    const auto info = cluster_.node(node);
    return info ? info->host + ":" + std::to_string(info->port) : std::string();
  };
  std::vector<Source> sources;
  sources.push_back({own_index_.list(query), address_of(cluster_.self().id)});
  if (cluster_.available()) {
    for (const auto& [node, games] : others_) {
      if (cluster_.alive(node)) sources.push_back({games.list(query), address_of(node)});
    }
  }
  constexpr GameId kEnd{std::numeric_limits<std::uint64_t>::max()};
  GameId complete_to = kEnd;  // every source's games up to here are in the pages
  ListPage page;
  struct Candidate {
    GameId id;
    std::size_t source;
    std::size_t index;
  };
  std::vector<Candidate> candidates;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const ListPage& part = sources[s].page;
    page.total += part.total;
    if (part.next_after != GameId{}) complete_to = std::min(complete_to, part.next_after);
    for (std::size_t i = 0; i < part.games.size(); ++i) {
      candidates.push_back({GameId{part.games[i].game_id()}, s, i});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.id != b.id ? a.id < b.id : a.source < b.source;
  });
  GameId last{};
  bool more = complete_to != kEnd;
  for (const Candidate& c : candidates) {
    if (c.id == last) continue;  // listed twice: the first source's
    if (c.id > complete_to || page.games.size() == query.page_size) {
      more = true;
      break;
    }
    Source& source = sources[c.source];
    wire::GameSummary& summary = source.page.games[c.index];
    if (!source.address.empty()) summary.set_node(source.address);
    page.games.push_back(std::move(summary));
    last = c.id;
  }
  if (more) {
    page.next_after = page.games.size() == query.page_size || complete_to == kEnd
                          ? (page.games.empty() ? GameId{} : GameId{page.games.back().game_id()})
                          : complete_to;
  }
  return page;
}

std::size_t SharedGameDirectory::size() const {
  std::size_t games = own_.size();
  for (const auto& [node, theirs] : others_) games += theirs.size();
  return games;
}

std::optional<Listing> SharedGameDirectory::find(GameId game) const {
  if (auto it = own_.find(game); it != own_.end()) return it->second;
  const auto at = node_of_.find(game);
  if (at == node_of_.end() || !cluster_.alive(at->second)) return std::nullopt;
  const auto games = others_.find(at->second);
  if (games == others_.end()) return std::nullopt;
  return games->second.find(game);
}

std::optional<Listing> SharedGameDirectory::find_by_invite(const std::string& invite_key) const {
  if (auto mine = own_index_.find_by_invite(invite_key)) return mine;
  if (!cluster_.available()) return std::nullopt;
  for (const auto& [node, games] : others_) {
    if (!cluster_.alive(node)) continue;
    if (auto theirs = games.find_by_invite(invite_key)) return theirs;
  }
  return std::nullopt;
}

bool SharedGameDirectory::complete() const { return cluster_.available(); }

}  // namespace ttt::server::redis
