#include "game/bot_search_queue.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include <algorithm>

namespace ttt::server {

BotSearchQueue::BotSearchQueue(boost::asio::any_io_executor logic,
                               boost::asio::any_io_executor compute, std::size_t threads,
                               std::size_t bound)
    : logic_(std::move(logic)),
      compute_(std::move(compute)),
      threads_(std::max<std::size_t>(threads, 1)),
      bound_(bound) {}

void BotSearchQueue::submit(const std::string& share, Search search) {
  auto& queue = queues_[share];
  if (queue.empty()) turns_.push_back(share);
  queue.push_back(std::move(search));
  ++waiting_;
  pump();
}

void BotSearchQueue::pump() {
  while (running_ < threads_ && !turns_.empty()) {
    const std::string share = std::move(turns_.front());
    turns_.pop_front();
    auto it = queues_.find(share);
    Search search = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) {
      queues_.erase(it);
    } else {
      turns_.push_back(share);  // its next search waits for the others' turns
    }
    --waiting_;
    ++running_;
    boost::asio::post(compute_, [this, search = std::move(search)] {
      try {
        search();
      } catch (const std::exception& e) {
        spdlog::error("a bot search failed: {}", e.what());
      }
      boost::asio::post(logic_, [this] { finished(); });
    });
  }
}

void BotSearchQueue::finished() {
  --running_;
  pump();
}

}  // namespace ttt::server
