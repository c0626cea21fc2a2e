// tls::Stream over real loopback sockets: OpenSSL reads straight from what a
// receive brought and writes its records straight to the stream's output
// (tls/src/stream.cpp). These tests move enough bytes, in big and small
// pieces, that OpenSSL cannot take every receive whole (what it leaves is
// kept for its next read), and check every byte arrives once, in order.
#include <gtest/gtest.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <unistd.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client_support/test_certificates.hpp"
#include "support/run_until.hpp"
#include "ttt/tls/peer_name.hpp"
#include "ttt/tls/stream.hpp"

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using ttt::tls::Stream;

// Whether the (non-blocking) socket has something to read within 5 s.
bool readable(tcp::socket& socket) {
  pollfd p{socket.native_handle(), POLLIN, 0};
  return ::poll(&p, 1, 5000) == 1;
}

// A connected pair of TLS streams over loopback, the server's certificate
// from a test CA, both handshakes made.
class StreamPair : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ttt-tls-stream-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    ca_.emplace(dir_.string());
    const auto files = ca_->issue(dir_.string(), "server", {"127.0.0.1"});
    server_context_ = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    ttt::tls::harden(*server_context_);
    server_context_->use_certificate_chain_file(files.cert);
    server_context_->use_private_key_file(files.key, asio::ssl::context::pem);
    client_context_ = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
    ttt::tls::harden(*client_context_);
    client_context_->load_verify_file(ca_->cert_file());
    client_context_->set_verify_mode(asio::ssl::verify_peer);
  }

  void TearDown() override {
    ca_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  // Connects a client socket to a server socket over loopback.
  std::pair<tcp::socket, tcp::socket> connected() {
    tcp::acceptor acceptor(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    tcp::socket client(io_);
    client.connect(acceptor.local_endpoint());
    tcp::socket server = acceptor.accept();
    return {std::move(server), std::move(client)};
  }

  // Both handshakes, run to the end; the errors they gave. `prepare` sees
  // the client's stream before its handshake.
  std::pair<error_code, error_code> handshake(Stream& server, Stream& client,
                                              const std::function<void(Stream&)>& prepare = {}) {
    server.start_tls(server_context_);
    client.start_tls(client_context_);
    if (prepare) prepare(client);
    std::optional<error_code> server_ec, client_ec;
    asio::co_spawn(
        io_,
        [&]() -> asio::awaitable<void> {
          server_ec = co_await server.handshake(asio::ssl::stream_base::server);
        },
        asio::detached);
    asio::co_spawn(
        io_,
        [&]() -> asio::awaitable<void> {
          client_ec = co_await client.handshake(asio::ssl::stream_base::client);
        },
        asio::detached);
    EXPECT_TRUE(run_until([&] { return server_ec && client_ec; }));
    EXPECT_TRUE(server_ec && client_ec) << "a handshake never finished";
    return {server_ec.value_or(asio::error::timed_out), client_ec.value_or(asio::error::timed_out)};
  }

  // Both handshakes, the client expecting its peer to be `host`
  // (tls::expect_host); the client's error, its verdict on the
  // certificate and the name the server was sent (SNI; empty if none).
  struct Expected {
    error_code client_ec;
    long verdict;
    std::string server_name;
  };
  Expected handshake_expecting(const std::string& host) {
    auto [server_socket, client_socket] = connected();
    Stream server(std::move(server_socket));
    Stream client(std::move(client_socket));
    const auto client_ec = handshake(server, client, [&host](Stream& stream) {
                             ttt::tls::expect_host(stream.native_handle(), host);
                           }).second;
    const char* name = SSL_get_servername(server.native_handle(), TLSEXT_NAMETYPE_host_name);
    return {client_ec, SSL_get_verify_result(client.native_handle()), name == nullptr ? "" : name};
  }

  // A new pair, connected and both handshakes made: server_ and client_.
  void open_pair() {
    auto [server_socket, client_socket] = connected();
    server_.emplace(std::move(server_socket));
    client_.emplace(std::move(client_socket));
    const auto [server_ec, client_ec] = handshake(*server_, *client_);
    ASSERT_FALSE(server_ec) << server_ec.message();
    ASSERT_FALSE(client_ec) << client_ec.message();
  }

  // Runs the io_context until done() (true) or 20 s pass (false: a bound,
  // never a timing check).
  template <typename Done>
  bool run_until(Done done) {
    return ttt::testing::run_until(io_, done, std::chrono::seconds(20));
  }

  // Reads from client in reads of chunk bytes until received holds want
  // bytes or a read fails (its error in read_ec).
  void spawn_reader(Stream& client, std::size_t want, std::size_t chunk, std::string& received,
                    error_code& read_ec) {
    asio::co_spawn(
        io_,
        [&client, want, chunk, &received, &read_ec]() -> asio::awaitable<void> {
          std::vector<char> buffer(chunk);
          while (received.size() < want) {
            auto [ec, n] = co_await client.read_some(asio::buffer(buffer));
            if (ec) {
              read_ec = ec;
              break;
            }
            received.append(buffer.data(), n);
          }
        },
        asio::detached);
  }

  static std::string pattern(std::size_t size) {
    std::string bytes(size, '\0');
    std::uint32_t x = 2463534242u;
    for (auto& c : bytes) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      c = static_cast<char>(x);
    }
    return bytes;
  }

  asio::io_context io_;
  std::filesystem::path dir_;
  std::optional<ttt::testing::TestCa> ca_;
  std::shared_ptr<asio::ssl::context> server_context_;
  std::shared_ptr<asio::ssl::context> client_context_;
  std::optional<Stream> server_;  // open_pair()'s (before io_ goes)
  std::optional<Stream> client_;
};

