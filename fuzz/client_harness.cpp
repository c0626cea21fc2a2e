// The client fuzz harness: a byte stream from a hostile server into the real
// client. A loopback listener of the harness's own accepts the client's
// connection and sends the bytes; the real Connection reads them (frames,
// Ping, Welcome, fatal errors, reconnects) and the real ConsoleClient (or
// BotPlayer) turns them into text. Then the oracle: everything the client
// wrote to its screen, its stderr and its log is valid UTF-8 with no control
// character, escape, bidi control or other format character but the
// client's own ("\n", and "\r\x1b[K" that redraws the prompt).
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "bot/bot_player.hpp"
#include "console/console_client.hpp"
#include "harness.hpp"
#include "link/protobuf_log.hpp"

namespace ttt::fuzz {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// The first byte of an input says how the client runs.
constexpr std::uint8_t kInteractive = 1;  // a terminal (prompt, pager) rather than line mode
constexpr std::uint8_t kBot = 2;          // ttt-bot's player rather than ttt-client

// Lines typed before the Welcome: after it the commands ask, in this order,
// with request ids 2 to 6 (Hello is 1), so that a stream can answer them;
// the move waits for a game.
const char* const kTyped[] = {"/top", "/history", "/replay 3", "/list", "/join 7", "b2"};

void check(bool ok) {
  if (!ok) std::abort();
}

// What a terminal may be sent: the client's own "\r\x1b[K", newlines, and
// characters that are shown as they are.
void check_harmless(std::string_view text) {
  const auto length = static_cast<std::int32_t>(std::min<std::size_t>(text.size(), INT32_MAX));
  std::int32_t i = 0;
  while (i < length) {
    if (text.substr(static_cast<std::size_t>(i), 4) == "\r\x1b[K") {
      i += 4;
      continue;
    }
    UChar32 c = 0;
    U8_NEXT(text.data(), i, length, c);
    check(c >= 0);  // valid UTF-8
    if (c == '\n') continue;
    check(c >= 0x20 && !(c >= 0x7f && c < 0xa0));  // no C0, DEL or C1
    check(u_charType(c) != U_FORMAT_CHAR);         // no bidi controls, no zero-width tricks
    check(!u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL));
    check(u_charType(c) != U_LINE_SEPARATOR && u_charType(c) != U_PARAGRAPH_SEPARATOR);
  }
}

// Accepts the client's connections: the first gets the stream, later ones
// (a reconnect) get nothing. Each is read to its end, so that the client
// sees every byte, and reset rather than left in TIME_WAIT.
asio::awaitable<void> serve(tcp::acceptor& acceptor, std::string stream) {
  for (bool first = true;; first = false) {
    auto [ec, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
    if (first) {
      co_await asio::async_write(socket, asio::buffer(stream), asio::as_tuple(asio::use_awaitable));
    }
    boost::system::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_send, ignored);
    char sink[4096];
    for (;;) {
      auto [read_error, n] =
          co_await socket.async_read_some(asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
      if (read_error) break;
    }
    socket.set_option(asio::socket_base::linger(true, 0), ignored);
    socket.close(ignored);
  }
}

client::ConnectionOptions connection_options(std::uint16_t port) {
  client::ConnectionOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  options.name = "fuzzer";
  options.retry = std::chrono::milliseconds(0);  // one link, then done
  options.tls = false;  // the hostile bytes go straight into the frame reader
  return options;
}

// Runs the client until it is done, then the handlers it left queued while
// it still exists.
void run_to_the_end(asio::io_context& io, tcp::acceptor& acceptor) {
  io.run();
  acceptor.close();
  io.restart();
  io.poll();
}

void run_console(asio::io_context& io, tcp::acceptor& acceptor, bool interactive,
                 std::string& screen) {
  const std::uint16_t port = acceptor.local_endpoint().port();
  client::ClientConfig config;
  config.host = "127.0.0.1";
  config.port = port;
  config.name = "fuzzer";
  config.retry = std::chrono::milliseconds(0);
  config.no_token_file = true;
  config.trust.no_tls = true;
  config.secret_file = "/dev/null/none";  // nowhere: the secret is shown instead
  client::Terminal terminal(
      interactive, false, [&](std::string_view text) { screen += text; },
      client::ScreenSize{12, 60});
  client::ConsoleClient console(io, config, terminal);
  console.start();
  for (const char* line : kTyped) console.on_line(line);
  run_to_the_end(io, acceptor);
}

void run_bot(asio::io_context& io, tcp::acceptor& acceptor) {
  client::BotOptions options;
  options.connection = connection_options(acceptor.local_endpoint().port());
  options.ai.level = Level::Random;
  options.ai.budget = std::chrono::milliseconds(0);
  options.games = 2;
  auto bot = std::make_shared<client::BotPlayer>("fuzz-bot", io.get_executor(), io.get_executor(),
                                                 options, [&io] { io.stop(); });
  bot->start();
  run_to_the_end(io, acceptor);
}

}  // namespace

void client(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::uint8_t mode = data[0];
  static std::ostringstream log;
  static const bool logging = [] {
    // The client keeps no files of its own here: without a config dir it
    // claims no name lock and writes no token or secret (the harness runs
    // in tests and fuzz runs, and must not fill anyone's ~/.config).
    ::unsetenv("XDG_CONFIG_HOME");
    ::unsetenv("HOME");
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(log);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("fuzz", sink));
    spdlog::set_level(spdlog::level::trace);  // every log line that quotes the server
    client::route_protobuf_logs();
    return true;
  }();
  (void)logging;
  log.str("");

  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  asio::co_spawn(io,
                 serve(acceptor, std::string(reinterpret_cast<const char*>(data + 1), size - 1)),
                 asio::detached);

  // The bot and the client's last words go to the standard streams.
  std::ostringstream out;
  std::ostringstream err;
  auto* const saved_out = std::cout.rdbuf(out.rdbuf());
  auto* const saved_err = std::cerr.rdbuf(err.rdbuf());
  std::string screen;
  if (mode & kBot) {
    run_bot(io, acceptor);
  } else {
    run_console(io, acceptor, (mode & kInteractive) != 0, screen);
  }
  std::cout.rdbuf(saved_out);
  std::cerr.rdbuf(saved_err);

  check_harmless(screen);
  check_harmless(out.str());
  check_harmless(err.str());
  check_harmless(log.str());
}

}  // namespace ttt::fuzz
