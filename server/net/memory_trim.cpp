#include "net/memory_trim.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ttt::server {

bool trim_freed_memory() noexcept {
#if defined(__GLIBC__)
  malloc_trim(0);
  return true;
#else
  return false;
#endif
}

}  // namespace ttt::server
