#include <cstdlib>
#include <cstring>
#include <string>

#include "harness.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::fuzz {
namespace {

// Aborts on a broken invariant (libFuzzer reports it as a crash).
void check(bool ok) {
  if (!ok) std::abort();
}

template <typename Message>
void round_trip(std::string_view body) {
  Message message;
  if (!wire::parse_body(body, message)) return;
  const std::string frame = wire::encode_frame(message);
  check(wire::read_frame_length(frame.data()) == frame.size() - wire::kFrameHeaderSize);
  Message again;
  check(wire::parse_body(std::string_view(frame).substr(wire::kFrameHeaderSize), again));
  check(again.SerializeAsString() == message.SerializeAsString());
}

}  // namespace

void frames(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  // The first byte picks the read size, so that frames split everywhere.
  const std::size_t chunk = 1 + data[0] % 64;
  ++data;
  --size;
  wire::FrameReader reader(4096);
  std::size_t offset = 0;
  while (offset < size) {
    const auto space = reader.prepare();
    check(!space.empty());
    const std::size_t n = std::min({chunk, space.size(), size - offset});
    std::memcpy(space.data(), data + offset, n);
    reader.commit(n);
    offset += n;
    std::string_view body;
    for (;;) {
      const auto status = reader.next(body);
      if (status == wire::FrameReader::Status::kNeedMore) break;
      if (status == wire::FrameReader::Status::kTooLarge) {
        check(reader.declared_length() > reader.max_frame());
        check(reader.capacity() <= 4096 + wire::kFrameHeaderSize + 512);
        return;  // the stream is unusable, as for the server
      }
      check(body.size() <= reader.max_frame());
      round_trip<wire::ClientMessage>(body);
      round_trip<wire::ServerMessage>(body);
    }
  }
}

}  // namespace ttt::fuzz
