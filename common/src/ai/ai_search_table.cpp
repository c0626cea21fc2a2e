#include "ai/ai_search_table.hpp"

#include "ai/ai_rng.hpp"

namespace ttt::internal::ai {

static_assert(sizeof(SearchTable::Entry) == 16);

SearchTable::SearchTable(int log2_entries)
    : mask_((std::size_t{1} << log2_entries) - 1), entries_(zeroed_array<Entry>(mask_ + 1)) {}

SearchTable& SearchTable::for_this_thread() {
  thread_local SearchTable table;
  return table;
}

std::uint64_t SearchTable::new_generation() noexcept { return mix64(++generation_ ^ 0x5EEDull); }

const SearchTable::Entry* SearchTable::probe(std::uint64_t key) const noexcept {
  const Entry& e = entries_[mix64(key) & mask_];
  return e.bound != Bound::None && e.key == key ? &e : nullptr;
}

void SearchTable::store(const Entry& entry) noexcept { entries_[mix64(entry.key) & mask_] = entry; }

}  // namespace ttt::internal::ai
