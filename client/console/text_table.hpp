// TextTable: a table of text laid out to fit a screen's width. Columns are
// padded to a width of their own when there is room, else only as wide as
// their cells; when the rows are still too wide, the optional columns are
// left out (the lowest priority first), then the columns that may shrink
// (names, results) are cut down to their least width, and only then are
// other columns left out, the lowest priority first. The last column shown
// may wrap its words onto the lines below, under itself. Cells are padded by
// display width; no line ends in spaces.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ttt::client {

// The width of a column of names (/who, /top, /history); longer names are cut.
inline constexpr std::size_t kNameColumnWidth = 18;

struct TableColumn {
  std::string header;
  int priority = 0;           // higher stays longer
  std::size_t min_width = 0;  // may be cut down to this (with "…"); 0: never cut
  bool right = false;         // right-aligned (numbers)
  bool wraps = false;         // when last: its words wrap below, under itself
  std::size_t gap = 2;        // spaces before it (none before the first)
  std::size_t width = 0;      // padded to this when the whole table fits so
  bool optional = false;      // left out before any cell is cut
};

class TextTable {
 public:
  explicit TextTable(std::vector<TableColumn> columns);

  // A row: one cell a column (missing cells are empty).
  void add_row(std::vector<std::string> cells);

  // The header and the rows, each line ending in '\n', at most width
  // columns wide (width 0: every column at its full width).
  std::string render(std::size_t width) const;

 private:
  using Layout = std::vector<std::pair<std::size_t, std::size_t>>;  // column, width
  // The columns shown at `width`, and each one's width.
  Layout fit(std::size_t width) const;
  std::size_t total(const Layout& layout) const;

  std::vector<TableColumn> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Rows of two columns, as /help and the full screen's key help show them:
// each key at `indent`, its description at indent + key_width (or on the
// next line when the key is wider), the description's words wrapping under
// itself so that no line is wider than width (0: no limit). Each line ends
// in '\n'.
std::string two_columns(const std::vector<std::pair<std::string, std::string>>& rows,
                        std::size_t indent, std::size_t key_width, std::size_t width);

}  // namespace ttt::client
