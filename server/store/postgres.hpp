// A thin RAII layer over libpq: one connection, statements prepared once and
// run with text parameters, results read by row and column. Every failure is
// a StoreError naming the statement and PostgreSQL's message. Only store/'s
// own sources include libpq-fe.h.
#pragma once

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
  // Connects (libpq's connection string or URI). Throws StoreError with the
  // server's or libpq's reason when it can't.
  explicit PgConnection(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one or more statements without parameters.
  PgResult exec(std::string_view sql);
  // Runs sql with params, prepared on first use and kept for this
  // connection; sql must be a string literal (its address is the key).
  PgResult run(const char* sql, const std::vector<PgParam>& params = {});

  // False once the connection is lost.
  bool connected() const noexcept;
  // Connects again with the same parameters (the prepared statements are
  // gone with the old session). Throws StoreError when it can't.
  void reconnect();

  // "host:port/database as user": never the password.
  std::string where() const;

 private:
  PgResult checked(pg_result* result, std::string_view sql);

  pg_conn* conn_ = nullptr;
  std::unordered_map<const char*, std::string> prepared_;  // literal -> statement name
};

}  // namespace ttt::server
