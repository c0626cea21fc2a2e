// The target that compiles tests/support/precompiled.hpp once; the
// server-side tests reuse its precompiled header (tests/CMakeLists.txt).
#include "support/precompiled.hpp"
