// Giving freed memory back to the operating system. The C library keeps
// what connections freed for reuse; after a flood of connections has gone,
// that is memory nobody uses. trim_freed_memory() returns it (glibc's
// malloc_trim; nothing elsewhere).
#pragma once

namespace ttt::server {

// Returns free heap memory to the system; true if the platform can.
bool trim_freed_memory() noexcept;

}  // namespace ttt::server
