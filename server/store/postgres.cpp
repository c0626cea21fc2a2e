#include "store/postgres.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
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

std::string excerpt(std::string_view sql) {
  std::string text(sql.substr(0, 60));
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  return text;
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

bool PgResult::is_null(int row, int column) const {
  return PQgetisnull(result_, row, column) != 0;
}

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
}

PgConnection::~PgConnection() { PQfinish(conn_); }

bool PgConnection::connected() const noexcept { return PQstatus(conn_) == CONNECTION_OK; }

void PgConnection::reconnect() {
  prepared_.clear();
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    throw StoreError("PostgreSQL at " + where() +
                     " is unreachable: " + message_of(PQerrorMessage(conn_)));
  }
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
  if (const int fd = PQsocket(conn_); fd >= 0) ::shutdown(fd, SHUT_RDWR);
  while (PQconsumeInput(conn_) != 0 && PQisBusy(conn_) != 0) {
  }
  while (pg_result* r = PQgetResult(conn_)) PQclear(r);
  throw StoreError("'" + excerpt(sql) + "': no answer from PostgreSQL at " + where() + " within " +
                   std::to_string(deadline_.count()) + " ms: the connection is given up");
}

pg_result* PgConnection::await_result(std::string_view sql) {
  const auto until = std::chrono::steady_clock::now() + deadline_;
  for (;;) {
    const int flushed = PQflush(conn_);
    if (flushed <= 0) break;  // all sent, or failed (the result says why)
    if (!wait_socket(POLLIN | POLLOUT, until)) timed_out(sql);
    if (PQconsumeInput(conn_) == 0) break;
  }
  pg_result* kept = nullptr;
  for (;;) {
    while (PQisBusy(conn_) != 0) {
      if (!wait_socket(POLLIN, until)) {
        PQclear(kept);
        timed_out(sql);
      }
      if (PQconsumeInput(conn_) == 0) break;  // lost: PQgetResult says so
    }
    pg_result* next = PQgetResult(conn_);
    if (next == nullptr) break;
    // As PQexec: the last result, unless an earlier one is an error.
    const auto status = kept != nullptr ? PQresultStatus(kept) : PGRES_EMPTY_QUERY;
    if (kept != nullptr && status != PGRES_FATAL_ERROR && status != PGRES_NONFATAL_ERROR) {
      PQclear(kept);
      kept = next;
    } else if (kept != nullptr) {
      PQclear(next);
    } else {
      kept = next;
    }
    if (PQstatus(conn_) == CONNECTION_BAD) break;
  }
  return kept;
}

PgResult PgConnection::exec(std::string_view sql) {
  const std::string text(sql);
  if (PQsendQuery(conn_, text.c_str()) == 0) return checked(nullptr, sql);
  return checked(await_result(sql), sql);
}

PgResult PgConnection::run(const char* sql, const std::vector<PgParam>& params) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    const std::string name = "ttt_" + std::to_string(prepared_.size() + 1);
    if (PQsendPrepare(conn_, name.c_str(), sql, 0, nullptr) == 0) checked(nullptr, sql);
    checked(await_result(sql), sql);
    it = prepared_.emplace(sql, name).first;
  }
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  if (PQsendQueryPrepared(conn_, it->second.c_str(), static_cast<int>(values.size()), values.data(),
                          nullptr, nullptr, 0) == 0) {
    return checked(nullptr, sql);
  }
  return checked(await_result(sql), sql);
}

}  // namespace ttt::server
