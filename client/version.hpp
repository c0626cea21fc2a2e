// The version the client programs report to the server.
#pragma once

namespace ttt::client {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace ttt::client
