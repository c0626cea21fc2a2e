#include "ai/ai_exact_table.hpp"

#include <algorithm>

#include "ai/ai_rng.hpp"

namespace ttt::internal::ai {
namespace {

// Layout of a slot: key (35 bits) | score + 64 (7) | bound (2) | move + 1 (5)
// | empties (5). An empty slot is 0: its bound is None.
constexpr int kKeyBits = 35;
constexpr std::uint64_t kKeyMask = (std::uint64_t{1} << kKeyBits) - 1;

std::uint64_t pack(std::uint64_t key, const ExactEntry& e) noexcept {
  return key | static_cast<std::uint64_t>(e.score + 64) << 35 |
         static_cast<std::uint64_t>(e.bound) << 42 | static_cast<std::uint64_t>(e.move + 1) << 44 |
         static_cast<std::uint64_t>(e.empties) << 49;
}

ExactEntry unpack(std::uint64_t word) noexcept {
  return {static_cast<int>((word >> 35) & 0x7f) - 64, static_cast<Bound>((word >> 42) & 0x3),
          static_cast<int>((word >> 44) & 0x1f) - 1, static_cast<int>((word >> 49) & 0x1f)};
}

bool holds(std::uint64_t word, std::uint64_t key) noexcept {
  return word != 0 && (word & kKeyMask) == key;
}

}  // namespace

ExactTable::ExactTable(int log2_slots)
    : slots_count_(std::size_t{1} << std::max(log2_slots, kMinLog2Slots)),
      slots_(zeroed_array<std::uint64_t>(slots_count_)) {}

ExactTable& ExactTable::shared() {
  static ExactTable table;
  return table;
}

std::size_t ExactTable::bucket_of(std::uint64_t key) const noexcept {
  return static_cast<std::size_t>(mix64(key)) & (slots_count_ - 2);
}

std::optional<ExactEntry> ExactTable::probe(std::uint64_t key) const noexcept {
  const std::size_t b = bucket_of(key);
  for (std::size_t i = b; i < b + 2; ++i) {
    const std::uint64_t word = slot(i).load(std::memory_order_relaxed);
    if (holds(word, key)) return unpack(word);
  }
  return std::nullopt;
}

void ExactTable::store(std::uint64_t key, const ExactEntry& entry) noexcept {
  const std::size_t b = bucket_of(key);
  const std::uint64_t word = pack(key, entry);
  const std::uint64_t deep = slot(b).load(std::memory_order_relaxed);
  if (holds(deep, key) || deep == 0 || unpack(deep).empties <= entry.empties) {
    if (!holds(deep, key) && deep != 0) slot(b + 1).store(deep, std::memory_order_relaxed);
    slot(b).store(word, std::memory_order_relaxed);
  } else {
    slot(b + 1).store(word, std::memory_order_relaxed);
  }
}

void ExactTable::clear() noexcept {
  for (std::size_t i = 0; i < slots_count_; ++i) slot(i).store(0, std::memory_order_relaxed);
}

std::size_t ExactTable::used() const noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < slots_count_; ++i) {
    if (slot(i).load(std::memory_order_relaxed) != 0) ++n;
  }
  return n;
}

}  // namespace ttt::internal::ai
