// Internal: the exact solver's transposition table. Every slot is one 64-bit
// word holding a whole entry, accessed atomically (std::atomic_ref), so any number of threads may
// probe and store at once without locks and without ever reading a torn entry; a racing store can
// only replace one true fact about a position with another.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>

namespace ttt::internal::ai {

// Frees memory from zeroed_array.
struct ZeroedDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

// n zero-filled objects of an implicit-lifetime type T, from calloc (fresh
// pages from the system are zero already and mapped on first touch). Throws
// std::bad_alloc when the memory isn't there.
template <typename T>
std::unique_ptr<T[], ZeroedDeleter> zeroed_array(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  void* memory = std::calloc(n, sizeof(T));
  if (memory == nullptr) throw std::bad_alloc();
  return std::unique_ptr<T[], ZeroedDeleter>(static_cast<T*>(memory));
}

// How a stored score relates to the exact value.
enum class Bound : std::uint8_t { None = 0, Lower = 1, Upper = 2, Exact = 3 };

// What the table knows about one position.
struct ExactEntry {
  int score = 0;  // a game value, |score| <= 17
  Bound bound = Bound::None;
  int move = -1;    // best cell in the canonical frame, -1 if none
  int empties = 0;  // empty cells, the replacement priority (0..16)
};

class ExactTable {
 public:
  // Smallest and default sizes, as log2 of the number of slots.
  static constexpr int kMinLog2Slots = 4;
  static constexpr int kDefaultLog2Slots = 20;

  // A table of 2^log2_slots slots (8 bytes each), all empty.
  explicit ExactTable(int log2_slots = kDefaultLog2Slots);

  // The process-wide table the engine uses, created on first use (8 MiB).
  static ExactTable& shared();

  // The entry stored under key (a canonical key, < 2^35), if any.
  std::optional<ExactEntry> probe(std::uint64_t key) const noexcept;

  // Stores an entry; buckets of two keep the deeper entry and the newest one.
  void store(std::uint64_t key, const ExactEntry& entry) noexcept;

  // Empties every slot. Not safe while other threads use the table.
  void clear() noexcept;

  std::size_t bytes() const noexcept { return slots_count_ * sizeof(std::uint64_t); }

  // Slots that hold an entry (walks the table; for tests and benchmarks).
  std::size_t used() const noexcept;

 private:
  std::size_t bucket_of(std::uint64_t key) const noexcept;

  std::atomic_ref<std::uint64_t> slot(std::size_t i) const noexcept {
    return std::atomic_ref<std::uint64_t>(slots_.get()[i]);
  }

  std::size_t slots_count_;
  // calloc'd: the zero pages cost nothing until the search touches them, so
  // creating the table adds nothing to the first call's time.
  std::unique_ptr<std::uint64_t[], ZeroedDeleter> slots_;
};

}  // namespace ttt::internal::ai
