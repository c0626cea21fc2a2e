// SharedFigures: accounts' ratings and counts, told to every node of the
// lobby. Each time this node commits a change to an account's figures (a
// game's result, a new account), they wait up to kFlushEvery and go out
// together with every other account's changed meanwhile, each account once
// (its latest figures), in one signed node::FiguresChange on the channel
// ttt:figure-changes: a node that finishes thousands of games a second
// publishes a few dozen messages, not two a game. Every other node takes them, so `/top`
// and `/profile` agree within a channel's delay. While Redis is away the
// figures wait (at most kMaxWaiting accounts) and go out when it is back.
// Never a secret. Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "node.pb.h"
#include "records.hpp"
#include "redis/flush_delay.hpp"
#include "redis/rare_warning.hpp"

namespace ttt::server::redis {

class RedisCluster;

class SharedFigures {
 public:
  static constexpr const char* kChannel = "ttt:figure-changes";
  // How long changed figures wait to be told with the others.
  static constexpr std::chrono::milliseconds kFlushEvery{50};
  // Accounts whose figures wait to be told, at most (while Redis is away).
  static constexpr std::size_t kMaxWaiting = 100'000;
  // A message's figures, at most (far below what a node reads of one).
  static constexpr std::size_t kMessageBytes = 32 * 1024;

  using Handler = std::function<void(const StoredPlayer&)>;

  SharedFigures(boost::asio::any_io_executor executor, RedisCluster& cluster);
  ~SharedFigures();

  // Figures this node committed: told within kFlushEvery.
  void share(const StoredPlayer& account);
  // Tells every waiting account's figures now, if Redis is up.
  void flush();
  // Stops the timer: what still waits is told by the flush before it, if any.
  void stop();
  // Who hears the other nodes' figures.
  void on_figures(Handler handler) { handler_ = std::move(handler); }
  // A message on the channel, its signature checked: the other node's figures.
  void apply(const std::string& payload);
  // Whether a message on the channel is this node's own (dropped unchecked).
  bool said_here(std::string_view payload) const;

 private:
  void publish(const node::FiguresChange& change);

  RedisCluster& cluster_;
  FlushDelay delay_;
  std::map<std::int64_t, node::AccountFigures> waiting_;  // by account
  Handler handler_;
  RareWarning warn_;  // of unreadable figures: another node's bytes decide how often
};

}  // namespace ttt::server::redis
