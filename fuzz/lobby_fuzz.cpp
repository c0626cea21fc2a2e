// libFuzzer entry: whole client byte streams into a real lobby.
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ttt::fuzz::lobby(data, size);
  return 0;
}
