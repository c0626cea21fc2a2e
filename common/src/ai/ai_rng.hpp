// Internal: a small seeded random generator that gives the same numbers on
// every platform and standard library, so a seed always picks the same move.
#pragma once

#include <cstdint>

namespace ttt::internal::ai {

// The SplitMix64 finaliser: a fast bijective mix of 64 bits.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// SplitMix64 as a generator; plenty for picking moves.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}

  std::uint64_t next() noexcept {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_);
  }

  // Uniform in [0, bound); precondition bound > 0. Rejection keeps it unbiased.
  std::uint64_t below(std::uint64_t bound) noexcept {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const std::uint64_t r = next();
      if (r >= threshold) return r % bound;
    }
  }

  // True with probability numerator / denominator; precondition denominator > 0.
  bool chance(std::uint64_t numerator, std::uint64_t denominator) noexcept {
    return below(denominator) < numerator;
  }

 private:
  std::uint64_t state_;
};

}  // namespace ttt::internal::ai
