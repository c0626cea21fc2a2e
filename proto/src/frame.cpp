#include "ttt/wire/frame.hpp"

#include <algorithm>
#include <cstring>

namespace ttt::wire {

void append_frame(const google::protobuf::MessageLite& message, std::string& out) {
  const std::size_t length = message.ByteSizeLong();
  const std::size_t start = out.size();
  out.resize(start + kFrameHeaderSize + length);
  char* header = out.data() + start;
  header[0] = static_cast<char>((length >> 24) & 0xff);
  header[1] = static_cast<char>((length >> 16) & 0xff);
  header[2] = static_cast<char>((length >> 8) & 0xff);
  header[3] = static_cast<char>(length & 0xff);
  message.SerializeWithCachedSizesToArray(
      reinterpret_cast<std::uint8_t*>(header + kFrameHeaderSize));
}

std::string encode_frame(const google::protobuf::MessageLite& message) {
  std::string out;
  append_frame(message, out);
  return out;
}

std::uint32_t read_frame_length(const char* header) noexcept {
  const auto* h = reinterpret_cast<const unsigned char*>(header);
  return (std::uint32_t{h[0]} << 24) | (std::uint32_t{h[1]} << 16) | (std::uint32_t{h[2]} << 8) |
         std::uint32_t{h[3]};
}

bool parse_body(std::string_view body, google::protobuf::MessageLite& message) {
  return message.ParseFromArray(body.data(), static_cast<int>(body.size()));
}

FrameReader::FrameReader(std::size_t max_frame) : max_frame_(max_frame) {}

std::size_t FrameReader::wanted() const noexcept {
  std::size_t wanted = kMinRead;
  if (buffered() >= kFrameHeaderSize) {
    const std::size_t frame = kFrameHeaderSize + read_frame_length(&buffer_[begin_]);
    if (frame <= kFrameHeaderSize + max_frame_ && frame > buffered()) {
      wanted = std::max(wanted, frame - buffered());
    }
  }
  return wanted;
}

std::size_t FrameReader::capacity_needed() const noexcept {
  const std::size_t want = wanted();
  if (begin_ == end_) {
    const std::size_t kept = buffer_.capacity() > kKeepIdle ? 0 : buffer_.capacity();
    return std::max(kept, want);
  }
  if (buffer_.size() - buffered() >= want) return buffer_.capacity();
  return buffered() + want;
}

void FrameReader::shrink() noexcept {
  if (begin_ != end_) return;
  begin_ = end_ = 0;
  std::vector<char>().swap(buffer_);
}

std::span<char> FrameReader::prepare() {
  if (begin_ == end_) {
    begin_ = end_ = 0;
    // Give back what a large frame left behind.
    if (buffer_.capacity() > kKeepIdle) std::vector<char>().swap(buffer_);
  }
  // Room for the rest of the pending frame, or at least one ordinary read.
  const std::size_t want = wanted();
  if (buffer_.size() - end_ < want) {
    if (begin_ > 0 && buffered() > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, buffered());
    }
    end_ -= begin_;
    begin_ = 0;
    if (buffer_.size() - end_ < want) {
      // Exactly the size needed (no doubling), so the memory is what is counted.
      std::vector<char> bigger(end_ + want);
      if (end_ > 0) std::memcpy(bigger.data(), buffer_.data(), end_);
      buffer_.swap(bigger);
    }
  }
  return {buffer_.data() + end_, buffer_.size() - end_};
}

FrameReader::Status FrameReader::next(std::string_view& body) {
  if (buffered() < kFrameHeaderSize) return Status::kNeedMore;
  declared_ = read_frame_length(&buffer_[begin_]);
  if (declared_ > max_frame_) return Status::kTooLarge;
  if (buffered() < kFrameHeaderSize + declared_) return Status::kNeedMore;
  body = std::string_view(&buffer_[begin_ + kFrameHeaderSize], declared_);
  begin_ += kFrameHeaderSize + declared_;
  return Status::kFrame;
}

}  // namespace ttt::wire
