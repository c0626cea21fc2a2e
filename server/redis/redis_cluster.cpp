#include "redis/redis_cluster.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>

#include "lobby/secrets.hpp"
#include "node.pb.h"
#include "redis/cluster_scripts.hpp"
#include "redis/redis_tls_relay.hpp"
#include "redis/shared_directory.hpp"

namespace ttt::server::redis {
namespace asio = boost::asio;
namespace {

constexpr std::size_t kMaxNodeMessage = 64 * 1024;

std::vector<std::string> split_tabs(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto tab = text.find('\t', start);
    parts.push_back(text.substr(start, tab - start));
    if (tab == std::string::npos) return parts;
    start = tab + 1;
  }
}

template <typename T>
bool parse_number(const std::string& text, T& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string ms(std::chrono::milliseconds d) { return std::to_string(d.count()); }

node::SeatRequest to_message(const SeatRequest& r) {
  node::SeatRequest m;
  m.set_kind(static_cast<node::SeatRequest::Kind>(r.kind));
  m.set_game(number(r.game));
  m.set_waiting(number(r.waiting));
  m.set_account(number(r.account));
  m.set_name(r.name);
  m.set_program(r.program);
  m.set_rated(r.rated);
  m.set_invite_code(r.invite_code);
  m.set_size(r.size);
  m.set_win_length(r.win_length);
  *m.mutable_clock() = r.clock;
  if (r.kind == SeatRequest::Kind::kChallenge) *m.mutable_challenge() = r.challenge;
  m.set_address(r.address);
  return m;
}

SeatRequest from_message(const node::SeatRequest& m) {
  SeatRequest r;
  switch (m.kind()) {
    case node::SeatRequest::KIND_WATCH:
      r.kind = SeatRequest::Kind::kWatch;
      break;
    case node::SeatRequest::KIND_PAIR:
      r.kind = SeatRequest::Kind::kPair;
      break;
    case node::SeatRequest::KIND_CHALLENGE:
      r.kind = SeatRequest::Kind::kChallenge;
      r.challenge = m.challenge();
      break;
    default:
      r.kind = SeatRequest::Kind::kJoin;
      break;
  }
  r.game = GameId{m.game()};
  r.waiting = static_cast<SeatId>(m.waiting());
  r.account = static_cast<AccountId>(m.account());
  r.name = m.name();
  r.program = m.program();
  r.rated = m.rated();
  r.invite_code = m.invite_code();
  r.size = m.size();
  r.win_length = m.win_length();
  r.clock = m.clock();
  r.address = m.address().substr(0, 64);
  return r;
}

}  // namespace

RedisCluster::RedisCluster(asio::any_io_executor executor, RedisAddress redis, NodeInfo self,
                           Timings timings, NodeSigner signer)
    : executor_(executor),
      self_(std::move(self)),
      timings_(timings),
      signer_(std::move(signer)),
      epoch_(random_hex(16)),
      last_beat_(std::chrono::steady_clock::now()),
      figures_(executor, *this),
      heartbeat_(executor) {
  if (self_.id.empty()) self_.id = random_hex(6);
  RedisClient::Options options;
  options.name = "ttt-node-" + self_.id;
  if (redis.tls) {
    relay_ = std::make_shared<RedisTlsRelay>(executor, redis);
    relay_->start();
    options.unix_path = relay_->path();
  }
  commands_ = std::make_shared<RedisClient>(executor, redis, options);
  options.name.clear();
  events_ = std::make_shared<RedisClient>(executor, std::move(redis), options);
}

RedisCluster::~RedisCluster() { close(); }

void RedisCluster::start() {
  events_->subscribe(
      {kDirectoryChannel, SharedPresence::kChannel, SharedFigures::kChannel, "ttt:rpc:" + self_.id},
      [this](const std::string& channel, const std::string& payload) {
        on_message(channel, payload);
      });
  events_->on_state([this](bool up) {
    if (!up) {
      events_lost_ = true;
      return;
    }
    if (directory_) directory_->resync();
    presence_.resync();
    if (events_lost_) {
      // What was published meanwhile was not heard: the lobby reads again
      // what it can't have heard (accounts' figures) and registers again.
      events_lost_ = false;
      if (on_restored_) on_restored_(false);
    }
  });
  commands_->on_state([this](bool up) { on_link(up); });
  commands_->start();
  events_->start();
  beat();
}

void RedisCluster::close() {
  heartbeat_.cancel();
  figures_.flush();  // what waits is told while the connection is still open
  figures_.stop();
  for (auto& [id, waiting] : waiting_) waiting.timeout->cancel();
  waiting_.clear();
  if (commands_) commands_->close();
  if (events_) events_->close();
  if (relay_) relay_->close();
}

std::string RedisCluster::heartbeat_value() const {
  const std::string fields = self_.host + "\t" + std::to_string(self_.port) + "\t" +
                             self_.fingerprint + "\t" + (self_.draining ? "1" : "0") + "\t" +
                             std::to_string(load_);
  return fields + "\t" + signer_.text_tag("ttt:node:" + self_.id, fields);
}

std::optional<RedisCluster::Known> RedisCluster::read_heartbeat(const std::string& id,
                                                                const std::string& value,
                                                                std::int64_t now) {
  const auto parts = split_tabs(value);
  std::int64_t beat = 0;
  if (parts.size() != 7 || !parse_number(parts[6], beat)) return std::nullopt;
  // A heartbeat older than the dead limit (in Redis's clock: no skew
  // between nodes) is a dead node, well before its key expires.
  if (now - beat > timings_.dead_after.count()) return std::nullopt;
  const std::string fields =
      parts[0] + "\t" + parts[1] + "\t" + parts[2] + "\t" + parts[3] + "\t" + parts[4];
  if (!signer_.text_tag_ok("ttt:node:" + id, fields, parts[5])) {
    unsigned_heartbeat_warning_(
        fmt::format("cluster: the heartbeat of \"{}\" is not signed with this lobby's key "
                    "(--cluster-key-file): not a node of ours, ignored",
                    id.substr(0, 64)));
    return std::nullopt;
  }
  Known known;
  known.info.id = id;
  known.info.host = parts[0];
  if (!parse_number(parts[1], known.info.port)) return std::nullopt;
  known.info.fingerprint = parts[2];
  known.info.draining = parts[3] == "1";
  parse_number(parts[4], known.players);
  return known;
}

void RedisCluster::on_link(bool up) {
  if (!up) {
    was_down_ = true;
    spdlog::warn(
        "cluster: Redis is unreachable: listing other nodes' games, pairing across "
        "nodes and redirects wait for it; games here go on");
    return;
  }
  beat();  // its answer registers everything again (was_down_)
}

void RedisCluster::restore(bool forgotten) {
  was_down_ = false;
  if (forgotten) {
    spdlog::warn(
        "cluster: Redis has forgotten this node (restarted empty or flushed); "
        "registering its players, tokens and games again");
  } else {
    spdlog::info("cluster: Redis is back; registering this node's players and games again");
  }
  if (on_restored_) on_restored_(forgotten);
  if (directory_) directory_->resync();
  presence_.resync();
  figures_.flush();  // what was committed here while Redis was away
}

void RedisCluster::beat() {
  if (left_) return;
  const auto sent = std::chrono::steady_clock::now();
  commands_->command({"EVAL", scripts::kBeat, "0", self_.id, heartbeat_value(),
                      ms(timings_.key_life()), self_.draining ? "1" : "0", epoch_},
                     [this, sent](const RedisResult& result) {
                       if (!result.ok() || result.value->type != RedisValue::Type::kArray) return;
                       std::map<std::string, Known> live;
                       const auto& e = result.value->elements;
                       std::int64_t now = 0;
                       if (e.size() < 2 || !parse_number(e[0].text, now)) return;
                       last_beat_ = std::max(last_beat_, sent);
                       // Redis did not know this node's epoch: it lost its keys (a first
                       // heartbeat is no loss).
                       const bool forgotten = e[1].text != "1" && registered_;
                       registered_ = true;
                       if (was_down_ || forgotten) restore(forgotten);
                       for (std::size_t i = 2; i + 1 < e.size(); i += 2) {
                         if (auto known = read_heartbeat(e[i].text, e[i + 1].text, now)) {
                           live.emplace(known->info.id, std::move(*known));
                         }
                       }
                       for (const auto& [id, known] : live) {
                         if (!live_.contains(id) && id != self_.id) {
                           spdlog::info("cluster: node {} at {}:{} is alive", id, known.info.host,
                                        known.info.port);
                         }
                       }
                       for (const auto& [id, known] : live_) {
                         if (!live.contains(id) && id != self_.id) {
                           spdlog::warn(
                               "cluster: node {} at {}:{} is gone (no heartbeat for {} ms)", id,
                               known.info.host, known.info.port, timings_.dead_after.count());
                         }
                       }
                       live_ = std::move(live);
                       if (!registry_ready_) {
                         registry_ready_ = true;
                         if (directory_)
                           directory_->resync();  // now whose games are whose can be told
                         presence_.resync();
                       }
                     });
  heartbeat_.expires_after(timings_.heartbeat_every);
  heartbeat_.async_wait([this](boost::system::error_code ec) {
    if (!ec) beat();
  });
}

void RedisCluster::drop_fields(const char* hash, const std::vector<std::string>& fields) {
  if (fields.empty()) return;
  std::vector<std::string> args{"HDEL", hash};
  args.insert(args.end(), fields.begin(), fields.end());
  commands_->command(std::move(args), [](const RedisResult&) {});
}

bool RedisCluster::alive(const std::string& node) const {
  if (node == self_.id) return !left_;
  return live_.contains(node);
}

std::optional<NodeInfo> RedisCluster::node(const std::string& id) const {
  if (id == self_.id) return self_;
  const auto it = live_.find(id);
  if (it == live_.end()) return std::nullopt;
  return it->second.info;
}

std::vector<std::string> RedisCluster::live_nodes() const {
  std::vector<std::string> ids{self_.id};
  for (const auto& [id, known] : live_) {
    if (id != self_.id) ids.push_back(id);
  }
  return ids;
}

std::optional<NodeInfo> RedisCluster::another_node() const {
  const Known* best = nullptr;
  for (const auto& [id, known] : live_) {
    if (id == self_.id || known.info.draining) continue;
    if (best == nullptr || known.players < best->players) best = &known;
  }
  if (best == nullptr) return std::nullopt;
  return best->info;
}

void RedisCluster::hold(AccountId account, const std::string& token_hash,
                        std::chrono::milliseconds token_lifetime, const std::string& to,
                        HoldDone done) {
  commands_->command(
      {"EVAL", scripts::kHold, "0", std::to_string(number(account)), token_hash,
       to.empty() ? self_.id : to, ms(token_lifetime), self_.id, ms(timings_.dead_after)},
      [account, done = std::move(done)](const RedisResult& result) {
        if (!result.ok() || result.value->type == RedisValue::Type::kError) {
          spdlog::debug("cluster: holding player {} not shared: {}", number(account),
                        result.ok() ? result.value->text : result.why());
          return;
        }
        const std::string elsewhere =
            result.value->type == RedisValue::Type::kString ? result.value->text : "";
        if (!elsewhere.empty()) {
          spdlog::warn(
              "cluster: player {} is held by node {}, which is alive: "
              "not taken from it",
              number(account), elsewhere.substr(0, 64));
        }
        if (done) done(elsewhere);
      });
}

void RedisCluster::release(AccountId account, const std::string& token_hash) {
  commands_->command(
      {"EVAL", scripts::kRelease, "0", std::to_string(number(account)), token_hash, self_.id},
      [](const RedisResult&) {});
}

void RedisCluster::find_token(const std::string& token_hash, TokenDone done) {
  commands_->command({"GET", "ttt:token:" + token_hash},
                     [done = std::move(done)](const RedisResult& result) {
                       if (!result.ok()) {
                         done(std::nullopt, false);
                         return;
                       }
                       if (result.value->is_nil()) {
                         done(std::nullopt, true);
                         return;
                       }
                       const auto parts = split_tabs(result.value->text);
                       std::uint64_t account = 0;
                       if (parts.size() != 2 || !parse_number(parts[0], account)) {
                         done(std::nullopt, true);
                         return;
                       }
                       done(TokenHolder{static_cast<AccountId>(account), parts[1]}, true);
                     });
}

void RedisCluster::find_player(AccountId account, PlayerDone done) {
  commands_->command({"GET", "ttt:player:" + std::to_string(number(account))},
                     [done = std::move(done)](const RedisResult& result) {
                       if (!result.ok()) {
                         done("", false);
                         return;
                       }
                       done(result.value->is_nil() ? "" : result.value->text, true);
                     });
}

void RedisCluster::request_seat(const std::string& to, const SeatRequest& request, SeatDone done) {
  const std::uint64_t id = next_request_++;
  node::NodeMessage message;
  message.set_id(id);
  message.set_from(self_.id);
  *message.mutable_seat_request() = to_message(request);
  auto timeout = std::make_unique<asio::steady_timer>(executor_, kRequestTimeout);
  timeout->async_wait([this, id](boost::system::error_code ec) {
    if (ec) return;
    auto it = waiting_.find(id);
    if (it == waiting_.end()) return;
    SeatDone late = std::move(it->second.done);
    waiting_.erase(it);
    late(SeatReply{{},
                   GameId{},
                   wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                   "the other node did not answer in time: try again"});
  });
  waiting_.emplace(id, Waiting{std::move(done), std::move(timeout)});
  const std::string channel = "ttt:rpc:" + to;
  commands_->command({"PUBLISH", channel, signer_.sign(channel, message.SerializeAsString())},
                     [this, id, to](const RedisResult& result) {
                       if (result.ok() && result.value->integer > 0) return;
                       auto it = waiting_.find(id);
                       if (it == waiting_.end()) return;
                       SeatDone failed = std::move(it->second.done);
                       it->second.timeout->cancel();
                       waiting_.erase(it);
                       failed(SeatReply{{},
                                        GameId{},
                                        wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                                        result.ok() ? "the other node is gone: try again"
                                                    : "the nodes can't reach each other now "
                                                      "(Redis): try again"});
                     });
}

void RedisCluster::take_allowance(const std::string& kind, const std::string& address,
                                  std::size_t most, std::chrono::milliseconds window,
                                  AllowanceDone done) {
  if (!available()) {
    done(true, {});
    return;
  }
  commands_->command(
      {"EVAL", scripts::kAllowance, "0", kind, address, std::to_string(most), ms(window)},
      [done = std::move(done)](const RedisResult& result) {
        const RedisValue* v = result.ok() ? &*result.value : nullptr;
        if (v == nullptr || v->type != RedisValue::Type::kArray || v->elements.size() != 2) {
          done(true, {});  // not answered: the node's own limit still holds
          return;
        }
        done(v->elements[0].integer == 1,
             std::chrono::milliseconds(std::max<long long>(v->elements[1].integer, 0)));
      });
}

bool RedisCluster::said_here(const std::string& channel, const std::string& signed_payload) const {
  const std::size_t tag = signer_.enabled() ? NodeSigner::kTagBytes : 0;
  if (signed_payload.size() < tag) return false;
  const std::string_view payload = std::string_view(signed_payload).substr(tag);
  if (channel == SharedPresence::kChannel) {
    // "account\tnode\t..."
    const auto first = payload.find('\t');
    if (first == std::string_view::npos) return false;
    const auto second = payload.find('\t', first + 1);
    return second != std::string_view::npos &&
           payload.substr(first + 1, second - first - 1) == self_.id;
  }
  if (channel == kDirectoryChannel) {
    node::DirectoryChange change;
    return change.ParseFromArray(payload.data(), static_cast<int>(payload.size())) &&
           change.node() == self_.id;
  }
  if (channel == SharedFigures::kChannel) return figures_.said_here(payload);
  return false;
}

void RedisCluster::on_message(const std::string& channel, const std::string& signed_payload) {
  if (signed_payload.size() > kMaxNodeMessage) {
    oversized_warning_(fmt::format("cluster: a {}-byte message on {} is too large; dropped",
                                   signed_payload.size(), channel.substr(0, 64)));
    return;
  }
  // What this node said itself on a channel every node hears comes back to
  // it: dropped unchecked (checked or not, it would be dropped; a forged
  // one claiming to be this node's loses nothing).
  if (said_here(channel, signed_payload)) return;
  const auto opened = signer_.open(channel, signed_payload);
  if (!opened) {
    // Not from a node of this lobby (no key, or another key): ignored.
    forged_warning_(fmt::format(
        "cluster: a message on {} not signed with this lobby's key (--cluster-key-file); ignored",
        channel.substr(0, 64)));
    return;
  }
  const std::string& payload = *opened;
  if (channel == kDirectoryChannel) {
    node::DirectoryChange change;
    if (!change.ParseFromString(payload)) {
      unreadable_warning_("cluster: an unreadable directory change; dropped");
      return;
    }
    if (directory_ && change.node() != self_.id) directory_->apply(change);
    return;
  }
  if (channel == SharedPresence::kChannel) {
    presence_.apply(payload);
    return;
  }
  if (channel == SharedFigures::kChannel) {
    figures_.apply(payload);
    return;
  }
  node::NodeMessage message;
  if (!message.ParseFromString(payload)) {
    unreadable_warning_(fmt::format("cluster: an unreadable message on {}; dropped", channel));
    return;
  }
  if (message.has_seat_reply()) {
    auto it = waiting_.find(message.id());
    if (it == waiting_.end()) return;  // too late: the asker gave up
    SeatDone done = std::move(it->second.done);
    it->second.timeout->cancel();
    waiting_.erase(it);
    const auto& r = message.seat_reply();
    done(SeatReply{r.reservation(), GameId{r.game()}, r.code(), r.text()});
    return;
  }
  if (!message.has_seat_request() || !seat_handler_ || message.from().empty() ||
      message.from().size() > 64) {
    return;
  }
  seat_handler_(from_message(message.seat_request()),
                [this, id = message.id(), from = message.from()](const SeatReply& reply) {
                  node::NodeMessage answer;
                  answer.set_id(id);
                  answer.set_from(self_.id);
                  auto* r = answer.mutable_seat_reply();
                  r->set_reservation(reply.reservation);
                  r->set_game(number(reply.game));
                  r->set_code(reply.code);
                  r->set_text(reply.text);
                  const std::string to = "ttt:rpc:" + from;
                  commands_->command({"PUBLISH", to, signer_.sign(to, answer.SerializeAsString())},
                                     [](const RedisResult&) {});
                });
}

void RedisCluster::set_draining(bool draining) {
  if (self_.draining == draining) return;
  self_.draining = draining;
  beat();
}

void RedisCluster::leave(std::function<void()> done) {
  left_ = true;
  heartbeat_.cancel();
  figures_.flush();  // told before the node is gone
  commands_->command(
      {"DEL", "ttt:node:" + self_.id, "ttt:draining:" + self_.id, "ttt:epoch:" + self_.id},
      [](const RedisResult&) {});
  commands_->command({"SREM", "ttt:nodes", self_.id},
                     [done = std::move(done)](const RedisResult&) { done(); });
}

}  // namespace ttt::server::redis
