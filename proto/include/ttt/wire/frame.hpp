// Framing: every frame is a 4-byte big-endian body length followed by the
// body, one serialized envelope (ClientMessage or ServerMessage).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ttt.pb.h"

namespace ttt::wire {

// The protocol version this build speaks (Hello.protocol_version).
inline constexpr std::uint32_t kProtocolVersion = 1;

inline constexpr std::size_t kFrameHeaderSize = 4;

// The default cap on a frame body; a longer declared length is refused before
// anything is allocated for it.
inline constexpr std::size_t kDefaultMaxFrame = 64 * 1024;

// Appends one frame holding message to out.
void append_frame(const google::protobuf::MessageLite& message, std::string& out);

// One frame holding message.
std::string encode_frame(const google::protobuf::MessageLite& message);

// The body length a 4-byte header declares.
std::uint32_t read_frame_length(const char* header) noexcept;

// Parses a frame body; false if it is not a valid message of that type.
bool parse_body(std::string_view body, google::protobuf::MessageLite& message);

// Cuts a byte stream into frame bodies. Read into prepare(), commit() what
// arrived, then call next() until it stops returning kFrame. Memory stays
// small between frames and never exceeds the cap plus one read's worth.
class FrameReader {
 public:
  enum class Status {
    kFrame,     // body holds the next frame's body
    kNeedMore,  // read more bytes
    kTooLarge,  // the next frame declares a length over the cap; the stream is unusable
  };

  explicit FrameReader(std::size_t max_frame = kDefaultMaxFrame);

  // Free space to read into: never empty.
  std::span<char> prepare();

  // The buffer size the next prepare() will hold (so that a caller can
  // account for the memory before it is taken).
  std::size_t capacity_needed() const noexcept;

  // Gives the buffer back when no bytes are pending (between frames), so an
  // idle connection holds no read memory.
  void shrink() noexcept;

  // Changes the cap on a frame's declared length (e.g. once a peer is known).
  void set_max_frame(std::size_t max_frame) noexcept { max_frame_ = max_frame; }

  // Marks n bytes of the space from prepare() as received.
  void commit(std::size_t n) noexcept { end_ += n; }

  // The next complete frame. body stays valid until the next prepare().
  Status next(std::string_view& body);

  // The length the last header declared (for a kTooLarge report).
  std::uint32_t declared_length() const noexcept { return declared_; }

  // Bytes received but not yet returned as frames.
  std::size_t buffered() const noexcept { return end_ - begin_; }

  std::size_t max_frame() const noexcept { return max_frame_; }

  // Bytes of memory the reader holds (for tests and memory accounting).
  std::size_t capacity() const noexcept { return buffer_.capacity(); }

  // The space a read gets at least, and the most an empty reader keeps.
  static constexpr std::size_t kMinRead = 512;
  static constexpr std::size_t kKeepIdle = 4 * kMinRead;

 private:
  // Free bytes the next read needs: the rest of a pending frame, or kMinRead.
  std::size_t wanted() const noexcept;

  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::size_t max_frame_;
  std::uint32_t declared_ = 0;
};

}  // namespace ttt::wire
