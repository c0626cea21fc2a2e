#include "store/postgres.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <system_error>

namespace ttt::server {
namespace {

// PostgreSQL's message on one line (its DETAIL and HINT lines joined with
// spaces), for one log line per event.
std::string message_of(const char* text) {
  std::string message;
  for (const char* c = text != nullptr ? text : ""; *c != '\0'; ++c) {
    const bool space = *c == '\n' || *c == '\t' || *c == '\r';
    if (space && (message.empty() || message.back() == ' ')) continue;
    message.push_back(space ? ' ' : *c);
  }
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message.empty() ? "no message" : message;
}

// A result owned until it is handed on (release) or dropped.
struct ClearResult {
  void operator()(pg_result* result) const noexcept { PQclear(result); }
};
using Owned = std::unique_ptr<pg_result, ClearResult>;

bool failed(const pg_result* result) {
  const auto status = PQresultStatus(result);
  return status == PGRES_FATAL_ERROR || status == PGRES_NONFATAL_ERROR;
}

std::string excerpt(std::string_view sql) {
  std::string text(sql.substr(0, 60));
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  return text;
}

std::string unexpected_rows(std::string_view sql, int got, int wanted) {
  return "'" + excerpt(sql) + "': " + std::to_string(got) + " rows where " +
         std::to_string(wanted) + " were expected";
}

}  // namespace

PgParam pg_param(std::int64_t value) { return std::to_string(value); }

PgParam pg_param(double value) {
  char buffer[32];
  // The shortest text that reads back as the same double.
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

PgParam pg_param(std::string_view text) { return std::string(text); }

PgResult::~PgResult() { PQclear(result_); }

PgResult::PgResult(PgResult&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }

int PgResult::rows() const noexcept { return PQntuples(result_); }

std::int64_t PgResult::integer(int row, int column) const {
  const char* text = PQgetvalue(result_, row, column);
  const std::string_view value(text);
  std::int64_t number = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || end != value.data() + value.size()) {
    throw StoreError("column " + std::string(PQfname(result_, column)) +
                     " holds no whole number: '" + excerpt(value) + "'");
  }
  return number;
}

double PgResult::real(int row, int column) const {
  const char* text = PQgetvalue(result_, row, column);
  char* end = nullptr;
  const double number = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    throw StoreError("column " + std::string(PQfname(result_, column)) + " holds no number: '" +
                     excerpt(text) + "'");
  }
  return number;
}

std::string PgResult::text(int row, int column) const {
  return std::string(PQgetvalue(result_, row, column),
                     static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

bool PgResult::is_null(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }

PgConnection::PgConnection(const std::string& conninfo) {
  // Keywords are read in order and the last value of each wins: ours come
  // first, so that the connection string (dbname, expanded) overrides them.
  const std::string connect = std::to_string(kConnectSeconds);
  const char* keywords[] = {
      "connect_timeout",  "keepalives",       "keepalives_idle", "keepalives_interval",
      "keepalives_count", "tcp_user_timeout", "dbname",          nullptr};
  const char* values[] = {connect.c_str(), "1", "5", "2", "3", "10000", conninfo.c_str(), nullptr};
  conn_ = PQconnectdbParams(keywords, values, 1);
  if (conn_ == nullptr) throw StoreError("cannot connect to PostgreSQL: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = message_of(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw StoreError("cannot connect to PostgreSQL: " + message);
  }
  // Notices ("relation already exists, skipping") are not errors: keep them
  // out of the server's stderr.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  // libpq never waits inside a send: every wait is ours, within the
  // deadline (a pipeline's statements may fill the socket's buffer).
  PQsetnonblocking(conn_, 1);
}

PgConnection::~PgConnection() { PQfinish(conn_); }

bool PgConnection::connected() const noexcept { return PQstatus(conn_) == CONNECTION_OK; }

void PgConnection::reconnect() {
  prepared_.clear();
  sent_.clear();
  pipelined_ = false;
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    throw StoreError("PostgreSQL at " + where() +
                     " is unreachable: " + message_of(PQerrorMessage(conn_)));
  }
  PQsetnonblocking(conn_, 1);  // PQreset made the new session blocking
}

std::string PgConnection::where() const {
  const auto value = [](const char* text, const char* otherwise) {
    return std::string(text != nullptr && *text != '\0' ? text : otherwise);
  };
  const std::string host = value(PQhost(conn_), "localhost");
  const std::string at = host.starts_with('/') ? "socket in " + host : host;
  return at + ":" + value(PQport(conn_), "5432") + "/" + value(PQdb(conn_), "?") + " as " +
         value(PQuser(conn_), "?");
}

PgResult PgConnection::checked(pg_result* result, std::string_view sql) {
  PgResult owned(result);
  const auto status = PQresultStatus(result);
  if (result == nullptr || (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)) {
    const char* error = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
    throw StoreError("'" + excerpt(sql) + "': " + message_of(error));
  }
  return owned;
}

bool PgConnection::wait_socket(short events, std::chrono::steady_clock::time_point until) {
  for (;;) {
    int timeout = -1;
    if (deadline_.count() > 0) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      timeout = static_cast<int>(left.count());
    }
    pollfd fd{PQsocket(conn_), events, 0};
    if (fd.fd < 0) return true;  // no socket: libpq reports the error itself
    const int ready = ::poll(&fd, 1, timeout);
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) return true;  // let libpq find the socket's error
  }
}

