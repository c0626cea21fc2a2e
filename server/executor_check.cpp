#include "executor_check.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <cstdlib>

namespace ttt::server {
namespace {

thread_local int stand_ins = 0;

}  // namespace

bool runs_on(const boost::asio::any_io_executor& executor) {
  if (stand_ins > 0) return true;
  using Plain = boost::asio::io_context::executor_type;
  using Strand = boost::asio::strand<Plain>;
  if (const auto* plain = executor.target<Plain>()) return plain->running_in_this_thread();
  if (const auto* strand = executor.target<Strand>()) return strand->running_in_this_thread();
  return true;
}

void check_executor(const boost::asio::any_io_executor& executor, const char* where) {
#ifdef TTT_CHECK_EXECUTOR
  if (runs_on(executor)) return;
  spdlog::critical("{} was called off its executor (docs/architecture.md: One concurrency story)",
                   where);
  std::abort();
#else
  (void)executor;
  (void)where;
#endif
}

bool checking_executors() noexcept {
#ifdef TTT_CHECK_EXECUTOR
  return true;
#else
  return false;
#endif
}

ExecutorStandIn::ExecutorStandIn() { ++stand_ins; }

ExecutorStandIn::~ExecutorStandIn() { --stand_ins; }

}  // namespace ttt::server
