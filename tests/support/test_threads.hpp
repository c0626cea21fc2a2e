// How many I/O threads the servers the tests start run on: 1, or what
// TTT_TEST_THREADS says (1 to 16). `./ttt test --tsan` sets it to 4, so that
// ThreadSanitizer sees every suite's servers on several threads.
#pragma once

#include <cstdlib>
#include <string>

namespace ttt::testing {

inline int test_server_threads() {
  const char* value = std::getenv("TTT_TEST_THREADS");
  if (value == nullptr || *value == '\0') return 1;
  char* end = nullptr;
  const long threads = std::strtol(value, &end, 10);
  return *end == '\0' && threads >= 1 && threads <= 16 ? static_cast<int>(threads) : 1;
}

}  // namespace ttt::testing
