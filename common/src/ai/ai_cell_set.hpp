// Internal: a set of cells of a board up to Board::kMaxSize, as plain 64-bit
// words so that its members can be walked quickly (std::bitset cannot).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "ttt/board.hpp"

namespace ttt::internal::ai {

class CellSet {
 public:
  static constexpr int kWords = (Board::kMaxCells + 63) / 64;

  bool test(int cell) const noexcept { return words_[cell >> 6] >> (cell & 63) & 1; }
  void set(int cell) noexcept { words_[cell >> 6] |= std::uint64_t{1} << (cell & 63); }
  void reset(int cell) noexcept { words_[cell >> 6] &= ~(std::uint64_t{1} << (cell & 63)); }
  void assign(int cell, bool on) noexcept { on ? set(cell) : reset(cell); }

  bool any() const noexcept {
    for (std::uint64_t w : words_) {
      if (w) return true;
    }
    return false;
  }
  int count() const noexcept {
    int n = 0;
    for (std::uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  // The smallest member; precondition any().
  int first() const noexcept {
    for (int i = 0;; ++i) {
      if (words_[i]) return i * 64 + std::countr_zero(words_[i]);
    }
  }

  // Calls f(cell) for each member, ascending.
  template <typename F>
  void for_each(F&& f) const {
    for (int i = 0; i < kWords; ++i) {
      for (std::uint64_t w = words_[i]; w; w &= w - 1) f(i * 64 + std::countr_zero(w));
    }
  }

  CellSet& operator|=(const CellSet& o) noexcept {
    for (int i = 0; i < kWords; ++i) words_[i] |= o.words_[i];
    return *this;
  }
  // Keeps only the members of o too.
  CellSet& keep(const CellSet& o) noexcept {
    for (int i = 0; i < kWords; ++i) words_[i] &= o.words_[i];
    return *this;
  }
  // Removes the members of o.
  CellSet& remove(const CellSet& o) noexcept {
    for (int i = 0; i < kWords; ++i) words_[i] &= ~o.words_[i];
    return *this;
  }
  friend CellSet operator|(CellSet a, const CellSet& b) noexcept { return a |= b; }
  friend bool operator==(const CellSet&, const CellSet&) = default;

 private:
  std::array<std::uint64_t, kWords> words_{};
};

}  // namespace ttt::internal::ai
