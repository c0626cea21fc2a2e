#include "redis/shared_matchmaker.hpp"

#include <charconv>
#include <vector>

#include "redis/redis_cluster.hpp"

namespace ttt::server::redis {
namespace {

// KEYS: none (the keys are made from the arguments: one Redis, not a Redis
// Cluster). ARGV: queue key, waiting key, entry, account.
constexpr const char* kMatch = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- A node is alive if its heartbeat is fresh (RedisCluster's dead limit).
local function alive(node)
  local v = redis.call('GET', 'ttt:node:' .. node)
  if not v then return false end
  local beat = tonumber(string.match(v, '\t(%d+)$'))
  return beat ~= nil and now - beat <= tonumber(ARGV[5])
end
local old = redis.call('GET', ARGV[2])
if old then
  local q, e = string.match(old, '^([^\n]*)\n(.*)$')
  if q then redis.call('LREM', q, 0, e) end
  redis.call('DEL', ARGV[2])
end
while true do
  local e = redis.call('LPOP', ARGV[1])
  if not e then break end
  local node, seat, account = string.match(e, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t')
  if node then
    redis.call('DEL', 'ttt:waiting:' .. node .. ':' .. seat)
    if account ~= ARGV[4] and alive(node)
        and redis.call('EXISTS', 'ttt:draining:' .. node) == 0 then
      return e
    end
  end
end
redis.call('RPUSH', ARGV[1], ARGV[3])
redis.call('SET', ARGV[2], ARGV[1] .. '\n' .. ARGV[3])
return false
)lua";

// ARGV: waiting key. 1 if the entry was taken out, 0 if it was gone.
constexpr const char* kCancel = R"lua(
local old = redis.call('GET', ARGV[1])
if not old then return 0 end
redis.call('DEL', ARGV[1])
local q, e = string.match(old, '^([^\n]*)\n(.*)$')
if not q then return 0 end
return redis.call('LREM', q, 0, e)
)lua";

std::string waiting_key(const std::string& node, SeatId seat) {
  return "ttt:waiting:" + node + ":" + std::to_string(number(seat));
}

std::string queue_key(const MatchRequest& r) {
  return "ttt:queue:" + std::to_string(r.size) + ":" + std::to_string(r.win_length) + ":" +
         std::to_string(r.clock_initial_ms) + ":" + std::to_string(r.clock_increment_ms);
}

template <typename T>
bool parse_number(std::string_view text, T& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string queue_entry(const MatchRequest& r, const std::string& node) {
  // The name is last: it may hold anything but a tab or a newline (names never do).
  return node + "\t" + std::to_string(number(r.player_id)) + "\t" +
         std::to_string(number(r.account)) + "\t" + std::to_string(static_cast<int>(r.rated)) +
         "\t" + (r.program ? "1" : "0") + "\t" + std::to_string(r.size) + "\t" +
         std::to_string(r.win_length) + "\t" + std::to_string(r.clock_initial_ms) + "\t" +
         std::to_string(r.clock_increment_ms) + "\t" + r.name;
}

std::optional<MatchRequest> parse_queue_entry(const std::string& entry) {
  std::vector<std::string_view> parts;
  std::string_view rest = entry;
  while (parts.size() < 9) {
    const auto tab = rest.find('\t');
    if (tab == std::string_view::npos) return std::nullopt;
    parts.push_back(rest.substr(0, tab));
    rest.remove_prefix(tab + 1);
  }
  MatchRequest r;
  std::uint64_t seat = 0, account = 0;
  int rated = 0;
  if (parts[0].empty() || !parse_number(parts[1], seat) || !parse_number(parts[2], account) ||
      !parse_number(parts[3], rated) || rated < 0 || rated > 2 || !parse_number(parts[5], r.size) ||
      !parse_number(parts[6], r.win_length) || !parse_number(parts[7], r.clock_initial_ms) ||
      !parse_number(parts[8], r.clock_increment_ms) || rest.size() > 256) {
    return std::nullopt;
  }
  r.node = std::string(parts[0]);
  r.player_id = static_cast<SeatId>(seat);
  r.account = static_cast<AccountId>(account);
  r.rated = static_cast<wire::Rated>(rated);
  r.program = parts[4] == "1";
  r.name = std::string(rest);
  return r;
}

void SharedMatchmaker::match(const MatchRequest& request, Done done) {
  const std::string& self = cluster_.self().id;
  waiting_.erase(request.player_id);
  cluster_.commands().command(
      {"EVAL", kMatch, "0", queue_key(request), waiting_key(self, request.player_id),
       queue_entry(request, self), std::to_string(number(request.account)),
       std::to_string(cluster_.timings().dead_after.count())},
      [this, who = request.player_id, done = std::move(done)](const RedisResult& result) {
        if (!result.ok()) {
          done({std::nullopt, false});
          return;
        }
        if (result.value->is_nil()) {
          waiting_.insert(who);
          done({std::nullopt, true});
          return;
        }
        auto paired = parse_queue_entry(result.value->text);
        if (!paired) {
          // Not one of ours: nobody to pair with; the request was not queued.
          done({std::nullopt, false});
          return;
        }
        if (paired->node == cluster_.self().id) waiting_.erase(paired->player_id);
        done({std::move(paired), true});
      });
}

void SharedMatchmaker::cancel(SeatId who, Cancelled done) {
  waiting_.erase(who);
  cluster_.commands().command({"EVAL", kCancel, "0", waiting_key(cluster_.self().id, who)},
                              [done = std::move(done)](const RedisResult& result) {
                                if (done) done(result.ok() && result.value->integer > 0);
                              });
}

}  // namespace ttt::server::redis
