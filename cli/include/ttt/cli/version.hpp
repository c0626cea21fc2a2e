// ttt's version, the project's (CMakeLists.txt): what --version says, what
// the clients tell a server in their Hello, and what a server tells in its
// Welcome and on /metrics.
#pragma once

namespace ttt::cli {

extern const char* const kVersion;

}  // namespace ttt::cli
