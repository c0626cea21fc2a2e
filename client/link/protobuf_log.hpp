// Protobuf's own complaints about a frame (a server's string field that is
// not UTF-8 makes the whole frame unreadable, and the library says so on
// stderr) go to the program's log at debug level instead, made safe to
// show: the player's screen gets the connection's one-line reason, not a
// library's log line in the middle of the board.
#pragma once

namespace ttt::client {

// Routes protobuf's log messages to spdlog (debug; errors the library
// deems fatal still end the program as protobuf decides). Call once at start.
void route_protobuf_logs();

}  // namespace ttt::client
