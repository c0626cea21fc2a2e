#include "load/flood.hpp"

#include <openssl/ssl.h>

#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <span>
#include <thread>
#include <vector>

#include "ttt.pb.h"
#include "ttt/tls/stream.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::bench {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// On loopback the attacker and the victim come from addresses of their own,
// as two machines would (the idle players from 127.0.2.x and on).
constexpr const char* kAttackerAddress = "127.0.1.66";
constexpr const char* kVictimAddress = "127.0.1.2";

wire::ClientMessage hello_of(const std::string& name) {
  wire::ClientMessage m;
  m.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_client("ttt-bench --flood");
  return m;
}

// One connection of the flood or the victim's: a stream and what it read.
struct Link {
  explicit Link(asio::io_context& io) : stream(tcp::socket(io)) {}
  tls::Stream stream;
  wire::FrameReader reader{1 << 20};
};

asio::awaitable<std::unique_ptr<Link>> open(asio::io_context& io, tcp::endpoint endpoint,
                                            const std::shared_ptr<asio::ssl::context>& tls,
                                            const char* from) {
  auto link = std::make_unique<Link>(io);
  boost::system::error_code bind_ec;
  link->stream.socket().open(endpoint.protocol(), bind_ec);
  if (!bind_ec && endpoint.address().is_loopback() && endpoint.address().is_v4()) {
    link->stream.socket().bind(tcp::endpoint(asio::ip::make_address(from), 0), bind_ec);
  }
  if (bind_ec) co_return nullptr;
  auto [ec] = co_await link->stream.socket().async_connect(endpoint, use_tuple);
  if (ec) co_return nullptr;
  link->stream.socket().set_option(tcp::no_delay(true));
  if (tls) {
    link->stream.start_tls(tls);
    if (co_await link->stream.handshake(asio::ssl::stream_base::client)) co_return nullptr;
  }
  co_return link;
}

asio::awaitable<bool> write(Link& link, const std::string& bytes) {
  const asio::const_buffer buffer = asio::buffer(bytes);
  auto [ec, n] = co_await link.stream.write(std::span<const asio::const_buffer>(&buffer, 1));
  co_return !ec;
}

// The next message (pings answered), or nullopt when the link ends.
asio::awaitable<std::optional<wire::ServerMessage>> next(Link& link) {
  for (;;) {
    std::string_view body;
    if (link.reader.next(body) == wire::FrameReader::Status::kFrame) {
      wire::ServerMessage m;
      if (!wire::parse_body(body, m)) co_return std::nullopt;
      if (m.has_ping()) {
        wire::ClientMessage pong;
        pong.mutable_pong()->set_nonce(m.ping().nonce());
        co_await write(link, wire::encode_frame(pong));
        continue;
      }
      co_return m;
    }
    const std::span<char> space = link.reader.prepare();
    auto [ec, n] = co_await link.stream.read_some(asio::buffer(space.data(), space.size()));
    if (ec) co_return std::nullopt;
    link.reader.commit(n);
  }
}

// Sends Hello and waits for its Welcome.
asio::awaitable<bool> say_hello(Link& link, const std::string& name) {
  if (!co_await write(link, wire::encode_frame(hello_of(name)))) co_return false;
  for (;;) {
    const auto m = co_await next(link);
    if (!m || m->has_error()) co_return false;
    if (m->has_welcome()) co_return true;
  }
}

struct Attack {
  FloodKind kind;
  tcp::endpoint endpoint;
  std::shared_ptr<asio::ssl::context> tls;
  std::string prefix;
  std::atomic<bool>& stop;
  FloodFigures& figures;
  std::string victim;
};

// One connection of the flood, of its kind, until the server cuts it off.
asio::awaitable<void> flood_once(Attack& a, Link& link, const std::string& name,
                                 const std::string& pongs) {
  if (a.kind == FloodKind::kKeyUpdates) {
    while (!a.stop.load()) {
      SSL* ssl = link.stream.native_handle();
      if (SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) != 1 || SSL_do_handshake(ssl) != 1) break;
      const auto ec = co_await link.stream.flush();
      if (ec) break;
      a.figures.attacker_bytes += 1;
    }
    ++a.figures.attacker_cut_off;
    co_return;
  }
  const bool welcomed = co_await say_hello(link, name);
  if (!welcomed) co_return;
  if (a.kind == FloodKind::kChallenges) {
    // Challenges as fast as they are answered (sent, or refused).
    wire::ClientMessage challenge;
    challenge.mutable_challenge()->set_name(a.victim);
    const std::string frame = wire::encode_frame(challenge);
    while (!a.stop.load()) {
      if (!co_await write(link, frame) || !co_await next(link)) {
        ++a.figures.attacker_cut_off;
        co_return;
      }
      a.figures.attacker_bytes += frame.size();
    }
    co_return;
  }
  // Pongs: in 64 KiB writes; records: one byte a record, so the server
  // decrypts a record for each.
  const std::size_t piece = a.kind == FloodKind::kRecords ? 1 : pongs.size();
  std::size_t at = 0;
  while (!a.stop.load()) {
    const bool sent = co_await write(link, pongs.substr(at, piece));
    if (!sent) {
      ++a.figures.attacker_cut_off;
      co_return;
    }
    a.figures.attacker_bytes += piece;
    at = (at + piece) % pongs.size();
  }
}

