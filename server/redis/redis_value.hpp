// RedisValue: a reply from Redis, copied out of hiredis's reply object so it
// outlives the callback (nil, an integer, a string or status, an error
// reply, or an array of values), and RedisResult: a reply or the failure to
// get one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ttt::server::redis {

struct RedisValue {
  enum class Type { kNil, kInteger, kString, kStatus, kError, kArray };
  Type type = Type::kNil;
  long long integer = 0;
  std::string text;                  // kString, kStatus, kError
  std::vector<RedisValue> elements;  // kArray

  bool is_nil() const noexcept { return type == Type::kNil; }
  bool is_error() const noexcept { return type == Type::kError; }
};

struct RedisResult {
  std::optional<RedisValue> value;  // absent: no reply (error says why)
  std::string error;

  // A reply that is not Redis's error reply.
  bool ok() const noexcept { return value && !value->is_error(); }
  // Why this is not ok(): the failure or Redis's error text.
  std::string why() const { return value && value->is_error() ? value->text : error; }
};

}  // namespace ttt::server::redis
