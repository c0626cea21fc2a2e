// PostgresScratch: a schema of a test's own in the PostgreSQL server that
// the test run started. `./ttt test` runs ctest under pg_virtualenv (a
// throwaway cluster, removed however the run ends), which sets PGHOST,
// PGPORT, PGUSER, PGPASSWORD and PGDATABASE, and sets TTT_REQUIRE_POSTGRES=1.
// Each scratch is one schema, dropped with everything in it when the scratch
// ends, so tests running side by side never see each other's tables.
#pragma once

#include <string>

namespace ttt::testing {

// TTT_REQUIRE_POSTGRES=1: a test that needs PostgreSQL fails without it.
bool postgres_required();

class PostgresScratch {
 public:
  // Empty when the tests may use PostgreSQL; else why not (no server named
  // by PGHOST). Tests skip then, unless TTT_REQUIRE_POSTGRES=1, when they fail.
  static std::string unavailable();

  PostgresScratch();
  ~PostgresScratch();
  PostgresScratch(const PostgresScratch&) = delete;
  PostgresScratch& operator=(const PostgresScratch&) = delete;

  // The libpq connection string of the scratch schema: the PG* variables
  // name the server, `options` its search path.
  const std::string& conninfo() const noexcept { return conninfo_; }
  const std::string& schema() const noexcept { return schema_; }

  // Runs SQL as the test's administrator (outside the scratch's search path).
  static void admin(const std::string& sql);

 private:
  std::string schema_;
  std::string conninfo_;
};

}  // namespace ttt::testing

// In a test body: skips (or fails under ./ttt test) without PostgreSQL.
#define TTT_NEED_POSTGRES()                                                              \
  do {                                                                                   \
    if (const auto why = ::ttt::testing::PostgresScratch::unavailable(); !why.empty()) { \
      if (::ttt::testing::postgres_required()) FAIL() << why;                            \
      GTEST_SKIP() << why;                                                               \
    }                                                                                    \
  } while (false)