// The challenge flood: 30 accounts of one address at once, each challenging
// the victim over and over.
asio::awaitable<void> challengers(asio::io_context& io, Attack& a, int index) {
  asio::steady_timer pause(io);
  while (!a.stop.load()) {
    auto link = co_await open(io, a.endpoint, a.tls, kAttackerAddress);
    if (!link) {
      pause.expires_after(std::chrono::milliseconds(50));
      co_await pause.async_wait(use_tuple);
      continue;
    }
    ++a.figures.attacker_connections;
    co_await flood_once(a, *link, a.prefix + "sock" + std::to_string(index), {});
    pause.expires_after(std::chrono::milliseconds(50));
    co_await pause.async_wait(use_tuple);
  }
}

asio::awaitable<void> attack(asio::io_context& io, Attack& a) {
  if (a.kind == FloodKind::kChallenges) {
    for (int i = 1; i < 30; ++i) asio::co_spawn(io, challengers(io, a, i), asio::detached);
    co_await challengers(io, a, 0);
    co_return;
  }
  wire::ClientMessage pong;
  pong.mutable_pong()->set_nonce(1);
  std::string pongs;
  for (int i = 0; i < 8192; ++i) wire::append_frame(pong, pongs);
  asio::steady_timer pause(io);
  std::uint64_t n = 0;
  while (!a.stop.load()) {
    auto link = co_await open(io, a.endpoint, a.tls, kAttackerAddress);
    if (!link) {
      // Reset (too many connections, or too fast): a moment, then again.
      pause.expires_after(std::chrono::milliseconds(20));
      co_await pause.async_wait(use_tuple);
      continue;
    }
    ++a.figures.attacker_connections;
    const std::string name = a.prefix + "flood" + std::to_string(n++ % 30);
    co_await flood_once(a, *link, name, pongs);
    boost::system::error_code ignored;
    link->stream.socket().close(ignored);
  }
}

// The victim: pings every 10 ms, one at a time, each timed.
asio::awaitable<void> victim(asio::io_context& io, tcp::endpoint endpoint,
                             std::shared_ptr<asio::ssl::context> tls, std::string name,
                             std::chrono::seconds seconds, FloodFigures& figures,
                             std::atomic<bool>& ready) {
  auto link = co_await open(io, endpoint, tls, kVictimAddress);
  if (!link || !co_await say_hello(*link, name)) co_return;
  ready = true;
  asio::steady_timer tick(io);
  const auto end = steady_clock::now() + seconds;
  for (std::uint64_t nonce = 1; steady_clock::now() < end; ++nonce) {
    wire::ClientMessage ping;
    ping.mutable_ping()->set_nonce(nonce);
    const auto sent = steady_clock::now();
    if (!co_await write(*link, wire::encode_frame(ping))) co_return;
    for (;;) {
      const auto m = co_await next(*link);
      if (!m) co_return;
      if (m->has_pong() && m->pong().nonce() == nonce) break;
    }
    const auto rtt = steady_clock::now() - sent;
    figures.victim_pings.record(rtt);
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(rtt).count();
    figures.victim_max_us = std::max(figures.victim_max_us, static_cast<std::uint32_t>(us));
    if (rtt > std::chrono::seconds(1)) ++figures.lost_pings;
    tick.expires_after(std::chrono::milliseconds(10));
    co_await tick.async_wait(use_tuple);
  }
}

}  // namespace

std::optional<FloodKind> parse_flood_kind(const std::string& text) {
  if (text == "pong") return FloodKind::kPong;
  if (text == "records") return FloodKind::kRecords;
  if (text == "key-updates") return FloodKind::kKeyUpdates;
  if (text == "challenges") return FloodKind::kChallenges;
  return std::nullopt;
}

FloodFigures run_flood(FloodKind kind, tcp::endpoint endpoint,
                       std::shared_ptr<asio::ssl::context> tls, std::chrono::seconds seconds,
                       const std::string& name_prefix) {
  FloodFigures figures;
  std::atomic<bool> stop{false};
  std::atomic<bool> ready{false};
  FloodFigures attacker_figures;
  const std::string victim_name = name_prefix + "victim";
  Attack a{kind, endpoint, tls, name_prefix, stop, attacker_figures, victim_name};
  asio::io_context victim_io;
  asio::co_spawn(victim_io, victim(victim_io, endpoint, tls, victim_name, seconds, figures, ready),
                 asio::detached);
  while (!ready.load() && !victim_io.stopped()) victim_io.run_one_for(std::chrono::seconds(1));
  // The attacker floods from a thread of its own: its work never delays the victim's.
  asio::io_context attack_io;
  asio::co_spawn(attack_io, attack(attack_io, a), asio::detached);
  std::thread attacker([&] {
    while (!stop.load()) attack_io.run_for(std::chrono::milliseconds(100));
  });
  victim_io.run_for(seconds + std::chrono::seconds(10));  // a victim never answered ends too
  stop = true;
  attacker.join();
  figures.attacker_connections = attacker_figures.attacker_connections;
  figures.attacker_bytes = attacker_figures.attacker_bytes;
  figures.attacker_cut_off = attacker_figures.attacker_cut_off;
  return figures;
}

}  // namespace ttt::bench
