// FloodThread: one test client streaming the same bytes over and over, from
// a thread of its own, as fast as the server takes them: until stopped, until
// a send fails (the server cut it off) or for at most `most`. The client is
// the thread's alone until the FloodThread is gone.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>

#include "support/test_client.hpp"

namespace ttt::testing {

class FloodThread {
 public:
  FloodThread(TestClient& client, std::string chunk, std::chrono::milliseconds most);
  ~FloodThread();
  FloodThread(const FloodThread&) = delete;
  FloodThread& operator=(const FloodThread&) = delete;

  // Stops sending (and waits for the thread).
  void stop();
  // Bytes sent so far.
  std::size_t sent() const noexcept { return sent_.load(); }
  // The server closed the connection while it streamed.
  bool cut_off() const noexcept { return cut_off_.load(); }
  // It streamed all its time without being stopped or cut off.
  bool ran_out() const noexcept { return ran_out_.load(); }
  bool running() const noexcept { return !done_.load(); }

 private:
  std::atomic<std::size_t> sent_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> cut_off_{false};
  std::atomic<bool> ran_out_{false};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// `count` frames of one Pong each (8 bytes a frame).
std::string pong_frames(std::size_t count);

}  // namespace ttt::testing
