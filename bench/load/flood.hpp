// Floods, and what they leave of another player's service: an attacker on a
// thread of its own floods the server (one kind of flood, again and again,
// reconnecting whenever it is cut off) while a victim pings every 10 ms and
// records each ping's round trip. The figures of docs/performance.md ("A
// flood leaves the others served") come from here.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "load/latency_recorder.hpp"

namespace ttt::bench {

enum class FloodKind {
  kPong,        // a stream of 8-byte Pong frames after Hello
  kRecords,     // TLS: the same frames cut into records of 1 byte each
  kKeyUpdates,  // TLS: key updates, never a Hello
  kChallenges,  // 30 accounts of one address challenge the victim and go, again and again
};

// "pong", "records", "key-updates", "challenges"; nullopt for anything else.
std::optional<FloodKind> parse_flood_kind(const std::string& text);

struct FloodFigures {
  LatencyRecorder victim_pings;
  std::uint32_t victim_max_us = 0;
  std::uint64_t lost_pings = 0;  // never answered within a second
  std::uint64_t attacker_connections = 0;
  std::uint64_t attacker_bytes = 0;
  std::uint64_t attacker_cut_off = 0;  // connections the server closed
};

// Floods the server at `endpoint` for `seconds` and measures the victim
// (tls null: plain TCP). Runs its own threads; returns when done.
FloodFigures run_flood(FloodKind kind, boost::asio::ip::tcp::endpoint endpoint,
                       std::shared_ptr<boost::asio::ssl::context> tls, std::chrono::seconds seconds,
                       const std::string& name_prefix);

}  // namespace ttt::bench
