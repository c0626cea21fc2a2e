#include "console/stdin_reader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <stdexcept>

namespace ttt::client {

StdinReader::StdinReader(boost::asio::any_io_executor executor, OnData on_data)
    : executor_(std::move(executor)), on_data_(std::move(on_data)) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
}

StdinReader::~StdinReader() {
  if (thread_.joinable()) {
    const char stop = 1;
    [[maybe_unused]] const ssize_t n = ::write(wake_[1], &stop, 1);
    thread_.join();
  }
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void StdinReader::start(int fd) {
  thread_ = std::thread([this, fd] { pump(fd); });
}

void StdinReader::pump(int fd) {
  char buffer[4096];
  for (;;) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0) return;  // asked to stop
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    boost::asio::post(executor_, [this, chunk = std::string(buffer, static_cast<std::size_t>(n))] {
      on_data_(chunk);
    });
  }
  boost::asio::post(executor_, [this] { on_data_(std::string()); });
}

}  // namespace ttt::client
