#include "ttt/cli/invocation.hpp"

#include <cstdlib>

namespace ttt::cli {

std::string invocation_name(std::string_view program) {
  const char* invoked = std::getenv("TTT_INVOKED_AS");
  return invoked != nullptr && invoked[0] != '\0' ? std::string(invoked) : std::string(program);
}

}  // namespace ttt::cli
