#include "link/protobuf_log.hpp"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <string>

#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

void to_spdlog(google::protobuf::LogLevel, const char*, int, const std::string& message) {
  spdlog::debug("protobuf: {}", safe_text(message, field_width::kMessage));
}

}  // namespace

void route_protobuf_logs() { google::protobuf::SetLogHandler(&to_spdlog); }

}  // namespace ttt::client
