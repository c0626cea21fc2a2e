// RedisCluster: the Cluster of several nodes, shared through Redis.
//
//   ttt:nodes                 set of node ids ever seen (pruned when dead)
//   ttt:node:<id>             "host\tport\tfingerprint\tdraining\tplayers\ttag\tbeat_ms",
//                             PX 5 s (or twice the dead limit), renewed every heartbeat
//                             (1 s): the heartbeat (tag: the node's signature of the id
//                             and the first five fields; beat_ms: Redis's clock); older
//                             than the dead limit (2.5 s), gone, or unsigned = dead
//   ttt:draining:<id>         present while the node drains (same expiry)
//   ttt:epoch:<id>            a value of the node's own, checked at every heartbeat:
//                             gone means Redis forgot the node (restarted empty,
//                             flushed), which then registers everything again
//   ttt:player:<account>      the node that holds the player
//   ttt:token:<hash>          "account\tnode" of a resume token, PX its lifetime
//   ttt:account-token:<acc>   the account's current token hash (an older one is dropped)
//   ttt:rpc:<id>              the node's channel: seat requests and replies (signed)
//   ttt:limit:<kind>:<addr>   uses of a limit per address by every node, PX its window
//   (the directory, the queues, presence and accounts' figures: shared_directory.hpp,
//   shared_matchmaker.hpp, shared_presence.hpp, shared_figures.hpp)
//
// Two connections: one for commands, one subscribed to this node's channel
// and the directory's. Requests to another node are answered within
// kRequestTimeout or fail. Everything a node says to the others is signed
// with the key they share (NodeSigner) and checked when heard. Runs on the
// logic executor.
#pragma once

#include <algorithm>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <unordered_map>

#include "lobby/cluster.hpp"
#include "redis/node_signer.hpp"
#include "redis/rare_warning.hpp"
#include "redis/redis_client.hpp"
#include "redis/shared_figures.hpp"
#include "redis/shared_presence.hpp"

