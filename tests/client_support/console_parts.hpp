// What the unit tests of the console client's parts share: a Terminal that
// keeps what is printed, a RequestSender that keeps what is sent, and games
// as the server reports them (game_states.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client_support/game_states.hpp"
#include "console/request_sender.hpp"
#include "console/terminal.hpp"
#include "ttt.pb.h"

namespace ttt::testing {

// A stand-in Terminal (line mode unless interactive) whose output is kept.
class Screen {
 public:
  explicit Screen(bool interactive = false, client::ScreenSize size = {24, 80})
      : terminal_(
            interactive, false, [this](std::string_view text) { out_ += text; }, size) {}

  client::Terminal& terminal() noexcept { return terminal_; }
  // What was printed since the last take.
  std::string take() { return std::exchange(out_, {}); }

 private:
  std::string out_;
  client::Terminal terminal_;
};

// A RequestSender that keeps every request; ids count from 1, and 0 comes
// back while it is "not connected".
class FakeSender : public client::RequestSender {
 public:
  struct Sent {
    wire::ClientMessage message;
    bool awaited = false;  // sent with awaits_reply (false for send_quietly)
    bool quiet = false;    // sent with send_quietly
  };

  std::uint32_t send(wire::ClientMessage message, bool awaits_reply) override {
    return keep(std::move(message), awaits_reply, false);
  }
  std::uint32_t send_quietly(wire::ClientMessage message) override {
    return keep(std::move(message), false, true);
  }

  bool connected = true;
  std::vector<Sent> sent;

 private:
  std::uint32_t keep(wire::ClientMessage message, bool awaited, bool quiet) {
    if (!connected) return 0;
    sent.push_back({std::move(message), awaited, quiet});
    return static_cast<std::uint32_t>(sent.size());
  }
};

inline bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ttt::testing
