// libFuzzer entry: a hostile server's byte stream into the real client.
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ttt::fuzz::client(data, size);
  return 0;
}