void PgConnection::timed_out(std::string_view sql) {
  // Given up: whatever the server sends later is never read. Shutting the
  // socket down makes libpq see the connection as lost, so the next
  // transaction connects again (reconnect).
  const std::string what = excerpt(sql);
  if (const int fd = PQsocket(conn_); fd >= 0) ::shutdown(fd, SHUT_RDWR);
  while (PQconsumeInput(conn_) != 0 && PQisBusy(conn_) != 0) {
  }
  while (pg_result* r = PQgetResult(conn_)) PQclear(r);
  sent_.clear();
  pipelined_ = false;
  throw StoreError("'" + what + "': no answer from PostgreSQL at " + where() + " within " +
                   std::to_string(deadline_.count()) + " ms: the connection is given up");
}

void PgConnection::flush_within(std::chrono::steady_clock::time_point until, std::string_view sql) {
  for (;;) {
    const int flushed = PQflush(conn_);
    if (flushed <= 0) return;  // all sent, or failed (the result says why)
    if (!wait_socket(POLLIN | POLLOUT, until)) timed_out(sql);
    if (PQconsumeInput(conn_) == 0) return;
  }
}

void PgConnection::await_readable(std::chrono::steady_clock::time_point until,
                                  std::string_view sql) {
  while (PQisBusy(conn_) != 0) {
    if (!wait_socket(POLLIN, until)) timed_out(sql);
    if (PQconsumeInput(conn_) == 0) return;  // lost: PQgetResult says so
  }
}

pg_result* PgConnection::await_result(std::string_view sql) {
  const auto until = std::chrono::steady_clock::now() + deadline_;
  flush_within(until, sql);
  Owned kept;
  for (;;) {
    await_readable(until, sql);
    Owned next(PQgetResult(conn_));
    if (!next) break;
    // As PQexec: the last result, unless an earlier one is an error.
    if (!kept || !failed(kept.get())) kept = std::move(next);
    if (PQstatus(conn_) == CONNECTION_BAD) break;
  }
  return kept.release();
}

const std::string& PgConnection::prepared(const char* sql) {
  if (const auto it = prepared_.find(sql); it != prepared_.end()) return it->second;
  // A name never used before in this session: one whose Parse failed in a
  // pipeline may be on the server after all.
  std::string name = "ttt_" + std::to_string(++statements_);
  if (PQsendPrepare(conn_, name.c_str(), sql, 0, nullptr) == 0) {
    if (pipelined_) send_failed(sql);
    checked(nullptr, sql);
  }
  if (pipelined_) {
    sent_.push_back({sql, sql});
  } else {
    checked(await_result(sql), sql);
  }
  return prepared_.emplace(sql, std::move(name)).first->second;
}

bool PgConnection::send_prepared(const std::string& name, const std::vector<PgParam>& params) {
  std::array<const char*, 24> fixed{};
  std::vector<const char*> more;
  const char** values = fixed.data();
  if (params.size() > fixed.size()) {
    more.resize(params.size());
    values = more.data();
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    values[i] = params[i] ? params[i]->c_str() : nullptr;
  }
  return PQsendQueryPrepared(conn_, name.c_str(), static_cast<int>(params.size()), values, nullptr,
                             nullptr, 0) != 0;
}

void PgConnection::send_failed(std::string_view sql) {
  throw StoreError("'" + excerpt(sql) + "': " + message_of(PQerrorMessage(conn_)));
}

void PgConnection::send_held() {
  if (!send_held_ || sending_held_) return;
  sending_held_ = true;
  try {
    send_held_();
  } catch (...) {
    sending_held_ = false;
    throw;
  }
  sending_held_ = false;
}

PgResult PgConnection::exec(std::string_view sql) {
  const std::string text(sql);
  if (pipelined_) {
    send_held();
    // One statement, through the extended protocol (the only one a
    // pipeline speaks).
    if (PQsendQueryParams(conn_, text.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0) == 0) {
      send_failed(sql);
    }
    sent_.push_back({text});
    return PgResult(sync_keeping_last());
  }
  if (PQsendQuery(conn_, text.c_str()) == 0) return checked(nullptr, sql);
  return checked(await_result(sql), sql);
}

