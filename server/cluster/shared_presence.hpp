// SharedPresence: who is online at the other nodes of the lobby, as /who
// shows them. Each node writes its players' presence (what /who says of
// each: name, rating, what it is doing) to the hash ttt:who (account ->
// "node\tPlayerPresence"), only what changed since it last did, every couple
// of seconds, and publishes each change on the channel ttt:who; every node
// keeps a copy those changes update, so /who is read here, at once, at most a
// couple of seconds old. Players of nodes whose heartbeat stopped are not
// shown. Runs on the logic executor.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "ttt.pb.h"

namespace ttt::server::cluster {

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
  // The players the other live nodes hold, with the node of each.
  std::vector<std::pair<std::string, wire::PlayerPresence>> others() const;

 private:
  void write(AccountId account, const std::string& bytes);
  void erase(AccountId account);

  RedisCluster& cluster_;
  std::map<AccountId, std::string> mine_;  // as last written (serialized)
  struct Entry {
    std::string node;
    wire::PlayerPresence presence;
  };
  std::map<AccountId, Entry> others_;
};

}  // namespace ttt::server::cluster
