// LobbyProbe: one client that measures the lobby's answers while many
// others are online: Hello (a fresh connection and a new name each time,
// timed from Hello to Welcome), the game list, /who (the first page of
// each) and a challenge to a name nobody has (the server looks the name up
// among the players online and the accounts), one request at a time, each
// timed from sending it to its answer.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "load/latency_recorder.hpp"
#include "ttt.pb.h"
#include "ttt/tls/stream.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::bench {

struct LobbyFigures {
  LatencyRecorder hello;
  LatencyRecorder list;
  LatencyRecorder who;
  LatencyRecorder challenge;
  std::uint64_t errors = 0;
  std::string first_error;
};

class LobbyProbe {
 public:
  // tls null: plain TCP. Names start with name_prefix.
  LobbyProbe(boost::asio::io_context& io, boost::asio::ip::tcp::endpoint endpoint,
             std::shared_ptr<boost::asio::ssl::context> tls, std::string name_prefix);

  // Waits (up to `patience`) until /who counts `online` players, then asks
  // each request `rounds` times, in turn.
  boost::asio::awaitable<LobbyFigures> run(int rounds, std::uint32_t online,
                                           std::chrono::seconds patience);

 private:
  struct Link {
    explicit Link(boost::asio::io_context& io);
    tls::Stream stream;
    wire::FrameReader reader{1 << 20};
  };
  boost::asio::awaitable<std::unique_ptr<Link>> open();
  // Sends the message and reads until the answer to it (pings answered on
  // the way); nullopt when the link fails.
  boost::asio::awaitable<std::optional<wire::ServerMessage>> ask(Link& link,
                                                                 wire::ClientMessage message);
  wire::ClientMessage hello(const std::string& name) const;
  void failed(LobbyFigures& figures, const std::string& what) const;

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::endpoint endpoint_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  std::string prefix_;
  std::uint32_t next_request_ = 1;
};

}  // namespace ttt::bench
