// A thin RAII layer over libpq: one connection, statements prepared once and
// run with text parameters, results read by row and column. Every failure is
// a StoreError naming the statement and PostgreSQL's message. A silent
// database is noticed: the connection asks the kernel for keepalives and a
// TCP user timeout, connecting gives up after a few seconds, and a statement
// may be given a deadline (answer_within) past which the connection is
// dropped as lost. Only store/'s own sources include libpq-fe.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/store_error.hpp"

struct pg_conn;
struct pg_result;

namespace ttt::server {

// One statement's parameter, in PostgreSQL's text form; nullopt is NULL.
using PgParam = std::optional<std::string>;

PgParam pg_param(std::int64_t value);
PgParam pg_param(double value);
PgParam pg_param(std::string_view text);

class PgResult {
 public:
  explicit PgResult(pg_result* result) noexcept : result_(result) {}
  ~PgResult();
  PgResult(PgResult&& other) noexcept;
  PgResult& operator=(PgResult&&) = delete;
  PgResult(const PgResult&) = delete;

  int rows() const noexcept;
  // Throws StoreError for a value that is not what the column should hold.
  std::int64_t integer(int row, int column) const;
  double real(int row, int column) const;
  std::string text(int row, int column) const;
  bool is_null(int row, int column) const;

 private:
  pg_result* result_;
};

class PgConnection {
 public:
  // Seconds a connection attempt may take, unless the connection string
  // says otherwise (with the keepalive settings below).
  static constexpr int kConnectSeconds = 3;

  // Connects (libpq's connection string or URI). Throws StoreError with the
  // server's or libpq's reason when it can't. Settings the string leaves out
  // get ours: connect_timeout, keepalives every 2 s after 5 s idle (3
  // unanswered: gone) and a TCP user timeout of 10 s.
  explicit PgConnection(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one or more statements without parameters.
  PgResult exec(std::string_view sql);
  // Runs sql with params, prepared on first use and kept for this
  // connection; sql must be a string literal (its address is the key).
  PgResult run(const char* sql, const std::vector<PgParam>& params = {});

  // A statement not answered within `limit` fails, and the connection is
  // dropped (connected() false): the server is stopped, cut off or stuck.
  // 0: wait for ever.
  void answer_within(std::chrono::milliseconds limit) noexcept { deadline_ = limit; }

  // False once the connection is lost.
  bool connected() const noexcept;
  // Connects again with the same parameters (the prepared statements are
  // gone with the old session). Throws StoreError when it can't.
  void reconnect();

  // "host:port/database as user": never the password.
  std::string where() const;

 private:
  PgResult checked(pg_result* result, std::string_view sql);
  // Sends what libpq holds and waits for the statement's results (the
  // last, or the first error), within the deadline; nullptr on a timeout.
  pg_result* await_result(std::string_view sql);
  // Waits until the socket is ready for `events` (poll), at most until
  // `until`; false on a timeout.
  bool wait_socket(short events, std::chrono::steady_clock::time_point until);
  // The statement got no answer in time: the connection is given up.
  [[noreturn]] void timed_out(std::string_view sql);

  pg_conn* conn_ = nullptr;
  std::chrono::milliseconds deadline_{0};
  std::unordered_map<const char*, std::string> prepared_;  // literal -> statement name
};

}  // namespace ttt::server
