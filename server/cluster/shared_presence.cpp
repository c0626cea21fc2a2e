#include "cluster/shared_presence.hpp"

#include <charconv>

#include "cluster/redis_cluster.hpp"

namespace ttt::server::cluster {
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
    if (it == mine_.end() || it->second != bytes) write(account, bytes);
  }
  for (const auto& [account, bytes] : mine_) {
    if (!now.contains(account)) erase(account);
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
    if (it != others_.end() && it->second.node == node) others_.erase(it);
    return;
  }
  Entry entry;
  entry.node = node;
  if (!entry.presence.ParseFromString(bytes)) return;
  others_[id] = std::move(entry);
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
    cluster_.drop_fields(kHash, stale);
  });
}

std::vector<std::pair<std::string, wire::PlayerPresence>> SharedPresence::others() const {
  std::vector<std::pair<std::string, wire::PlayerPresence>> out;
  if (!cluster_.available()) return out;
  for (const auto& [account, entry] : others_) {
    if (mine_.contains(account) || !cluster_.alive(entry.node)) continue;
    out.emplace_back(entry.node, entry.presence);
  }
  return out;
}

}  // namespace ttt::server::cluster
