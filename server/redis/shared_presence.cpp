#include "redis/shared_presence.hpp"

#include <algorithm>
#include <charconv>

#include "lobby/text_rules.hpp"
#include "redis/redis_cluster.hpp"

namespace ttt::server::redis {
namespace {

constexpr const char* kHash = "ttt:who";
constexpr std::size_t kMaxPresence = 4096;

// The player leaves node ARGV[2]'s hands (unless another node has it by
// now); ARGV[3]: the bytes of the signature before the value.
constexpr const char* kErase = R"lua(
local v = redis.call('HGET', 'ttt:who', ARGV[1])
local skip = tonumber(ARGV[3])
if v and string.sub(v, skip + 1, skip + #ARGV[2] + 1) == ARGV[2] .. '\t' then
  redis.call('HDEL', 'ttt:who', ARGV[1])
end
return 1
)lua";

// "node\tbytes" -> (node, bytes).
bool split(const std::string& value, std::string& node, std::string& bytes) {
  const auto tab = value.find('\t');
  if (tab == std::string::npos || tab == 0 || tab > 64) return false;
  node = value.substr(0, tab);
  bytes = value.substr(tab + 1);
  return true;
}

bool parse_account(std::string_view text, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

void SharedPresence::write(AccountId account, const std::string& bytes) {
  const std::string id = std::to_string(number(account));
  const std::string value = cluster_.self().id + "\t" + bytes;
  const auto& signer = cluster_.signer();
  cluster_.commands().command(
      {"HSET", kHash, id, signer.sign(std::string(kHash) + ":" + id, value)},
      [](const RedisResult&) {});
  cluster_.commands().command({"PUBLISH", kChannel, signer.sign(kChannel, id + "\t" + value)},
                              [](const RedisResult&) {});
}

void SharedPresence::erase(AccountId account) {
  const std::string id = std::to_string(number(account));
  cluster_.commands().command(
      {"EVAL", kErase, "0", id, cluster_.self().id,
       std::to_string(NodeSigner::kTagBytes * (cluster_.signer().enabled() ? 1 : 0))},
      [](const RedisResult&) {});
  cluster_.commands().command(
      {"PUBLISH", kChannel,
       cluster_.signer().sign(kChannel, id + "\t" + cluster_.self().id + "\t")},
      [](const RedisResult&) {});
}

void SharedPresence::publish(const std::map<AccountId, wire::PlayerPresence>& here) {
  if (!cluster_.available()) return;  // written again whole when Redis is back (resync)
  std::map<AccountId, std::string> now;
  for (const auto& [account, presence] : here) now[account] = presence.SerializeAsString();
  for (const auto& [account, bytes] : now) {
    auto it = mine_.find(account);
    if (it == mine_.end() && others_.contains(account)) ++held_here_;
    if (it == mine_.end() || it->second != bytes) write(account, bytes);
  }
  for (const auto& [account, bytes] : mine_) {
    if (now.contains(account)) continue;
    erase(account);
    if (others_.contains(account)) --held_here_;
  }
  mine_ = std::move(now);
}

void SharedPresence::apply(const std::string& payload) {
  // "account\tnode\tbytes" (no bytes: the node no longer holds the player).
  const auto tab = payload.find('\t');
  std::uint64_t account = 0;
  std::string node, bytes;
  if (tab == std::string::npos ||
      !parse_account(std::string_view(payload).substr(0, tab), account) ||
      !split(payload.substr(tab + 1), node, bytes) || node == cluster_.self().id ||
      bytes.size() > kMaxPresence) {
    return;
  }
  const auto id = static_cast<AccountId>(account);
  if (bytes.empty()) {
    auto it = others_.find(id);
    if (it != others_.end() && it->second.node == node) remove(id);
    return;
  }
  Entry entry;
  entry.node = node;
  if (!entry.presence.ParseFromString(bytes)) return;
  put(id, std::move(entry));
}

void SharedPresence::put(AccountId account, Entry entry) {
  const auto it = others_.find(account);
  if (it != others_.end()) {
    Entry& old = it->second;
    by_name_.erase({old.presence.name(), account});
    if (const auto key = by_key_.find(name_key(old.presence.name()));
        key != by_key_.end() && key->second == account) {
      by_key_.erase(key);
    }
    if (--per_node_[old.node] == 0) per_node_.erase(old.node);
  } else if (mine_.contains(account)) {
    ++held_here_;
  }
  by_name_.emplace(entry.presence.name(), account);
  by_key_[name_key(entry.presence.name())] = account;
  ++per_node_[entry.node];
  others_[account] = std::move(entry);
}

void SharedPresence::remove(AccountId account) {
  const auto it = others_.find(account);
  if (it == others_.end()) return;
  const Entry& old = it->second;
  by_name_.erase({old.presence.name(), account});
  if (const auto key = by_key_.find(name_key(old.presence.name()));
      key != by_key_.end() && key->second == account) {
    by_key_.erase(key);
  }
  if (--per_node_[old.node] == 0) per_node_.erase(old.node);
  if (mine_.contains(account)) --held_here_;
  others_.erase(it);
}

void SharedPresence::reindex() {
  by_name_.clear();
  by_key_.clear();
  per_node_.clear();
  held_here_ = 0;
  for (const auto& [account, entry] : others_) {
    by_name_.emplace(entry.presence.name(), account);
    by_key_[name_key(entry.presence.name())] = account;
    ++per_node_[entry.node];
    if (mine_.contains(account)) ++held_here_;
  }
}

bool SharedPresence::shown(AccountId account, const Entry& entry) const {
  return !mine_.contains(account) && cluster_.alive(entry.node);
}

void SharedPresence::resync() {
  if (!cluster_.available()) return;
  const auto mine = std::move(mine_);
  mine_.clear();
  for (const auto& [account, bytes] : mine) {
    write(account, bytes);
    mine_[account] = bytes;
  }
  cluster_.commands().command({"HGETALL", kHash}, [this](const RedisResult& result) {
    if (!result.ok() || result.value->type != RedisValue::Type::kArray) return;
    std::map<AccountId, Entry> others;
    std::vector<std::string> stale;
    const auto& e = result.value->elements;
    for (std::size_t i = 0; i + 1 < e.size(); i += 2) {
      std::uint64_t account = 0;
      std::string node, bytes;
      Entry entry;
      const auto value =
          cluster_.signer().open(std::string(kHash) + ":" + e[i].text, e[i + 1].text);
      if (!value || !parse_account(e[i].text, account) || !split(*value, node, bytes) ||
          bytes.size() > kMaxPresence || !entry.presence.ParseFromString(bytes)) {
        stale.push_back(e[i].text);
        continue;
      }
      if (node == cluster_.self().id) continue;
      if (!cluster_.alive(node)) {
        if (cluster_.registry_ready()) stale.push_back(e[i].text);
        continue;
      }
      entry.node = node;
      others.emplace(static_cast<AccountId>(account), std::move(entry));
    }
    others_ = std::move(others);
    reindex();
    cluster_.drop_fields(kHash, stale);
  });
}

Cluster::PresencePage SharedPresence::page(std::string_view after, std::string_view part,
                                           std::size_t page_size, std::size_t scan) const {
  Cluster::PresencePage page;
  if (!cluster_.available()) return page;
  for (const auto& [node, count] : per_node_) {
    if (cluster_.alive(node)) page.total += count;
  }
  page.total -= std::min(page.total, held_here_);
  // The first name past `after` (every account of that name is before it).
  auto it = after.empty()
                ? by_name_.begin()
                : by_name_.upper_bound({std::string(after), AccountId{~std::uint64_t{0}}});
  std::size_t looked = 0;
  for (; it != by_name_.end(); ++it) {
    if (page.players.size() == page_size || looked == scan) {
      page.next_after = std::prev(it)->first;
      return page;
    }
    ++looked;
    if (!contains_ignoring_ascii_case(it->first, part)) continue;
    const Entry& entry = others_.at(it->second);
    if (!shown(it->second, entry)) continue;
    ++page.matched;
    page.players.push_back(entry.presence);
  }
  return page;
}

std::optional<std::pair<std::string, wire::PlayerPresence>> SharedPresence::find(
    const std::string& name_key) const {
  if (!cluster_.available()) return std::nullopt;
  const auto key = by_key_.find(name_key);
  if (key == by_key_.end()) return std::nullopt;
  const Entry& entry = others_.at(key->second);
  if (!shown(key->second, entry)) return std::nullopt;
  return std::make_pair(entry.node, entry.presence);
}

}  // namespace ttt::server::redis
