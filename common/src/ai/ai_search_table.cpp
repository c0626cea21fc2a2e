#include "ai/ai_search_table.hpp"

#include <algorithm>

#include "ai/ai_rng.hpp"

namespace ttt::internal::ai {

static_assert(sizeof(SearchTable::Entry) == 16);

SearchTable::SearchTable(int log2_entries)
    : mask_((std::size_t{1} << log2_entries) - 1),
      entries_(zeroed_array<Entry>(mask_ + 1)),
      ages_(zeroed_array<std::uint8_t>(mask_ + 1)) {}

SearchTable& SearchTable::for_this_thread() {
  thread_local SearchTable table;
  return table;
}

void SearchTable::reserve(int log2_entries) {
  log2_entries = std::min(log2_entries, kMaxLog2Entries);
  const std::size_t wanted = std::size_t{1} << log2_entries;
  if (wanted <= mask_ + 1) return;
  entries_ = zeroed_array<Entry>(wanted);
  ages_ = zeroed_array<std::uint8_t>(wanted);
  mask_ = wanted - 1;
}

std::uint64_t SearchTable::new_generation() noexcept {
  new_age();
  return mix64(++generation_ ^ 0x5EEDull);
}

std::size_t SearchTable::bucket(std::uint64_t key) const noexcept {
  return mix64(key) & mask_ & ~std::size_t{1};
}

const SearchTable::Entry* SearchTable::probe(std::uint64_t key) const noexcept {
  const std::size_t i = bucket(key);
  for (std::size_t s = i; s <= i + 1; ++s) {
    const Entry& e = entries_[s];
    if (e.bound != Bound::None && e.key == key) return &e;
  }
  return nullptr;
}

void SearchTable::store(const Entry& entry) noexcept {
  const std::size_t i = bucket(entry.key);
  std::size_t victim = i;
  for (std::size_t s = i; s <= i + 1; ++s) {
    const Entry& e = entries_[s];
    if (e.key == entry.key || e.bound == Bound::None) {
      victim = s;
      break;
    }
    const bool old = ages_[s] != age_;
    const bool victim_old = ages_[victim] != age_;
    if (s != victim &&
        (old > victim_old || (old == victim_old && e.depth < entries_[victim].depth))) {
      victim = s;
    }
  }
  Entry& slot = entries_[victim];
  const std::uint16_t kept_move = slot.key == entry.key ? slot.move_plus_one : 0;
  slot = entry;
  if (slot.move_plus_one == 0) slot.move_plus_one = kept_move;
  ages_[victim] = age_;
}

}  // namespace ttt::internal::ai