namespace ttt::server::redis {

class SharedGameDirectory;

// How often a node renews its heartbeat, and how old a heartbeat (in
// Redis's clock) makes a node dead for the others: by default about 3 s
// after it stops, well within the 5 s its key lives.
struct NodeTimings {
  std::chrono::milliseconds heartbeat_every{1'000};
  std::chrono::milliseconds dead_after{2'500};
  // How long a heartbeat's key lives: twice the dead limit, 5 s at least.
  std::chrono::milliseconds key_life() const {
    return std::max(std::chrono::milliseconds(5'000), 2 * dead_after);
  }
};

class RedisCluster final : public Cluster {
 public:
  using Timings = NodeTimings;
  static constexpr std::chrono::milliseconds kRequestTimeout{3'000};
  static constexpr const char* kDirectoryChannel = "ttt:directory";

  // self: this node as clients reach it (its id is made here when empty);
  // signer: what signs and checks what the nodes say (without a key,
  // nothing is signed).
  RedisCluster(boost::asio::any_io_executor executor, RedisAddress redis, NodeInfo self,
               Timings timings = {}, NodeSigner signer = {});
  ~RedisCluster() override;

  // The directory whose changes arrive on the directory channel (set before start).
  void attach(SharedGameDirectory* directory) { directory_ = directory; }
  // How clients reach this node (before start).
  void set_self(NodeInfo self) {
    if (self.id.empty()) self.id = self_.id;
    self_ = std::move(self);
  }
  // Connects, registers this node and starts the heartbeat.
  void start();
  // Stops the heartbeat and closes the connections (after leave()).
  void close();

  // For the directory, the presence and the matchmaker.
  RedisClient& commands() { return *commands_; }
  const NodeSigner& signer() const noexcept { return signer_; }
  const Timings& timings() const noexcept { return timings_; }
  // Drops fields of a shared hash that a full read found stale (their node
  // dead, or unreadable); nothing if there are none.
  void drop_fields(const char* hash, const std::vector<std::string>& fields);
  bool alive(const std::string& node) const;
  // Whether the live nodes have been read at least once (before, nobody
  // can be told dead).
  bool registry_ready() const noexcept { return registry_ready_; }
  // The live nodes as last read, this one included.
  std::size_t nodes_alive() const { return live_.size(); }
  // How many players the node said it holds (for choosing the least loaded).
  void set_load(std::size_t players) { load_ = players; }

  // Cluster
  const NodeInfo& self() const override { return self_; }
  bool available() const override { return commands_->up(); }
  std::optional<NodeInfo> node(const std::string& id) const override;
  std::optional<NodeInfo> another_node() const override;
  std::vector<std::string> live_nodes() const override;
  void hold(AccountId account, const std::string& token_hash,
            std::chrono::milliseconds token_lifetime, const std::string& to,
            HoldDone done) override;
  void release(AccountId account, const std::string& token_hash) override;
  void find_token(const std::string& token_hash, TokenDone done) override;
  void find_player(AccountId account, PlayerDone done) override;
  void request_seat(const std::string& to, const SeatRequest& request, SeatDone done) override;
  void serve_seats(SeatHandler handler) override { seat_handler_ = std::move(handler); }
  void on_restored(std::function<void(bool)> handler) override {
    on_restored_ = std::move(handler);
  }
  std::chrono::steady_clock::time_point last_beat() const override { return last_beat_; }
  void share_presence(const std::map<AccountId, wire::PlayerPresence>& here) override {
    presence_.publish(here);
  }
  PresencePage others_presence_page(std::string_view after, std::string_view part,
                                    std::size_t page_size, std::size_t scan) const override {
    return presence_.page(after, part, page_size, scan);
  }
  std::optional<std::pair<std::string, wire::PlayerPresence>> other_player(
      const std::string& name_key) const override {
    return presence_.find(name_key);
  }
  void take_allowance(const std::string& kind, const std::string& address, std::size_t most,
                      std::chrono::milliseconds window, AllowanceDone done) override;
  void share_figures(const StoredPlayer& account) override { figures_.share(account); }
  void on_figures(std::function<void(const StoredPlayer&)> handler) override {
    figures_.on_figures(std::move(handler));
  }
  void set_draining(bool draining) override;
  void leave(std::function<void()> done) override;

 private:
  struct Known {
    NodeInfo info;
    std::size_t players = 0;
  };
  void beat();
  void on_message(const std::string& channel, const std::string& payload);
  // Whether a message on a channel every node hears is this node's own.
  bool said_here(const std::string& channel, const std::string& signed_payload) const;
  void on_link(bool up);
  // Registers again what this node holds (after an outage, or Redis forgot it).
  void restore(bool forgotten);
  std::string heartbeat_value() const;
  // A heartbeat read back: the node it describes, if its tag is right.
  std::optional<Known> read_heartbeat(const std::string& id, const std::string& value,
                                      std::int64_t now);

  boost::asio::any_io_executor executor_;
  NodeInfo self_;
  Timings timings_;
  NodeSigner signer_;
  const std::string epoch_;  // this process's value of ttt:epoch:<id>
  bool registered_ = false;  // a heartbeat was answered since start
  std::chrono::steady_clock::time_point last_beat_{};
  std::shared_ptr<class RedisTlsRelay> relay_;  // rediss://: TLS to Redis
  std::shared_ptr<RedisClient> commands_;
  std::shared_ptr<RedisClient> events_;
  SharedGameDirectory* directory_ = nullptr;
  SharedPresence presence_{*this};
  SharedFigures figures_;
  boost::asio::steady_timer heartbeat_;
  std::map<std::string, Known> live_;  // the live nodes as last read, this one included
  std::size_t load_ = 0;
  bool left_ = false;
  bool registry_ready_ = false;
  bool was_down_ = false;  // the shared state was lost since the last registration
  SeatHandler seat_handler_;
  std::function<void(bool)> on_restored_;
  bool events_lost_ = false;    // the subscription was lost since it was last made
  RareWarning forged_warning_;  // of messages not signed with the lobby's key
  // Of heartbeats not signed with it: whoever can write to Redis decides
  // how many there are, each read every beat.
  RareWarning unsigned_heartbeat_warning_;
  // Of messages too large to check (anyone who can publish decides how
  // many), and of signed ones this build can't read (a node of another
  // build may send many).
  RareWarning oversized_warning_;
  RareWarning unreadable_warning_;
  // Requests waiting for their reply.
  struct Waiting {
    SeatDone done;
    std::unique_ptr<boost::asio::steady_timer> timeout;
  };
  std::unordered_map<std::uint64_t, Waiting> waiting_;
  std::uint64_t next_request_ = 1;
};

}  // namespace ttt::server::redis
