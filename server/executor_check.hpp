// The concurrency table of docs/architecture.md, checked: the entry points of
// the lobby and the rooms say which executor they run on, and in debug and
// sanitizer builds (TTT_CHECK_EXECUTOR) a call from anywhere else ends the
// process with the name of the entry point, at once, rather than as a race
// found later.
#pragma once

#include <boost/asio/any_io_executor.hpp>

namespace ttt::server {

// Whether the calling thread runs `executor` now: an io_context's executor,
// or a strand of one (the two kinds the server makes). An executor of
// another kind can't tell: true.
bool runs_on(const boost::asio::any_io_executor& executor);

// With TTT_CHECK_EXECUTOR: aborts, naming `where`, unless runs_on(executor).
// Without: nothing (the release build pays one call).
void check_executor(const boost::asio::any_io_executor& executor, const char* where);
// Whether this build checks (TTT_CHECK_EXECUTOR).
bool checking_executors() noexcept;

// For a test or harness that drives a lobby or a room from its own thread,
// as the one thread that would run their executor: while an ExecutorStandIn
// lives, runs_on() is true on the thread that made it.
class ExecutorStandIn {
 public:
  ExecutorStandIn();
  ~ExecutorStandIn();
  ExecutorStandIn(const ExecutorStandIn&) = delete;
  ExecutorStandIn& operator=(const ExecutorStandIn&) = delete;
};

}  // namespace ttt::server
