// A thin RAII layer over the SQLite C API: a connection and prepared
// statements, with every failure turned into a StoreError naming the
// statement and SQLite's message.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "store/store_error.hpp"

// SQLite's handles, declared as sqlite3.h declares them: only store/'s own
// sources include sqlite3.h, not everything that includes the Store.
struct sqlite3;
struct sqlite3_stmt;

namespace ttt::server {

class Statement;

class Database {
 public:
  // Opens (creating if missing) the database at path; ":memory:" is allowed.
  // Throws StoreError if the file can't be opened.
  explicit Database(const std::string& path);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements without results.
  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  sqlite3* handle() const noexcept { return db_; }
  const std::string& path() const noexcept { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;

  // Binds parameter i (from 1). Returns *this for chaining.
  Statement& bind(int i, std::int64_t value);
  Statement& bind(int i, double value);
  Statement& bind(int i, std::string_view text);
  Statement& bind_null(int i);

  // Steps once: true while a row is available.
  bool step();
  // Steps to completion (for statements without results).
  void run();
  // Resets for another execution with new bindings.
  void reset();

  std::int64_t column_int(int i) const;
  double column_double(int i) const;
  std::string column_text(int i) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

}  // namespace ttt::server
