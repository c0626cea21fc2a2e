// A thin RAII layer over libpq: one connection, statements prepared once and
// run with text parameters, results read by row and column. Every failure is
// a StoreError naming the statement and PostgreSQL's message. A silent
// database is noticed: the connection asks the kernel for keepalives and a
// TCP user timeout, connecting gives up after a few seconds, and a statement
// may be given a deadline (answer_within) past which the connection is
// dropped as lost. In pipeline mode (libpq's) statements go out as they come
// and are answered together: a batch of writes costs one round trip. Only
// store/'s own sources include libpq-fe.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
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

  // Runs one or more statements without parameters (one only in pipeline
  // mode).
  PgResult exec(std::string_view sql);
  // Runs sql with params, prepared on first use and kept for this
  // connection; sql must be a string literal (its address is the key). In
  // pipeline mode it is sent behind what was sent before, and every answer
  // up to its own is read: an earlier statement's failure is thrown here.
  PgResult run(const char* sql, const std::vector<PgParam>& params = {});

  // --- Pipeline mode: statements sent without waiting for their answers ---
  // Enters it (nothing may be in flight).
  void begin_pipeline();
  bool pipelined() const noexcept { return pipelined_; }
  // Sends sql (as run() would, prepared on first use) and returns at once;
  // its failure is thrown by the next run(), exec() or sync(). With `rows`,
  // an answer of another number of rows (RETURNING) counts as a failure.
  // Outside pipeline mode: run(), and the same check.
  void send(const char* sql, const std::vector<PgParam>& params = {},
            std::optional<int> rows = std::nullopt);
  // Reads the answer to every statement sent, within one deadline; throws
  // the first failure (naming its statement) once all are read. The
  // connection stays in pipeline mode.
  void sync();
  // Leaves pipeline mode; what was sent and not read is read and dropped
  // (its failures unreported). A lost connection simply leaves it.
  void end_pipeline() noexcept;
  // Called in pipeline mode before any answer is awaited (run, exec,
  // sync): where a caller sends what it held back to send as one statement
  // (PostgresStore's moves), so that it goes before what reads after it.
  void before_answers(std::function<void()> send_held) { send_held_ = std::move(send_held); }

  // A statement not answered within `limit` fails, and the connection is
  // dropped (connected() false): the server is stopped, cut off or stuck.
  // 0: wait for ever.
  void answer_within(std::chrono::milliseconds limit) noexcept { deadline_ = limit; }

  // False once the connection is lost.
  bool connected() const noexcept;
  // Connects again with the same parameters (the prepared statements and
  // pipeline mode are gone with the old session). Throws StoreError when it
  // can't.
  void reconnect();

  // "host:port/database as user": never the password.
  std::string where() const;

 private:
  // A statement sent in pipeline mode, for reading its answers: its text
  // (for errors), and whether it is the Parse that prepares it.
  struct Sent {
    std::string_view sql;
    const char* prepares = nullptr;  // the literal whose Parse this is
    int rows = -1;                   // the rows its answer must have; -1: any
  };

  PgResult checked(pg_result* result, std::string_view sql);
  // The statement's name, prepared (sent, in pipeline mode) on first use.
  const std::string& prepared(const char* sql);
  // Sends a prepared statement's Bind and Execute; false if libpq refused.
  bool send_prepared(const std::string& name, const std::vector<PgParam>& params);
  // Sends what libpq holds, within the deadline.
  void flush_within(std::chrono::steady_clock::time_point until, std::string_view sql);
  // Waits until a result can be read without blocking (or the connection
  // is found lost), within the deadline.
  void await_readable(std::chrono::steady_clock::time_point until, std::string_view sql);
  // Sends what libpq holds and waits for the statement's results (the
  // last, or the first error), within the deadline.
  pg_result* await_result(std::string_view sql);
  // sync(), keeping the last statement's result (run() in pipeline mode).
  pg_result* sync_keeping_last();
  // A send failed in pipeline mode (the connection is lost): throws.
  [[noreturn]] void send_failed(std::string_view sql);
  // Pipeline mode: what the caller held back goes out now (before_answers).
  void send_held();
  // Waits until the socket is ready for `events` (poll), at most until
  // `until`; false on a timeout.
  bool wait_socket(short events, std::chrono::steady_clock::time_point until);
  // The statement got no answer in time: the connection is given up.
  [[noreturn]] void timed_out(std::string_view sql);

  pg_conn* conn_ = nullptr;
  std::chrono::milliseconds deadline_{0};
  std::unordered_map<const char*, std::string> prepared_;  // literal -> statement name
  std::uint64_t statements_ = 0;                           // names given out in this session
  bool pipelined_ = false;
  std::vector<Sent> sent_;  // pipeline mode: sent, answers not yet read
  std::function<void()> send_held_;
  bool sending_held_ = false;
};

}  // namespace ttt::server
