// LatencyRecorder: round-trip samples in microseconds and their percentiles.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace ttt::bench {

class LatencyRecorder {
 public:
  void record(std::chrono::steady_clock::duration rtt) {
    samples_.push_back(static_cast<std::uint32_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(rtt).count()));
  }
  void clear() { samples_.clear(); }
  std::size_t count() const noexcept { return samples_.size(); }

  // The p-th percentile (0 < p <= 100) in microseconds; 0 without samples.
  std::uint32_t percentile(double p);

  // Appends another recorder's samples.
  void merge(const LatencyRecorder& other) {
    samples_.insert(samples_.end(), other.samples_.begin(), other.samples_.end());
  }

 private:
  std::vector<std::uint32_t> samples_;
};

}  // namespace ttt::bench
