// The wire's schema for the web client: every message and enum of
// ttt.proto, from the descriptors compiled into the server, as compact JSON
// ({"messages": {"ttt.wire.Hello": [[number, name, type, repeated, type
// name, oneof], ...]}, "enums": {"ttt.wire.Side": {"SIDE_NONE": 0, ...}}}).
// The page's protobuf code reads it, so the browser and the server always
// agree on the protocol without a generator at build time.
#pragma once

#include <string>

namespace ttt::server::web {

std::string wire_schema_json();

}  // namespace ttt::server::web
