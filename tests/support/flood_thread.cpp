#include "support/flood_thread.hpp"

#include <csignal>

namespace ttt::testing {

FloodThread::FloodThread(TestClient& client, std::string chunk, std::chrono::milliseconds most) {
  // A send to a connection the server closed is an error here, not a signal
  // that ends the test.
  std::signal(SIGPIPE, SIG_IGN);
  thread_ = std::thread([this, &client, chunk = std::move(chunk), most] {
    const auto give_up = std::chrono::steady_clock::now() + most;
    while (!stop_.load()) {
      if (std::chrono::steady_clock::now() >= give_up) {
        ran_out_ = true;
        break;
      }
      if (!client.send_raw(chunk)) {
        cut_off_ = true;
        break;
      }
      sent_ += chunk.size();
    }
    done_ = true;
  });
}

FloodThread::~FloodThread() { stop(); }

void FloodThread::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::string pong_frames(std::size_t count) {
  wire::ClientMessage pong;
  pong.mutable_pong()->set_nonce(1);
  const std::string frame = wire::encode_frame(pong);
  std::string frames;
  frames.reserve(frame.size() * count);
  for (std::size_t i = 0; i < count; ++i) frames += frame;
  return frames;
}

}  // namespace ttt::testing
