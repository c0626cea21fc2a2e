#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "executor_check.hpp"
#include "harness.hpp"
#include "local_lobby.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::fuzz {
namespace {

// A connection that keeps what the lobby sends, as a session's queue would.
class FakeConnection : public server::Participant {
 public:
  void deliver(const server::Outbound& message) override {
    if (message.frame->size() > wire::kFrameHeaderSize + wire::kDefaultMaxFrame) std::abort();
    ++received;
  }
  void close() override { closed = true; }
  std::size_t received = 0;
  bool closed = false;
};

}  // namespace

void lobby(const std::uint8_t* data, std::size_t size) {
  static const bool quiet = [] {
    spdlog::set_level(spdlog::level::off);
    return true;
  }();
  (void)quiet;
  const server::ExecutorStandIn on_logic;  // this thread runs the lobby
  boost::asio::io_context io;
  auto logic = boost::asio::make_strand(io);
  server::LobbyConfig config;
  config.bot_budget = std::chrono::milliseconds(1);
  config.chat_per_second = 1e9;
  config.chat_burst = 1e9;
  auto local = std::make_unique<server::LocalLobby>(logic, logic, config);
  server::Lobby& lobby = local->lobby;

  std::vector<std::shared_ptr<FakeConnection>> conns;
  std::vector<std::shared_ptr<server::Inbox>> inboxes;
  for (int i = 0; i < 3; ++i) {
    conns.push_back(std::make_shared<FakeConnection>());
    inboxes.push_back(lobby.open(conns.back(), "192.0.2." + std::to_string(i + 1)));
  }
  wire::FrameReader reader;
  std::size_t offset = 0;
  while (offset < size) {
    const auto space = reader.prepare();
    const std::size_t n = std::min(space.size(), size - offset);
    std::memcpy(space.data(), data + offset, n);
    reader.commit(n);
    offset += n;
    std::string_view body;
    while (reader.next(body) == wire::FrameReader::Status::kFrame) {
      if (body.empty()) continue;
      const std::size_t which = static_cast<std::uint8_t>(body[0]) % conns.size();
      wire::ClientMessage message;
      if (conns[which]->closed || !wire::parse_body(body.substr(1), message)) continue;
      inboxes[which]->receive(message);
      io.poll();
    }
  }
  for (auto& inbox : inboxes) inbox->closed();
  io.poll();
  const auto stats = lobby.stats();
  // Games in progress hold their seats for the grace period; nothing else
  // may be left over once everyone is gone.
  if (stats.connections != 0 || stats.queued != 0) std::abort();
  local.reset();
  io.poll();
}

}  // namespace ttt::fuzz
