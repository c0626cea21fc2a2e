#include "store/sqlite.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

namespace ttt::server {
namespace {

[[noreturn]] void fail(sqlite3* db, std::string_view what) {
  throw StoreError(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

namespace {

// Creates a missing database file readable and writable by its owner only:
// SQLite gives its -wal and -shm files the database file's mode.
void create_private_database(const std::string& path) {
  if (path.empty() || path == ":memory:" || path.starts_with("file:")) return;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);  // if it exists (or can't be made), SQLite says so next
}

}  // namespace

Database::Database(const std::string& path) : path_(path) {
  create_private_database(path);
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("cannot open database '" + path + "': " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, 5000);
}

Database::~Database() { sqlite3_close(db_); }

void Database::exec(std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw StoreError("'" + text.substr(0, 60) + "': " + message);
  }
}

Statement Database::prepare(std::string_view sql) { return Statement(db_, sql); }

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db_, sql_.data(), static_cast<int>(sql_.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    fail(db_, "preparing '" + sql_.substr(0, 60) + "'");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), sql_(std::move(other.sql_)) {
  other.stmt_ = nullptr;
}

Statement& Statement::bind(int i, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, i, value) != SQLITE_OK) fail(db_, "binding " + sql_.substr(0, 40));
  return *this;
}

Statement& Statement::bind(int i, double value) {
  if (sqlite3_bind_double(stmt_, i, value) != SQLITE_OK) fail(db_, "binding " + sql_.substr(0, 40));
  return *this;
}

Statement& Statement::bind(int i, std::string_view text) {
  if (sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) !=
      SQLITE_OK) {
    fail(db_, "binding " + sql_.substr(0, 40));
  }
  return *this;
}

Statement& Statement::bind_null(int i) {
  if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) fail(db_, "binding " + sql_.substr(0, 40));
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "running '" + sql_.substr(0, 60) + "'");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::column_int(int i) const { return sqlite3_column_int64(stmt_, i); }
double Statement::column_double(int i) const { return sqlite3_column_double(stmt_, i); }
std::string Statement::column_text(int i) const {
  const auto* text = sqlite3_column_text(stmt_, i);
  return text ? std::string(reinterpret_cast<const char*>(text),
                            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
              : std::string();
}

}  // namespace ttt::server
