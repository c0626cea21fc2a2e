#include "redis/redis_client.hpp"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>
#include <sys/time.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <charconv>
#include <cstdlib>
#include <deque>
#include <thread>

#include "redis/redis_tls_relay.hpp"

namespace ttt::server::redis {
namespace asio = boost::asio;

// --- addresses -------------------------------------------------------------------

std::string RedisAddress::text() const {
  const bool v6 = host.find(':') != std::string::npos;
  const std::string where = (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  if (!tls && user.empty()) return where;
  return std::string(tls ? "rediss://" : "redis://") + (user.empty() ? "" : user + "@") + where;
}

namespace {

// %XX decoded; nullopt for a broken escape.
std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    unsigned value = 0;
    if (i + 2 >= text.size()) return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc() || end != text.data() + i + 3) return std::nullopt;
    out.push_back(static_cast<char>(value));
    i += 2;
  }
  return out;
}

}  // namespace

std::optional<RedisAddress> parse_redis_address(const std::string& text, std::string& error) {
  std::string rest = text;
  bool url = false, tls = false;
  for (const char* scheme : {"redis://", "rediss://"}) {
    if (text.starts_with(scheme)) {
      url = true;
      tls = std::string_view(scheme) == "rediss://";
      rest = text.substr(std::string_view(scheme).size());
    }
  }
  if (!url && text.find("://") != std::string::npos) {
    error =
        "\"" + text.substr(0, text.find("://")) + "://\" is no Redis URL: redis:// or rediss://";
    return std::nullopt;
  }
  std::string user, password;
  bool has_password = false;
  if (url) {
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
      if (rest.substr(slash) != "/" && rest.substr(slash) != "/0") {
        error = "\"" + text + "\": the nodes share database 0: leave out the path";
        return std::nullopt;
      }
      rest = rest.substr(0, slash);
    }
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
      const std::string userinfo = rest.substr(0, at);
      rest = rest.substr(at + 1);
      const auto colon = userinfo.find(':');
      auto decoded_user = percent_decoded(userinfo.substr(0, colon));
      auto decoded_password = colon == std::string::npos
                                  ? std::optional<std::string>("")
                                  : percent_decoded(userinfo.substr(colon + 1));
      if (!decoded_user || !decoded_password) {
        error = "the user or password of --redis has a broken %-escape";
        return std::nullopt;
      }
      user = *decoded_user;
      password = *decoded_password;
      has_password = colon != std::string::npos;
    }
  }
  auto address = parse_host_port(rest, 6379, error);
  if (!address) return std::nullopt;
  address->user = user;
  address->password = password;
  address->tls = tls;
  if (!has_password) {
    if (const char* from_env = std::getenv("TTT_REDIS_PASSWORD")) address->password = from_env;
  }
  if (!address->user.empty() && address->password.empty()) {
    error = "Redis user " + address->user +
            " needs a password: in the URL (redis://USER:PASSWORD@HOST:PORT) or in "
            "TTT_REDIS_PASSWORD";
    return std::nullopt;
  }
  return address;
}

std::optional<RedisAddress> parse_host_port(const std::string& text, std::uint16_t default_port,
                                            std::string& error) {
  RedisAddress address;
  address.port = default_port;
  std::string port_text;
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string::npos) {
      error = "\"" + text + "\" opens [ without closing it";
      return std::nullopt;
    }
    address.host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') {
        error = "\"" + text + "\" has something other than :PORT after ]";
        return std::nullopt;
      }
      port_text = text.substr(close + 2);
    }
  } else {
    const auto colon = text.rfind(':');
    address.host = text.substr(0, colon);
    if (colon != std::string::npos) port_text = text.substr(colon + 1);
  }
  if (address.host.empty() || address.host.size() > 253) {
    error = "\"" + text + "\" names no host (HOST:PORT)";
    return std::nullopt;
  }
  if (!port_text.empty() || text.ends_with(':')) {
    unsigned port = 0;
    const auto [end, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 ||
        port > 65535) {
      error = "\"" + text + "\" has no port 1 to 65535 after the colon";
      return std::nullopt;
    }
    address.port = static_cast<std::uint16_t>(port);
  }
  return address;
}