PgResult PgConnection::run(const char* sql, const std::vector<PgParam>& params) {
  if (pipelined_) send_held();
  const std::string& name = prepared(sql);
  if (pipelined_) {
    if (!send_prepared(name, params)) send_failed(sql);
    sent_.push_back({sql});
    return PgResult(sync_keeping_last());
  }
  if (!send_prepared(name, params)) return checked(nullptr, sql);
  return checked(await_result(sql), sql);
}

// --- pipeline mode ----------------------------------------------------------------

void PgConnection::begin_pipeline() {
  if (pipelined_) return;
  if (PQenterPipelineMode(conn_) == 0) {
    throw StoreError("PostgreSQL at " + where() +
                     ": cannot enter pipeline mode: " + message_of(PQerrorMessage(conn_)));
  }
  pipelined_ = true;
}

void PgConnection::send(const char* sql, const std::vector<PgParam>& params,
                        std::optional<int> rows) {
  if (!pipelined_) {
    const auto result = run(sql, params);
    if (rows && result.rows() != *rows) {
      throw StoreError(unexpected_rows(sql, result.rows(), *rows));
    }
    return;
  }
  const std::string& name = prepared(sql);
  if (!send_prepared(name, params)) send_failed(sql);
  sent_.push_back({sql, nullptr, rows.value_or(-1)});
}

void PgConnection::sync() {
  send_held();
  PQclear(sync_keeping_last());
}

pg_result* PgConnection::sync_keeping_last() {
  const std::string_view last_sql = sent_.empty() ? std::string_view("sync") : sent_.back().sql;
  if (PQpipelineSync(conn_) == 0) {
    for (const Sent& s : sent_) {
      if (s.prepares != nullptr) prepared_.erase(s.prepares);
    }
    const std::string message = "'" + excerpt(last_sql) + "': " + message_of(PQerrorMessage(conn_));
    sent_.clear();
    throw StoreError(message);
  }
  const auto until = std::chrono::steady_clock::now() + deadline_;
  const auto lost = [this] { return PQstatus(conn_) == CONNECTION_BAD; };
  std::string failure;
  Owned last;
  flush_within(until, last_sql);
  // Each statement's answers end with a null result; after a failure the
  // rest are PGRES_PIPELINE_ABORTED (skipped by the server) up to the Sync.
  for (std::size_t i = 0; i < sent_.size() && !lost(); ++i) {
    const Sent& s = sent_[i];
    for (;;) {
      await_readable(until, s.sql);
      Owned r(PQgetResult(conn_));
      if (!r) break;
      const auto status = PQresultStatus(r.get());
      const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
      if (!ok && status != PGRES_PIPELINE_ABORTED && failure.empty()) {
        failure = "'" + excerpt(s.sql) + "': " + message_of(PQresultErrorMessage(r.get()));
      }
      if (ok && s.rows >= 0 && PQntuples(r.get()) != s.rows && failure.empty()) {
        failure = unexpected_rows(s.sql, PQntuples(r.get()), s.rows);
      }
      if (!ok && s.prepares != nullptr) prepared_.erase(s.prepares);
      if (i + 1 == sent_.size()) last = std::move(r);
      if (lost()) break;
    }
  }
  if (!lost()) {
    await_readable(until, last_sql);
    Owned end(PQgetResult(conn_));
    if (!end || PQresultStatus(end.get()) != PGRES_PIPELINE_SYNC) {
      if (failure.empty()) failure = "PostgreSQL's answers to a pipeline ended out of order";
      if (const int fd = PQsocket(conn_); fd >= 0) ::shutdown(fd, SHUT_RDWR);  // not to be trusted
    }
  }
  if (lost()) {
    // What the rest sent will never be answered; reconnect() starts afresh.
    for (const Sent& s : sent_) {
      if (s.prepares != nullptr) prepared_.erase(s.prepares);
    }
    if (failure.empty()) {
      failure = "'" + excerpt(last_sql) + "': " + message_of(PQerrorMessage(conn_));
    }
    pipelined_ = false;
  }
  sent_.clear();
  if (!failure.empty()) throw StoreError(failure);
  return last.release();
}

void PgConnection::end_pipeline() noexcept {
  if (!pipelined_) return;
  if (!sent_.empty() && connected()) {
    try {
      sync();
    } catch (const std::exception&) {
      // Unreported: the transaction they belonged to is rolled back.
    }
  }
  sent_.clear();
  if (!pipelined_) return;  // lost meanwhile
  pipelined_ = false;
  if (connected() && PQexitPipelineMode(conn_) == 0) {
    // libpq holds answers nobody will read: the connection is given up,
    // and the next transaction connects again.
    if (const int fd = PQsocket(conn_); fd >= 0) ::shutdown(fd, SHUT_RDWR);
  }
}

}  // namespace ttt::server
