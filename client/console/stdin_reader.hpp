// StdinReader: reads standard input on a thread of its own and hands each
// chunk to a callback on the client's executor, so the event loop never
// blocks on the keyboard. Works for terminals, pipes and regular files alike
// (which epoll-based descriptors cannot watch).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <string>
#include <thread>

namespace ttt::client {

class StdinReader {
 public:
  // Called on executor with each chunk read; an empty chunk means end of input.
  using OnData = std::function<void(std::string chunk)>;

  StdinReader(boost::asio::any_io_executor executor, OnData on_data);
  // Stops and joins the reading thread.
  ~StdinReader();

  StdinReader(const StdinReader&) = delete;
  StdinReader& operator=(const StdinReader&) = delete;

  // Starts reading file descriptor fd (0 by default). Call once.
  void start(int fd = 0);

 private:
  void pump(int fd);

  boost::asio::any_io_executor executor_;
  OnData on_data_;
  int wake_[2] = {-1, -1};  // a pipe that tells the thread to stop
  std::thread thread_;
};

}  // namespace ttt::client