namespace {

// The AUTH command of an address: AUTH [user] password.
std::vector<std::string> auth_of(const RedisAddress& address) {
  std::vector<std::string> args{"AUTH"};
  if (!address.user.empty()) args.push_back(address.user);
  args.push_back(address.password);
  return args;
}

// One command on a blocking context: nullopt, or what went wrong.
std::optional<std::string> ask(redisContext* c, const std::vector<std::string>& args,
                               const std::string& what) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (reply == nullptr) {
    return c->err != 0 ? std::string(c->errstr) : "no answer to " + what;
  }
  std::optional<std::string> problem;
  if (reply->type == REDIS_REPLY_ERROR) {
    problem = what + " refused: " + std::string(reply->str, reply->len);
  }
  freeReplyObject(reply);
  return problem;
}

}  // namespace

std::optional<std::string> check_redis(const RedisAddress& address,
                                       std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  // rediss://: through a relay of its own, on a thread of its own.
  std::unique_ptr<asio::io_context> io;
  std::shared_ptr<RedisTlsRelay> relay;
  std::thread relaying;
  if (address.tls) {
    io = std::make_unique<asio::io_context>();
    try {
      relay = std::make_shared<RedisTlsRelay>(io->get_executor(), address);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    relay->start();
    relaying = std::thread([&io] { io->run_for(std::chrono::seconds(30)); });
  }
  redisContext* c = relay ? redisConnectUnixWithTimeout(relay->path().c_str(), tv)
                          : redisConnectWithTimeout(address.host.c_str(), address.port, tv);
  std::optional<std::string> problem;
  if (c == nullptr) {
    problem = "out of memory";
  } else if (c->err != 0) {
    problem = c->errstr;
  } else {
    redisSetTimeout(c, tv);
    if (!address.password.empty()) problem = ask(c, auth_of(address), "the login (AUTH)");
    if (!problem) problem = ask(c, {"PING"}, "PING");
    if (problem && relay && problem->find("Server closed") != std::string::npos) {
      problem = "no TLS connection (see the warning above)";
    }
  }
  if (c != nullptr) redisFree(c);
  if (relay) {
    // Closed where it runs; its relays end with hiredis's connection, and
    // the thread with them (within the connect timeout at most).
    asio::post(*io, [relay] { relay->close(); });
    relay.reset();
    relaying.join();
  }
  return problem;
}

// --- one connection ----------------------------------------------------------------

namespace {

RedisValue copy_reply(const redisReply* r) {
  RedisValue v;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      v.type = RedisValue::Type::kInteger;
      v.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
      v.type = RedisValue::Type::kString;
      v.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      v.type = RedisValue::Type::kStatus;
      v.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      v.type = RedisValue::Type::kError;
      v.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      v.type = RedisValue::Type::kArray;
      v.elements.reserve(r->elements);
      for (std::size_t i = 0; i < r->elements; ++i) v.elements.push_back(copy_reply(r->element[i]));
      break;
    default:
      break;  // nil
  }
  return v;
}

}  // namespace

// The hiredis context of one connection and the waits on its descriptor.
// Lives until hiredis frees the context (cleanup) and no wait refers to it.
struct RedisClient::Link : std::enable_shared_from_this<Link> {
  redisAsyncContext* context = nullptr;
  std::unique_ptr<asio::posix::stream_descriptor> descriptor;
  std::weak_ptr<RedisClient> owner;
  bool want_read = false;
  bool want_write = false;
  bool reading = false;
  bool writing = false;
  bool linked = false;                                     // the first reply came
  std::size_t subscriptions = 0;                           // channels confirmed
  std::deque<std::chrono::steady_clock::time_point> sent;  // commands waiting, oldest first
  std::string why;                                         // why it ended, if known

  void arm_read() {
    if (reading || !context) return;
    reading = true;
    descriptor->async_wait(asio::posix::stream_descriptor::wait_read,
                           [self = shared_from_this()](boost::system::error_code ec) {
                             self->reading = false;
                             if (ec || !self->context || !self->want_read) return;
                             redisAsyncHandleRead(self->context);
                             if (self->context && self->want_read) self->arm_read();
                           });
  }
  void arm_write() {
    if (writing || !context) return;
    writing = true;
    descriptor->async_wait(asio::posix::stream_descriptor::wait_write,
                           [self = shared_from_this()](boost::system::error_code ec) {
                             self->writing = false;
                             if (ec || !self->context || !self->want_write) return;
                             redisAsyncHandleWrite(self->context);
                             if (self->context && self->want_write) self->arm_write();
                           });
  }