TEST_F(StreamPair, FourMebibytesInBigWritesArriveWholeAndInOrder) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;

  const std::string sent = pattern(4 << 20);
  std::string received;
  bool written = false;
  error_code write_ec, read_ec;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        // Pieces of sizes that cut records anywhere: 100 KiB and odd rests.
        for (std::size_t at = 0; at < sent.size();) {
          const std::size_t n = std::min<std::size_t>(sent.size() - at, 100'003);
          const asio::const_buffer piece(sent.data() + at, n);
          auto [ec, _] = co_await server.write(std::span(&piece, 1));
          if (ec) {
            write_ec = ec;
            break;
          }
          at += n;
        }
        written = true;
      },
      asio::detached);
  // Reads of a size unrelated to the records' (a record never fits).
  spawn_reader(client, sent.size(), 7'001, received, read_ec);
  EXPECT_TRUE(run_until(
      [&] { return (written && received.size() >= sent.size()) || write_ec || read_ec; }));
  ASSERT_FALSE(write_ec) << write_ec.message();
  ASSERT_FALSE(read_ec) << read_ec.message();
  ASSERT_EQ(received.size(), sent.size());
  EXPECT_TRUE(received == sent) << "the bytes arrived changed or out of order";
}

TEST_F(StreamPair, ManySmallRecordsWrittenAtOnceAreReadWithoutWaiting) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;

  // 20,000 frames of 37 bytes, each its own record, made without waiting
  // (as the server's sessions send states).
  std::string sent;
  for (int i = 0; i < 20'000; ++i) {
    std::string frame = pattern(37);
    frame[0] = static_cast<char>(i);
    frame[1] = static_cast<char>(i >> 8);
    const asio::const_buffer piece(frame.data(), frame.size());
    error_code ec;
    ASSERT_EQ(server.write_now(std::span(&piece, 1), ec), frame.size());
    ASSERT_FALSE(ec) << ec.message();
    sent += frame;
  }
  bool flushed = false;
  error_code flush_ec;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        flush_ec = co_await server.flush();
        flushed = true;
      },
      asio::detached);

  // The client reads what is there without waiting, and waits for the
  // socket only when the stream holds nothing more.
  std::string received;
  char buffer[1'000];
  EXPECT_TRUE(run_until([&] {
    for (;;) {
      error_code ec;
      const std::size_t n = client.read_now(asio::buffer(buffer), ec);
      if (ec == asio::error::would_block) break;
      if (ec) {
        ADD_FAILURE() << ec.message();
        return true;
      }
      received.append(buffer, n);
    }
    return flushed && received.size() >= sent.size();
  }));
  ASSERT_FALSE(flush_ec) << flush_ec.message();
  EXPECT_FALSE(client.holds_input());
  ASSERT_EQ(received.size(), sent.size());
  EXPECT_TRUE(received == sent) << "the bytes arrived changed or out of order";
}

