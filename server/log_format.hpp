// --log-format json: each log line one JSON object for log shippers
// (journald's, Vector, Fluent Bit, Loki's promtail):
//   {"time":"2026-11-23T15:04:05.123Z","level":"info","logger":"ttt-server","message":"..."}
// The message is escaped as JSON wants (quotes, backslashes, control
// characters as \u00XX); bytes that are not UTF-8 become U+FFFD, so that a
// name sent by a hostile client can't break the line or the object.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <spdlog/formatter.h>

namespace ttt::server {

std::unique_ptr<spdlog::formatter> json_log_formatter();

// text as the contents of a JSON string (without the quotes).
std::string json_escaped(std::string_view text);

}  // namespace ttt::server
