// libFuzzer entry: the frame decoder and both envelopes.
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ttt::fuzz::frames(data, size);
  return 0;
}