  // hiredis's event hooks.
  static void add_read(void* data) {
    auto* link = static_cast<Link*>(data);
    link->want_read = true;
    link->arm_read();
  }
  static void del_read(void* data) { static_cast<Link*>(data)->want_read = false; }
  static void add_write(void* data) {
    auto* link = static_cast<Link*>(data);
    link->want_write = true;
    link->arm_write();
  }
  static void del_write(void* data) { static_cast<Link*>(data)->want_write = false; }
  // The context is being freed (hiredis closes the descriptor next).
  static void cleanup(void* data) {
    auto* link = static_cast<Link*>(data);
    if (link->context && link->context->errstr && link->why.empty()) {
      link->why = link->context->errstr;
    }
    link->context = nullptr;
    link->want_read = link->want_write = false;
    if (link->descriptor) link->descriptor->release();  // cancels the waits; hiredis closes it
    if (auto owner = link->owner.lock()) {
      asio::post(owner->executor_, [owner, self = link->shared_from_this()] {
        owner->lost(self, self->why.empty() ? "connection closed" : self->why);
      });
    }
  }
};

// A command in flight: whom to answer.
struct RedisClient::Pending {
  std::weak_ptr<RedisClient> owner;
  std::shared_ptr<Link> link;
  Done done;
};

RedisClient::RedisClient(asio::any_io_executor executor, RedisAddress address, Options options)
    : executor_(std::move(executor)),
      address_(std::move(address)),
      options_(std::move(options)),
      retry_timer_(executor_),
      watchdog_(executor_),
      backoff_(options_.retry_min) {}

RedisClient::~RedisClient() {
  closed_ = true;
  if (link_ && link_->context) {
    link_->owner.reset();  // nothing posted back to a client being destroyed
    redisAsyncFree(link_->context);
  }
}

void RedisClient::subscribe(std::vector<std::string> channels, OnMessage on_message) {
  channels_ = std::move(channels);
  on_message_ = std::move(on_message);
}

void RedisClient::start() {
  connect();
  arm_watchdog();
}

void RedisClient::close() {
  if (closed_) return;
  closed_ = true;
  retry_timer_.cancel();
  watchdog_.cancel();
  if (link_ && link_->context) redisAsyncFree(link_->context);
  up_ = false;
}

void RedisClient::connect() {
  if (closed_) return;
  auto link = std::make_shared<Link>();
  link->owner = weak_from_this();
  redisAsyncContext* context = options_.unix_path.empty()
                                   ? redisAsyncConnect(address_.host.c_str(), address_.port)
                                   : redisAsyncConnectUnix(options_.unix_path.c_str());
  if (context == nullptr || context->err != 0) {
    last_error_ = context ? std::string(context->errstr) : std::string("out of memory");
    if (context) redisAsyncFree(context);
    schedule_retry();
    return;
  }
  link->context = context;
  link->descriptor = std::make_unique<asio::posix::stream_descriptor>(executor_, context->c.fd);
  context->ev.data = link.get();
  context->ev.addRead = &Link::add_read;
  context->ev.delRead = &Link::del_read;
  context->ev.addWrite = &Link::add_write;
  context->ev.delWrite = &Link::del_write;
  context->ev.cleanup = &Link::cleanup;
  link_ = link;
  if (!address_.password.empty()) {
    // Logged in before anything else (pipelined: what follows waits for it).
    command(auth_of(address_), [this, link](const RedisResult& result) {
      if (!result.ok() || result.value->type != RedisValue::Type::kError) return;
      const std::string why = "Redis refused the login (" + result.value->text + ")";
      if (why != last_error_) spdlog::error("redis {}: {}", address_.text(), why);
      link->why = why;
      if (link->context) redisAsyncFree(link->context);
    });
  }
  // The first reply says the link works (hiredis connects on the first write).
  auto probe = [this, link](const RedisResult& result) { linked(link, result.ok(), result.why()); };
  if (!channels_.empty()) {
    std::vector<const char*> argv{"SUBSCRIBE"};
    std::vector<std::size_t> lengths{9};
    for (const auto& c : channels_) {
      argv.push_back(c.data());
      lengths.push_back(c.size());
    }
    link->sent.push_back(std::chrono::steady_clock::now());
    redisAsyncCommandArgv(context, &RedisClient::on_subscribed_message, link.get(),
                          static_cast<int>(argv.size()), argv.data(), lengths.data());
    return;
  }
  if (!options_.name.empty()) {
    command({"CLIENT", "SETNAME", options_.name}, [](const RedisResult&) {});
  }
  command({"PING"}, std::move(probe));
}

void RedisClient::linked(const std::shared_ptr<Link>& link, bool ok, const std::string& error) {
  if (link != link_ || link->linked) return;
  if (!ok) {
    last_error_ = error;
    if (link->context) redisAsyncFree(link->context);
    return;
  }
  link->linked = true;
  backoff_ = options_.retry_min;
  up_ = true;
  spdlog::info("redis {}: connected{}", address_.text(), channels_.empty() ? "" : " (subscribed)");
  if (on_state_) on_state_(true);
}

