// The kinds of measurement the server keeps for /metrics (Prometheus): a
// counter that only goes up, a labelled set of counters whose labels are
// fixed when it is made, a gauge that goes up and down, and a histogram of
// durations with fixed bucket bounds. All are lock-free atomics, safe to
// bump from any thread; reading them for a scrape is a snapshot of each
// value (relaxed: counts may be a moment apart, never torn).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace ttt::server::metrics {

class Counter {
 public:
  void add(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

class Gauge {
 public:
  void add(std::int64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  void set(std::int64_t n) noexcept { value_.store(n, std::memory_order_relaxed); }
  std::int64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::int64_t> value_{0};
};

// Counters by the value of one label, all known in advance ("reason" =
// "too_large", "unparseable", ...), so that every series is there from the
// start (at 0) and a scrape never takes a lock.
class LabeledCounters {
 public:
  LabeledCounters(std::string label, std::initializer_list<const char*> values);

  // The counter for value; values not given at construction go to the last.
  Counter& at(std::string_view value) noexcept;
  const std::string& label() const noexcept { return label_; }
  std::size_t size() const noexcept { return values_.size(); }
  const std::string& value_name(std::size_t i) const { return values_[i]; }
  std::uint64_t count(std::size_t i) const noexcept { return counters_[i].value(); }

 private:
  std::string label_;
  std::vector<std::string> values_;
  std::vector<Counter> counters_;
};

// Durations in seconds, counted into buckets whose upper bounds are fixed
// (Prometheus' "le"), with their sum.
class Histogram {
 public:
  // bounds in seconds, ascending; +Inf is implied.
  explicit Histogram(std::vector<double> bounds);

  void observe(std::chrono::nanoseconds duration) noexcept;

  std::span<const double> bounds() const noexcept { return bounds_; }
  // Observations at most bounds()[i] (cumulative, as Prometheus wants);
  // i == bounds().size() is +Inf, every observation.
  std::uint64_t cumulative(std::size_t i) const noexcept;
  std::uint64_t count() const noexcept { return cumulative(bounds_.size()); }
  double sum_seconds() const noexcept;

 private:
  std::vector<double> bounds_;
  std::vector<std::atomic<std::uint64_t>> buckets_;  // per bucket, not cumulative; last = +Inf
  std::atomic<std::uint64_t> sum_ns_{0};
};

// 100 us to 10 s, for server-side latencies.
std::vector<double> latency_buckets();

}  // namespace ttt::server::metrics
