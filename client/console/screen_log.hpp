// ScreenLog: the log the full screen shows under the board: every line the
// client says (chat, moves in words, results), the newest kLines kept, and
// how far the player has scrolled back (PgUp, PgDn). Pure: FullScreen draws
// what it gives.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace ttt::client {

class ScreenLog {
 public:
  // Lines kept for scrolling back.
  static constexpr std::size_t kLines = 2000;

  // A line said (no newline in it).
  void add(std::string line);

  // Scrolls back (PgUp) or forward (PgDn) by rows; to_newest: the newest
  // rows again.
  void page_back(int rows) noexcept { scroll_ += rows; }
  void page_forward(int rows) noexcept { scroll_ = scroll_ > rows ? scroll_ - rows : 0; }
  void to_newest() noexcept { scroll_ = 0; }

  // What height rows of width columns show: the lines wrapped between
  // words, the newest at the bottom unless scrolled back (scrolled: newer
  // rows are below). The scroll stops at the oldest row.
  struct View {
    std::vector<std::string> rows;
    bool scrolled = false;
  };
  View view(int width, int height);

  // The last n lines said.
  std::vector<std::string> last(std::size_t n) const;

 private:
  std::deque<std::string> lines_;  // oldest first
  int scroll_ = 0;                 // rows scrolled back from the newest
};

}  // namespace ttt::client
