// The Lua scripts RedisCluster runs in Redis (EVAL), each one atomic across
// the nodes: a node's heartbeat, who holds a player and its token, and the
// allowances counted per address by every node together. Their keys are
// described in redis_cluster.hpp.
#pragma once

namespace ttt::server::redis::scripts {

// Renews this node's heartbeat (ARGV: id, value, key life, draining,
// epoch) and returns Redis's time, whether the node's epoch was still
// there ('1', else Redis forgot the node: it is written again) and every
// live node's (id, value), forgetting those whose heartbeat has expired.
inline constexpr const char* kBeat = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', 'ttt:node:' .. ARGV[1], ARGV[2] .. '\t' .. string.format('%d', now), 'PX', ARGV[3])
redis.call('SADD', 'ttt:nodes', ARGV[1])
if ARGV[4] == '1' then
  redis.call('SET', 'ttt:draining:' .. ARGV[1], '1', 'PX', ARGV[3])
else
  redis.call('DEL', 'ttt:draining:' .. ARGV[1])
end
local epoch = 'ttt:epoch:' .. ARGV[1]
local known = redis.call('GET', epoch) == ARGV[5]
redis.call('SET', epoch, ARGV[5], 'PX', 86400000)
local out = {string.format('%d', now), known and '1' or '0'}
for _, id in ipairs(redis.call('SMEMBERS', 'ttt:nodes')) do
  local v = redis.call('GET', 'ttt:node:' .. id)
  if v then
    table.insert(out, id)
    table.insert(out, v)
  else
    redis.call('SREM', 'ttt:nodes', id)
  end
end
return out
)lua";

// The account's token is now ARGV[2], held by node ARGV[3] (ARGV[4]: its
// lifetime in ms); its previous token stops working. Refused when the
// player is held by a node other than ARGV[3] and the asker ARGV[5] whose
// heartbeat is younger than ARGV[6] ms: that node's id is returned, '' when
// held.
inline constexpr const char* kHold = R"lua(
local holder = redis.call('GET', 'ttt:player:' .. ARGV[1])
if holder and holder ~= ARGV[3] and holder ~= ARGV[5] then
  local beat = redis.call('GET', 'ttt:node:' .. holder)
  local at = beat and tonumber(string.match(beat, '\t(%d+)$'))
  if at then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    if now - at <= tonumber(ARGV[6]) then return holder end
  end
end
local old = redis.call('GET', 'ttt:account-token:' .. ARGV[1])
if old and old ~= ARGV[2] then redis.call('DEL', 'ttt:token:' .. old) end
redis.call('SET', 'ttt:account-token:' .. ARGV[1], ARGV[2], 'PX', ARGV[4])
redis.call('SET', 'ttt:token:' .. ARGV[2], ARGV[1] .. '\t' .. ARGV[3], 'PX', ARGV[4])
redis.call('SET', 'ttt:player:' .. ARGV[1], ARGV[3])
return ''
)lua";

// One more use of the limit ARGV[1] by address ARGV[2] (at most ARGV[3]
// within ARGV[4] ms from the first): {1, 0} allowed, or {0, ms left}.
inline constexpr const char* kAllowance = R"lua(
local key = 'ttt:limit:' .. ARGV[1] .. ':' .. ARGV[2]
local used = redis.call('INCR', key)
if used == 1 then redis.call('PEXPIRE', key, ARGV[4]) end
if used > tonumber(ARGV[3]) then
  redis.call('DECR', key)
  return {0, redis.call('PTTL', key)}
end
return {1, 0}
)lua";

// The player leaves node ARGV[3] (unless another node holds it by now).
inline constexpr const char* kRelease = R"lua(
if redis.call('GET', 'ttt:player:' .. ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('DEL', 'ttt:player:' .. ARGV[1])
if redis.call('GET', 'ttt:account-token:' .. ARGV[1]) == ARGV[2] then
  redis.call('DEL', 'ttt:account-token:' .. ARGV[1])
  redis.call('DEL', 'ttt:token:' .. ARGV[2])
end
return 1
)lua";

}  // namespace ttt::server::redis::scripts