// A session's writer hands the stream every frame queued for a connection
// at once: small frames and frames larger than a record, gathered into full
// records of 16 KiB (one SSL_write each), not one record a frame. A reader
// that takes little at a time still gets every byte once, in order.
TEST_F(StreamPair, QueuedFramesGoInFullRecordsAndArriveWholeToASlowReader) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;
  client.socket().set_option(asio::socket_base::receive_buffer_size(16 * 1024));

  // Frames of the sizes a session sends: states of a few dozen bytes, and
  // lists or replays past a record's 16 KiB (one exactly a record, one a
  // byte short of two).
  const std::size_t sizes[] = {37, 41, 40'000, 12, 16'384, 5, 32'767, 90, 1, 70'001, 64};
  std::vector<std::string> frames;
  std::vector<asio::const_buffer> buffers;
  std::string sent;
  for (const std::size_t size : sizes) {
    std::string frame = pattern(size);
    frame[0] = static_cast<char>(frames.size());  // each its own first byte
    sent += frame;
    frames.push_back(std::move(frame));
  }
  for (const auto& frame : frames) buffers.push_back(asio::buffer(frame));
  const std::size_t before = server.pending_output();
  error_code ec;
  server.encrypt(buffers, ec);
  ASSERT_FALSE(ec) << ec.message();
  // A TLS 1.3 record costs 22 bytes (header, content type, tag): the frames
  // took as few records as their bytes need.
  const std::size_t records = (sent.size() + 16'383) / 16'384;
  EXPECT_EQ(server.pending_output() - before, sent.size() + 22 * records)
      << "the frames were not gathered into full records";

  bool flushed = false;
  error_code flush_ec;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        flush_ec = co_await server.flush();
        flushed = true;
      },
      asio::detached);
  // The reader's socket holds 16 KiB at a time, read in pieces of 1,000
  // bytes: the writer waits on it.
  std::string received;
  error_code read_ec;
  spawn_reader(client, sent.size(), 1'000, received, read_ec);
  EXPECT_TRUE(run_until([&] { return (flushed && received.size() >= sent.size()) || read_ec; }));
  ASSERT_FALSE(read_ec) << read_ec.message();
  ASSERT_FALSE(flush_ec) << flush_ec.message();
  ASSERT_EQ(received.size(), sent.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(received.compare(at, frames[i].size(), frames[i]), 0)
        << "frame " << i << " (" << frames[i].size() << " bytes) changed or out of order";
    at += frames[i].size();
  }
}

TEST_F(StreamPair, ACutConnectionIsReadAsTruncatedNotAsAnEnd) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;

  server.socket().close();  // no close_notify: a cut, as an attacker's
  std::optional<error_code> read_ec;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        char buffer[100];
        auto [ec, n] = co_await client.read_some(asio::buffer(buffer));
        read_ec = ec;
      },
      asio::detached);
  EXPECT_TRUE(run_until([&] { return read_ec.has_value(); }));
  ASSERT_TRUE(read_ec.has_value());
  EXPECT_EQ(*read_ec, asio::ssl::error::stream_truncated) << read_ec->message();
}

TEST_F(StreamPair, BytesThatAreNotTlsFailTheHandshakeAtOnce) {
  auto [server_socket, client_socket] = connected();
  Stream server(std::move(server_socket));
  server.start_tls(server_context_);
  // A plain ttt frame instead of a ClientHello.
  asio::write(client_socket, asio::buffer(std::string("\0\0\0\x05hello", 9)));
  std::optional<error_code> server_ec;
  asio::co_spawn(
      io_,
      [&]() -> asio::awaitable<void> {
        server_ec = co_await server.handshake(asio::ssl::stream_base::server);
      },
      asio::detached);
  EXPECT_TRUE(run_until([&] { return server_ec.has_value(); }));
  ASSERT_TRUE(server_ec.has_value()) << "the handshake hung";
  EXPECT_TRUE(*server_ec) << "garbage was taken for a handshake";
  EXPECT_EQ(server_ec->category(), asio::error::get_ssl_category()) << server_ec->message();
}

TEST_F(StreamPair, PartOfARecordIsNoInputToReadUntilTheRestArrives) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;

  // An application-data record's header (32 bytes to follow) and 3 of them:
  // OpenSSL keeps these and counts them as pending, but they are nothing to
  // read, and a reader must wait on the socket (not read again and again).
  client.socket().non_blocking(false);
  asio::write(client.socket(), asio::buffer(std::string("\x17\x03\x03\x00\x20"
                                                        "abc",
                                                        8)));
  ASSERT_TRUE(readable(server.socket()));
  char buffer[100];
  error_code ec;
  for (int i = 0; i < 10 && !ec; ++i) server.read_now(asio::buffer(buffer), ec);
  EXPECT_EQ(ec, asio::error::would_block) << ec.message();
  EXPECT_FALSE(server.holds_input());
  // The rest arrives (not a real record: it fails, at once, as an error).
  asio::write(client.socket(), asio::buffer(std::string(29, 'x')));
  ASSERT_TRUE(readable(server.socket()));
  ec.clear();
  for (int i = 0; i < 10 && (!ec || ec == asio::error::would_block); ++i) {
    server.read_now(asio::buffer(buffer), ec);
  }
  EXPECT_TRUE(ec && ec != asio::error::would_block) << ec.message();
}

