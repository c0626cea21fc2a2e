#include "console/screen_log.hpp"

#include <algorithm>

#include "text/display_width.hpp"

namespace ttt::client {

void ScreenLog::add(std::string line) {
  lines_.push_back(std::move(line));
  while (lines_.size() > kLines) lines_.pop_front();
}

ScreenLog::View ScreenLog::view(int width, int height) {
  std::vector<std::string> rows;
  for (const std::string& line : lines_) {
    for (std::string& piece : wrap_words(line, static_cast<std::size_t>(std::max(width, 1)))) {
      rows.push_back(std::move(piece));
    }
  }
  const int count = static_cast<int>(rows.size());
  scroll_ = std::clamp(scroll_, 0, std::max(0, count - height));
  const int first = std::max(0, count - height - scroll_);
  View view;
  for (int i = 0; i < height && first + i < count; ++i) {
    view.rows.push_back(std::move(rows[static_cast<std::size_t>(first + i)]));
  }
  view.scrolled = scroll_ > 0;
  return view;
}

std::vector<std::string> ScreenLog::last(std::size_t n) const {
  const std::size_t from = lines_.size() > n ? lines_.size() - n : 0;
  return {lines_.begin() + static_cast<std::ptrdiff_t>(from), lines_.end()};
}

}  // namespace ttt::client