void RedisClient::lost(const std::shared_ptr<Link>& link, const std::string& why) {
  if (link != link_) return;
  link_.reset();
  const bool was_up = up_.exchange(false);
  last_error_ = why;
  if (closed_) return;
  if (was_up) {
    spdlog::warn("redis {}: connection lost ({}); trying again", address_.text(), why);
    if (on_state_) on_state_(false);
  }
  schedule_retry();
}

void RedisClient::schedule_retry() {
  if (closed_) return;
  retry_timer_.expires_after(backoff_);
  backoff_ = std::min(backoff_ * 2, options_.retry_max);
  retry_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->connect();
  });
}

void RedisClient::arm_watchdog() {
  if (closed_) return;
  watchdog_.expires_after(options_.command_timeout / 3);
  watchdog_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    if (ec) return;
    auto self = weak.lock();
    if (!self) return;
    auto& link = self->link_;
    const auto now = std::chrono::steady_clock::now();
    const auto limit =
        link && link->linked ? self->options_.command_timeout : self->options_.connect_timeout;
    if (link && link->context && !link->sent.empty() && now - link->sent.front() > limit) {
      link->why = link->linked
                      ? "no answer for " + std::to_string(limit.count()) + " ms"
                      : "could not connect within " + std::to_string(limit.count()) + " ms";
      redisAsyncFree(link->context);
    }
    self->arm_watchdog();
  });
}

void RedisClient::fail_later(Done done, std::string error) {
  RedisResult result;
  result.error = std::move(error);
  asio::post(executor_, [done = std::move(done), result = std::move(result)] { done(result); });
}

void RedisClient::command(std::vector<std::string> args, Done done) {
  if (closed_) {
    fail_later(std::move(done), "the Redis client is closed");
    return;
  }
  if (!link_ || !link_->context) {
    fail_later(std::move(done), "Redis at " + address_.text() + " is unreachable" +
                                    (last_error_.empty() ? "" : " (" + last_error_ + ")"));
    return;
  }
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  argv.reserve(args.size());
  lengths.reserve(args.size());
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto* pending = new Pending{weak_from_this(), link_, std::move(done)};
  link_->sent.push_back(std::chrono::steady_clock::now());
  if (redisAsyncCommandArgv(link_->context, &RedisClient::on_reply, pending,
                            static_cast<int>(argv.size()), argv.data(),
                            lengths.data()) != REDIS_OK) {
    link_->sent.pop_back();
    Done failed = std::move(pending->done);
    delete pending;
    fail_later(std::move(failed), "Redis at " + address_.text() + " refused the command");
  }
}

void RedisClient::on_reply(redisAsyncContext*, void* reply, void* privdata) {
  std::unique_ptr<Pending> pending(static_cast<Pending*>(privdata));
  RedisResult result;
  if (reply != nullptr) {
    result.value = copy_reply(static_cast<const redisReply*>(reply));
  } else {
    result.error = "the connection to Redis was lost before it answered";
  }
  if (!pending->link->sent.empty()) pending->link->sent.pop_front();
  auto owner = pending->owner.lock();
  if (!owner) return;
  if (reply != nullptr) ++owner->answered_;
  asio::post(owner->executor_,
             [done = std::move(pending->done), result = std::move(result)] { done(result); });
}

void RedisClient::on_subscribed_message(redisAsyncContext*, void* reply, void* privdata) {
  auto* link = static_cast<Link*>(privdata);
  if (reply == nullptr) return;  // the connection is going away: cleanup follows
  auto owner = link->owner.lock();
  if (!owner) return;
  const RedisValue v = copy_reply(static_cast<const redisReply*>(reply));
  if (v.type != RedisValue::Type::kArray || v.elements.size() < 3) return;
  const std::string& kind = v.elements[0].text;
  if (kind == "subscribe") {
    if (!link->sent.empty()) link->sent.pop_front();
    if (++link->subscriptions == owner->channels_.size()) {
      asio::post(owner->executor_,
                 [owner, self = link->shared_from_this()] { owner->linked(self, true, ""); });
    }
    return;
  }
  if (kind == "message" && owner->on_message_) {
    asio::post(owner->executor_,
               [owner, channel = v.elements[1].text, payload = v.elements[2].text] {
                 if (owner->on_message_ && !owner->closed_) owner->on_message_(channel, payload);
               });
  }
}

}  // namespace ttt::server::redis
