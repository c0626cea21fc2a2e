#include "net/frame_writer.hpp"

#include <algorithm>
#include <utility>

namespace ttt::server {

FrameWriter::FrameWriter(std::size_t max_bytes, std::size_t max_frames, std::size_t skip)
    : max_bytes_(max_bytes), max_frames_(max_frames), skip_(skip) {}

bool FrameWriter::fits(std::size_t frame_bytes, std::size_t backlog) const noexcept {
  return queue_.size() < max_frames_ && bytes_ + backlog + frame_bytes <= max_bytes_;
}

std::size_t FrameWriter::unsent(const Frame& frame, std::size_t sent) const noexcept {
  return frame->size() - std::min(sent, frame->size());
}

void FrameWriter::push(Frame frame, std::size_t sent) {
  if (queue_.empty()) front_sent_ = sent;
  bytes_ += unsent(frame, sent);
  queue_.push_back(std::move(frame));
}

FrameWriter::Frame FrameWriter::pop_front() {
  if (queue_.empty()) return nullptr;
  Frame frame = std::move(queue_.front());
  queue_.pop_front();
  bytes_ -= std::min(unsent(frame, std::exchange(front_sent_, 0)), bytes_);
  return frame;
}

const std::vector<boost::asio::const_buffer>& FrameWriter::gather(std::size_t max_frames) {
  buffers_.clear();
  for (const Frame& frame : queue_) {
    if (buffers_.size() == max_frames) break;
    const std::size_t sent = buffers_.empty() ? front_sent_ : 0;
    buffers_.push_back(boost::asio::buffer(*frame) + (skip_ + sent));
  }
  return buffers_;
}

void FrameWriter::consume(std::size_t n) {
  while (!queue_.empty()) {
    const std::size_t left = unsent(queue_.front(), skip_ + front_sent_);
    if (n < left) {
      front_sent_ += n;
      bytes_ -= std::min(n, bytes_);
      return;
    }
    n -= left;
    bytes_ -= std::min(unsent(queue_.front(), front_sent_), bytes_);
    queue_.pop_front();
    front_sent_ = 0;
  }
}

const std::vector<boost::asio::const_buffer>& FrameWriter::begin_write(std::size_t max_frames) {
  in_flight_.clear();
  buffers_.clear();
  in_flight_bytes_ = 0;
  while (!queue_.empty() && in_flight_.size() < max_frames) {
    const std::size_t sent = in_flight_.empty() ? std::exchange(front_sent_, 0) : 0;
    in_flight_bytes_ += unsent(queue_.front(), sent);
    buffers_.push_back(boost::asio::buffer(*queue_.front()) + (skip_ + sent));
    in_flight_.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  return buffers_;
}

void FrameWriter::end_write() {
  bytes_ -= std::min(in_flight_bytes_, bytes_);
  in_flight_bytes_ = 0;
  in_flight_.clear();
  buffers_.clear();
}

void FrameWriter::drop_waiting() {
  if (front_sent_ > 0 && !queue_.empty()) {
    Frame partial = std::move(queue_.front());
    queue_.clear();
    bytes_ = unsent(partial, front_sent_);
    queue_.push_back(std::move(partial));
  } else {
    queue_.clear();
    bytes_ = 0;
    front_sent_ = 0;
  }
  // A write in flight still ends: what it had no longer counts either.
  in_flight_bytes_ = 0;
}

void FrameWriter::clear() {
  queue_.clear();
  bytes_ = 0;
  front_sent_ = 0;
  in_flight_bytes_ = 0;
}

}  // namespace ttt::server
