#include "console/text_table.hpp"

#include <algorithm>

#include "text/display_width.hpp"

namespace ttt::client {

TextTable::TextTable(std::vector<TableColumn> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::size_t TextTable::total(const Layout& layout) const {
  std::size_t sum = 0;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    sum += (i == 0 ? 0 : columns_[layout[i].first].gap) + layout[i].second;
  }
  return sum;
}

TextTable::Layout TextTable::fit(std::size_t width) const {
  std::vector<std::size_t> content(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    content[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) content[c] = std::max(content[c], display_width(row[c]));
  }
  std::vector<std::size_t> shown(columns_.size());
  for (std::size_t c = 0; c < shown.size(); ++c) shown[c] = c;
  auto layout_of = [&](bool padded) {
    Layout layout;
    for (const std::size_t c : shown) {
      layout.emplace_back(c, padded ? std::max(content[c], columns_[c].width) : content[c]);
    }
    return layout;
  };
  // The lowest-priority column shown (the rightmost of equals), optional
  // ones only if asked; shown.end() if none.
  auto lowest = [&](bool optional_only) {
    auto found = shown.end();
    for (auto it = shown.begin(); it != shown.end(); ++it) {
      if (optional_only && !columns_[*it].optional) continue;
      if (found == shown.end() || columns_[*it].priority <= columns_[*found].priority) found = it;
    }
    return found;
  };
  if (Layout padded = layout_of(true); width == 0 || total(padded) <= width) return padded;
  Layout layout = layout_of(false);
  while (total(layout) > width) {
    const auto optional = lowest(true);
    if (optional == shown.end()) break;
    shown.erase(optional);
    layout = layout_of(false);
  }
  for (;;) {
    std::size_t sum = total(layout);
    // Cut the widest column that may shrink, until the rest fits.
    while (sum > width) {
      auto widest = layout.end();
      for (auto it = layout.begin(); it != layout.end(); ++it) {
        const TableColumn& column = columns_[it->first];
        const std::size_t least = std::max<std::size_t>(column.min_width, 1);
        const bool may_shrink = (column.min_width > 0 || column.wraps) && it->second > least;
        if (may_shrink && (widest == layout.end() || it->second > widest->second)) widest = it;
      }
      if (widest == layout.end()) break;
      widest->second -= 1;
      sum -= 1;
    }
    if (sum <= width || shown.size() <= 1) return layout;
    shown.erase(lowest(false));
    layout = layout_of(false);
  }
}

std::string TextTable::render(std::size_t width) const {
  const Layout layout = fit(width);
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    // Each cell's pieces: the last column may wrap, the others are cut.
    std::vector<std::vector<std::string>> pieces;
    std::size_t lines = 1;
    for (std::size_t i = 0; i < layout.size(); ++i) {
      const auto [c, w] = layout[i];
      if (i + 1 == layout.size() && columns_[c].wraps) {
        pieces.push_back(wrap_words(cells[c], w));
      } else {
        pieces.push_back({cut_to_width(cells[c], w)});
      }
      lines = std::max(lines, pieces.back().size());
    }
    for (std::size_t l = 0; l < lines; ++l) {
      std::string text;
      for (std::size_t i = 0; i < layout.size(); ++i) {
        const auto [c, w] = layout[i];
        if (i > 0) text.append(columns_[c].gap, ' ');
        const std::string cell = l < pieces[i].size() ? pieces[i][l] : "";
        text += columns_[c].right ? pad_left(cell, w) : pad_right(cell, w);
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + "\n";
    }
  };
  std::vector<std::string> header;
  for (const TableColumn& column : columns_) header.push_back(column.header);
  line(header);
  for (const auto& row : rows_) line(row);
  return out;
}

std::string two_columns(const std::vector<std::pair<std::string, std::string>>& rows,
                        std::size_t indent, std::size_t key_width, std::size_t width) {
  std::size_t at = indent + key_width;                               // where descriptions start
  if (width != 0 && at + 20 > width) at = std::min(at, indent + 4);  // narrow: under the key
  std::string out;
  for (const auto& [key, what] : rows) {
    const std::string lead(indent, ' ');
    std::string line = lead + key;
    if (display_width(line) + 1 > at) {
      for (const std::string& piece : wrap_words(line, width, indent)) out += piece + "\n";
      line.clear();
    }
    if (what.empty()) {
      if (!line.empty()) out += line + "\n";
      continue;
    }
    line = pad_right(line, at) + what;
    for (const std::string& piece : wrap_words(line, width, at)) {
      out += piece + "\n";
    }
  }
  return out;
}

}  // namespace ttt::client
