#include "load/latency_recorder.hpp"

#include <algorithm>
#include <cmath>

namespace ttt::bench {

std::uint32_t LatencyRecorder::percentile(double p) {
  if (samples_.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(samples_.size()));
  const auto index = static_cast<std::size_t>(std::clamp(rank, 1.0, double(samples_.size()))) - 1;
  std::nth_element(samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(index),
                   samples_.end());
  return samples_[index];
}

}  // namespace ttt::bench
