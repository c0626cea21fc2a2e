// SharedGameDirectory: the game list of every node of the lobby. Redis
// keeps it (hash ttt:games: game id -> node::Listing, with the node that
// holds the game), each node publishes its own games' changes on the
// channel ttt:directory, and every node keeps a copy that those changes
// update, so a list is read here, at once, and is at most a channel's delay
// old (well within a second). A node's changes are written together every
// kFlushEvery: each game once, as it is then (a game opened and closed
// meanwhile, not at all), in one HSET, one script for the withdrawals and
// one message. A full read now and then (and after every reconnect) heals
// anything missed; games of nodes whose heartbeat has stopped are not
// shown, and are taken out of Redis by whoever sees them. While Redis is
// away, lists hold this node's own games only (complete() says so), and its
// changes are written again when Redis is back. Entries and changes are
// signed (NodeSigner); a node withdraws an entry only if it still holds what
// it wrote (another node may list the game now).
//
// The copy is indexed as one server's list is (LocalGameDirectory): one
// index for this node's games and one for each other node's, so a page is
// the merge of a page from each live node's and no request walks every game.
// Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <set>
#include <unordered_map>

#include "lobby/game_directory.hpp"
#include "node.pb.h"
#include "redis/flush_delay.hpp"

namespace ttt::server::redis {

class RedisCluster;

class SharedGameDirectory final : public GameDirectory {
 public:
  static constexpr std::chrono::seconds kFullReadEvery{10};
  // How long a change waits to be written with the others.
  static constexpr std::chrono::milliseconds kFlushEvery{50};
  // Games one command carries at most.
  static constexpr std::size_t kGamesPerCommand = 256;

  SharedGameDirectory(boost::asio::any_io_executor executor, RedisCluster& cluster);
  ~SharedGameDirectory() override;

  // Starts the periodic full read.
  void start();
  // Writes the changes waiting and stops.
  void stop();

  void publish(const Listing& listing) override;
  void withdraw(GameId game) override;
  ListPage list(const ListQuery& query) const override;
  std::size_t size() const override;
  std::optional<Listing> find(GameId game) const override;
  std::optional<Listing> find_by_invite(const std::string& invite_key) const override;
  bool complete() const override;

  // Changes another node published.
  void apply(const node::DirectoryChange& change);
  // Reads the whole directory again and writes this node's games into it.
  void resync();
  // Writes the changes waiting now.
  void flush();

 private:
  // The listing as this node writes it into ttt:games (signed).
  std::string stored(const Listing& listing) const;
  // An own game to write (or withdraw) at the next flush.
  void changed(GameId game);
  void schedule();
  // Another node's listing heard, and a withdrawal.
  void heard(Listing listing);
  void heard_withdrawn(const std::string& node, GameId game);

  RedisCluster& cluster_;
  boost::asio::steady_timer timer_;
  FlushDelay flush_delay_;
  std::map<GameId, Listing> own_;                    // this node's games (the truth about them)
  LocalGameDirectory own_index_;                     // the same, indexed
  std::unordered_map<GameId, std::string> written_;  // each own game as ttt:games holds it
  std::set<GameId> changed_;  // own games to write or withdraw at the next flush
  std::map<std::string, LocalGameDirectory> others_;  // other nodes' games by node, as last heard
  std::unordered_map<GameId, std::string> node_of_;   // the node that lists each of those
  bool stopped_ = false;
};

// A listing to and from its message.
node::Listing to_message(const Listing& listing);
Listing from_message(const node::Listing& message);

}  // namespace ttt::server::redis
