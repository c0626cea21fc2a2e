// BotSearchQueue: the house bots' searches, waiting their turn for the
// compute pool. Each search belongs to a share (the address of the human the
// bot plays); shares take turns, first come first served within one, so one
// address's many games never hold up another's: a search waits behind at
// most one search of each other share that has one waiting. At most
// `threads` searches run at once, so a search's thinking time is its own.
// Past `bound` searches waiting the queue is busy and the lobby refuses new
// games against the bots ("bots are busy"); searches of games in progress
// are always taken. Runs on the logic executor; searches run on compute.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <string>
#include <unordered_map>

namespace ttt::server {

class BotSearchQueue {
 public:
  using Search = std::function<void()>;  // runs on the compute executor

  BotSearchQueue(boost::asio::any_io_executor logic, boost::asio::any_io_executor compute,
                 std::size_t threads, std::size_t bound);

  BotSearchQueue(const BotSearchQueue&) = delete;
  BotSearchQueue& operator=(const BotSearchQueue&) = delete;

  // Queues a search for share; it runs when its turn comes.
  void submit(const std::string& share, Search search);

  // True when `bound` or more searches wait: no new bot games for now.
  bool busy() const noexcept { return bound_ != 0 && waiting_ >= bound_; }
  std::size_t waiting() const noexcept { return waiting_; }
  std::size_t running() const noexcept { return running_; }

 private:
  // Starts searches while threads are free, taking shares in turn.
  void pump();
  void finished();

  boost::asio::any_io_executor logic_;
  boost::asio::any_io_executor compute_;
  std::size_t threads_;
  std::size_t bound_;
  std::size_t running_ = 0;
  std::size_t waiting_ = 0;
  std::unordered_map<std::string, std::deque<Search>> queues_;  // by share
  std::list<std::string> turns_;  // shares with searches waiting, next first
};

}  // namespace ttt::server
