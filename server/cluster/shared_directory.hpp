// SharedGameDirectory: the game list of every node of the lobby. Redis
// keeps it (hash ttt:games: game id -> node::Listing, with the node that
// holds the game), each node publishes its own games' changes on the
// channel ttt:directory, and every node keeps a copy that those changes
// update, so a list is read here, at once, and is at most a channel's delay
// old (well within a second). A full read now and then (and after every
// reconnect) heals anything missed; games of nodes whose heartbeat has
// stopped are not shown, and are taken out of Redis by whoever sees them.
// While Redis is away, lists hold this node's own games only (complete()
// says so), and its changes are written again when Redis is back. Entries
// and changes are signed (NodeSigner); a node withdraws an entry only if it
// still holds what it wrote (another node may list the game now).
// Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>

#include "lobby/game_directory.hpp"
#include "node.pb.h"

namespace ttt::server::cluster {

class RedisCluster;

class SharedGameDirectory final : public GameDirectory {
 public:
  static constexpr std::chrono::seconds kFullReadEvery{10};

  SharedGameDirectory(boost::asio::any_io_executor executor, RedisCluster& cluster);

  // Starts the periodic full read.
  void start();
  void stop();

  void publish(const Listing& listing) override;
  void withdraw(GameId game) override;
  ListPage list(const ListQuery& query) const override;
  std::size_t size() const override;
  std::optional<Listing> find(GameId game) const override;
  std::optional<Listing> find_by_invite(const std::string& invite_key) const override;
  bool complete() const override;

  // A change another node published.
  void apply(const node::DirectoryChange& change);
  // Reads the whole directory again and writes this node's games into it.
  void resync();

 private:
  // The listing as clients see it: where its node is reached.
  Listing shown(const Listing& listing) const;
  void write(const Listing& listing);
  // The listing as this node writes it into ttt:games (signed).
  std::string stored(const Listing& listing) const;
  void schedule();

  RedisCluster& cluster_;
  boost::asio::steady_timer timer_;
  std::map<GameId, Listing> own_;     // this node's games (the truth about them)
  std::map<GameId, Listing> others_;  // other nodes' games, as last heard
  bool stopped_ = false;
};

// A listing to and from its message.
node::Listing to_message(const Listing& listing);
Listing from_message(const node::Listing& message);

}  // namespace ttt::server::cluster
