#include "support/postgres_scratch.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "store/postgres.hpp"

namespace ttt::testing {

bool postgres_required() {
  const char* required = std::getenv("TTT_REQUIRE_POSTGRES");
  return required != nullptr && std::string(required) == "1";
}

std::string PostgresScratch::unavailable() {
  const char* host = std::getenv("PGHOST");
  if (host == nullptr || *host == '\0') {
    return "no PostgreSQL server for the tests: PGHOST is not set (./ttt test starts one with "
           "pg_virtualenv)";
  }
  try {
    server::PgConnection probe("");
  } catch (const server::StoreError& e) {
    return std::string("the tests' PostgreSQL server does not answer: ") + e.what();
  }
  return "";
}

void PostgresScratch::admin(const std::string& sql) {
  server::PgConnection connection("");
  connection.exec(sql);
}

PostgresScratch::PostgresScratch() {
  static std::atomic<int> made{0};
  schema_ = "ttt_test_" + std::to_string(::getpid()) + "_" + std::to_string(++made);
  admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
  conninfo_ = "options='-csearch_path=" + schema_ + "'";
}

PostgresScratch::~PostgresScratch() {
  try {
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  } catch (const server::StoreError&) {
    // The cluster goes with the run anyway.
  }
}

}  // namespace ttt::testing
