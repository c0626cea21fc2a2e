// SharedPresence: who is online at the other nodes of the lobby, as /who
// shows them. Each node writes its players' presence (what /who says of
// each: name, rating, what it is doing) to the hash ttt:who (account ->
// "node\tPlayerPresence"), only what changed since it last did, every couple
// of seconds, and publishes each change on the channel ttt:who; every node
// keeps a copy those changes update, so /who is read here, at once, at most a
// couple of seconds old. The copy is indexed by name (a page of /who is read
// from it) and by name key (a challenge): no request walks every player.
// Players of nodes whose heartbeat stopped are not shown. Runs on the logic
// executor.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "lobby/cluster.hpp"
#include "ttt.pb.h"

namespace ttt::server::redis {

class RedisCluster;

class SharedPresence {
 public:
  static constexpr const char* kChannel = "ttt:who";

  explicit SharedPresence(RedisCluster& cluster) : cluster_(cluster) {}

  // This node's players now: what changed is written and published.
  void publish(const std::map<AccountId, wire::PlayerPresence>& here);
  // A change another node published.
  void apply(const std::string& payload);
  // Reads all of it again and writes this node's players into it.
  void resync();
  // One page of the players the other live nodes hold, in the order of
  // their names (Cluster::others_presence_page).
  Cluster::PresencePage page(std::string_view after, std::string_view part, std::size_t page_size,
                             std::size_t scan) const;
  // The one whose name has this key, with its node.
  std::optional<std::pair<std::string, wire::PlayerPresence>> find(
      const std::string& name_key) const;

 private:
  struct Entry {
    std::string node;
    wire::PlayerPresence presence;
  };
  void write(AccountId account, const std::string& bytes);
  void erase(AccountId account);
  // Whether another node's player is shown: its node alive, not held here.
  bool shown(AccountId account, const Entry& entry) const;
  // others_ and its indexes changed together.
  void put(AccountId account, Entry entry);
  void remove(AccountId account);
  void reindex();

  RedisCluster& cluster_;
  std::map<AccountId, std::string> mine_;  // as last written (serialized)
  std::map<AccountId, Entry> others_;
  std::set<std::pair<std::string, AccountId>> by_name_;  // others_ by name
  std::unordered_map<std::string, AccountId> by_key_;    // others_ by name key
  std::map<std::string, std::size_t> per_node_;          // others_ by node: how many
  std::size_t held_here_ = 0;  // entries of others_ whose account is in mine_ too
};

}  // namespace ttt::server::redis
