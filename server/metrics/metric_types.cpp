#include "metrics/metric_types.hpp"

#include <algorithm>

namespace ttt::server::metrics {

LabeledCounters::LabeledCounters(std::string label, std::initializer_list<const char*> values)
    : label_(std::move(label)), values_(values.begin(), values.end()), counters_(values.size()) {}

Counter& LabeledCounters::at(std::string_view value) noexcept {
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i] == value) return counters_[i];
  }
  return counters_.back();
}

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), buckets_(bounds_.size() + 1) {}

void Histogram::observe(std::chrono::nanoseconds duration) noexcept {
  const double seconds = std::chrono::duration<double>(duration).count();
  const auto bucket = static_cast<std::size_t>(
      std::lower_bound(bounds_.begin(), bounds_.end(), seconds) - bounds_.begin());
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  const auto ns = duration.count() > 0 ? static_cast<std::uint64_t>(duration.count()) : 0;
  sum_ns_.fetch_add(ns, std::memory_order_relaxed);
}

std::uint64_t Histogram::cumulative(std::size_t i) const noexcept {
  std::uint64_t total = 0;
  for (std::size_t b = 0; b <= i && b < buckets_.size(); ++b) {
    total += buckets_[b].load(std::memory_order_relaxed);
  }
  return total;
}

double Histogram::sum_seconds() const noexcept {
  return static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
}

std::vector<double> latency_buckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
          0.05,   0.1,     0.25,   0.5,   1.0,    2.5,   5.0,  10.0};
}

}  // namespace ttt::server::metrics
