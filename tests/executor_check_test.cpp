// The executor check alone: a plain io_context's executor and a strand of
// one know whether the calling thread runs them; a stand-in thread counts
// as running them; and a build that checks ends the process, naming the
// entry point, when one is called anywhere else.
#include "executor_check.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

namespace ttt::server {
namespace {

TEST(ExecutorCheck, APlainExecutorIsRunOnlyInsideItsHandlers) {
  boost::asio::io_context io;
  const boost::asio::any_io_executor executor = io.get_executor();
  EXPECT_FALSE(runs_on(executor));
  bool inside = false;
  boost::asio::post(io, [&] { inside = runs_on(executor); });
  io.run();
  EXPECT_TRUE(inside);
}

TEST(ExecutorCheck, AStrandIsRunOnlyInsideItsOwnHandlers) {
  boost::asio::io_context io;
  const boost::asio::any_io_executor strand = boost::asio::make_strand(io);
  const boost::asio::any_io_executor other = boost::asio::make_strand(io);
  bool inside = false;
  bool other_inside = true;
  boost::asio::post(strand, [&] {
    inside = runs_on(strand);
    other_inside = runs_on(other);
  });
  io.run();
  EXPECT_TRUE(inside);
  EXPECT_FALSE(other_inside) << "another strand of the same io_context is not this one";
  EXPECT_FALSE(runs_on(strand));
}

TEST(ExecutorCheck, AStandInThreadRunsEveryExecutorWhileItLives) {
  boost::asio::io_context io;
  const boost::asio::any_io_executor strand = boost::asio::make_strand(io);
  {
    const ExecutorStandIn stand_in;
    EXPECT_TRUE(runs_on(strand));
    check_executor(strand, "ExecutorCheck.StandIn");  // no abort
  }
  EXPECT_FALSE(runs_on(strand));
}

TEST(ExecutorCheckDeathTest, ACheckingBuildEndsTheProcessNamingTheEntryPoint) {
  if (!checking_executors()) GTEST_SKIP() << "this build does not check executors";
  boost::asio::io_context io;
  const boost::asio::any_io_executor executor = io.get_executor();
  // The line goes to the log; here the log is stderr, which the test reads.
  EXPECT_DEATH(
      {
        spdlog::set_default_logger(spdlog::stderr_logger_mt("executor_check"));
        check_executor(executor, "Lobby::open");
      },
      "Lobby::open was called off its executor");
}

}  // namespace
}  // namespace ttt::server