TEST_F(StreamPair, AnErrorLeftByOtherCodeNeitherHidesAPeersCloseNorNamesAFailure) {
  {
    ASSERT_NO_FATAL_FAILURE(open_pair());
    Stream& server = *server_;
    Stream& client = *client_;
    // The client closes cleanly (close_notify) while an old error sits in
    // the server thread's queue: the server reads an end, not an error.
    ASSERT_EQ(SSL_shutdown(client.native_handle()), 0);
    error_code ec;
    ASSERT_TRUE(client.flush_now(ec)) << ec.message();
    ASSERT_TRUE(readable(server.socket()));
    ERR_raise(ERR_LIB_SSL, SSL_R_BAD_PACKET_LENGTH);
    char buffer[100];
    for (int i = 0; i < 10 && (!ec || ec == asio::error::would_block); ++i) {
      server.read_now(asio::buffer(buffer), ec);
    }
    EXPECT_EQ(ec, asio::error::eof) << ec.message();
    EXPECT_EQ(ERR_peek_error(), 0u) << "the queue was left with errors";
  }
  {
    ASSERT_NO_FATAL_FAILURE(open_pair());
    Stream& server = *server_;
    Stream& client = *client_;
    // A forged record: the failure is named by its own error, not the old one.
    client.socket().non_blocking(false);
    asio::write(client.socket(),
                asio::buffer(std::string("\x17\x03\x03\x00\x20", 5) + std::string(32, 'x')));
    ASSERT_TRUE(readable(server.socket()));
    ERR_raise(ERR_LIB_SSL, SSL_R_BAD_PACKET_LENGTH);
    error_code ec;
    char buffer[100];
    for (int i = 0; i < 10 && (!ec || ec == asio::error::would_block); ++i) {
      server.read_now(asio::buffer(buffer), ec);
    }
    ASSERT_EQ(ec.category(), asio::error::get_ssl_category()) << ec.message();
    EXPECT_EQ(ERR_GET_REASON(static_cast<unsigned long>(ec.value())),
              SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)
        << ec.message();
    EXPECT_EQ(ERR_peek_error(), 0u) << "the queue was left with errors";
  }
}

TEST_F(StreamPair, AnErrorLeftByOtherCodeDoesNotEndAHealthyConnection) {
  ASSERT_NO_FATAL_FAILURE(open_pair());
  Stream& server = *server_;
  Stream& client = *client_;

  // Something else on this thread failed in OpenSSL and left its error.
  ERR_raise(ERR_LIB_SSL, SSL_R_BAD_PACKET_LENGTH);
  error_code ec;
  char buffer[100];
  EXPECT_EQ(client.read_now(asio::buffer(buffer), ec), 0u);
  EXPECT_EQ(ec, asio::error::would_block) << ec.message();
  const std::string frame = "still fine";
  const asio::const_buffer piece(frame.data(), frame.size());
  EXPECT_EQ(server.write_now(std::span(&piece, 1), ec), frame.size());
  EXPECT_FALSE(ec) << ec.message();
  std::string received;
  EXPECT_TRUE(run_until([&] {
    error_code read_ec;
    const std::size_t n = client.read_now(asio::buffer(buffer), read_ec);
    if (!read_ec) received.append(buffer, n);
    return received.size() >= frame.size() || (read_ec && read_ec != asio::error::would_block);
  }));
  EXPECT_EQ(received, frame);
  ERR_clear_error();
}

// A client's handshake checks that the certificate names the host it
// dialled: an address against the certificate's addresses, a name against
// its names (and sent as SNI). The test CA's certificate names 127.0.0.1.
TEST_F(StreamPair, AClientRefusesACertificateThatDoesNotNameTheHostItExpects) {
  const Expected right = handshake_expecting("127.0.0.1");
  EXPECT_FALSE(right.client_ec) << right.client_ec.message();
  EXPECT_EQ(right.verdict, X509_V_OK);
  EXPECT_EQ(right.server_name, "") << "an address is no server name";
  const Expected other_address = handshake_expecting("127.0.0.2");
  EXPECT_TRUE(other_address.client_ec);
  EXPECT_EQ(other_address.verdict, X509_V_ERR_IP_ADDRESS_MISMATCH);
  const Expected a_name = handshake_expecting("elsewhere.example");
  EXPECT_TRUE(a_name.client_ec);
  EXPECT_EQ(a_name.verdict, X509_V_ERR_HOSTNAME_MISMATCH);
  EXPECT_EQ(a_name.server_name, "elsewhere.example");
}

}  // namespace
