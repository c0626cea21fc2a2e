#include "client_support/redis_scratch.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "support/eventually.hpp"

namespace ttt::testing {
namespace {

constexpr const char* kServer = "/usr/bin/redis-server";
constexpr const char* kCli = "/usr/bin/redis-cli";

std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("no free loopback port for redis-server");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace

bool redis_required() {
  const char* v = std::getenv("TTT_REQUIRE_REDIS");
  return v != nullptr && std::string(v) == "1";
}

std::string RedisScratch::unavailable() {
  if (::access(kServer, X_OK) != 0 || ::access(kCli, X_OK) != 0) {
    return "redis-server and redis-cli are not installed (Debian packages redis-server, "
           "redis-tools; ./ttt test installs them)";
  }
  return "";
}

RedisScratch::RedisScratch(Options options) : port_(free_port()), options_(std::move(options)) {
  start();
}

RedisScratch::~RedisScratch() { stop(); }

void RedisScratch::start() {
  stop();
  std::vector<std::string> argv{kServer,        "--bind", "127.0.0.1",   "--save", "",
                                "--appendonly", "no",     "--daemonize", "no",     "--loglevel",
                                "warning",      "--dir",  "/tmp"};
  if (options_.tls) {
    argv.insert(argv.end(), {"--port", "0", "--tls-port", std::to_string(port_)});
  } else {
    argv.insert(argv.end(), {"--port", std::to_string(port_)});
  }
  argv.insert(argv.end(), options_.server_args.begin(), options_.server_args.end());
  process_ = std::make_unique<ChildProcess>(argv);
  if (eventually([&] { return cli("PING") == "PONG"; }, std::chrono::seconds(15),
                 std::chrono::milliseconds(20))) {
    return;
  }
  throw std::runtime_error("redis-server on port " + std::to_string(port_) +
                           " did not answer PING: " + process_->output());
}

void RedisScratch::stop() {
  if (!process_) return;
  process_->kill(SIGKILL);
  process_.reset();
}

void RedisScratch::pause() {
  if (process_) ::kill(process_->pid(), SIGSTOP);
}

void RedisScratch::resume() {
  if (process_) ::kill(process_->pid(), SIGCONT);
}

std::string RedisScratch::cli(const std::string& command) const {
  std::string line = std::string(kCli) + " -h 127.0.0.1 -p " + std::to_string(port_);
  for (const auto& arg : options_.cli_args) line += " '" + arg + "'";
  line += " --no-auth-warning " + command + " 2>&1";
  std::FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' ')) {
    out.pop_back();
  }
  return out;
}

}  // namespace ttt::testing
