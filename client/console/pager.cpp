#include "console/pager.hpp"

#include "text/display_width.hpp"

namespace ttt::client {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string word_of(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  return std::string(line.substr(first, line.find_last_not_of(" \t") - first + 1));
}

}  // namespace

void Pager::clear() {
  lines_.clear();
  next_line_ = 0;
  replay_.reset();
}

void Pager::show(std::string_view text) {
  clear();
  std::vector<std::string> lines = lines_of(text);
  if (!terminal_.interactive()) {
    std::string out;
    for (std::size_t i = 0; i < lines.size() && i < kScriptLines; ++i) out += lines[i] + "\n";
    if (lines.size() > kScriptLines) {
      out += "(" + std::to_string(lines.size() - kScriptLines) +
             " more lines not shown: a script gets the first " + std::to_string(kScriptLines) +
             " lines of a list)\n";
    }
    terminal_.print(out);
    return;
  }
  const ScreenSize size = terminal_.size();
  if (screen_rows(text, size.columns) < size.rows) {  // the prompt keeps the last row
    terminal_.print(text);
    return;
  }
  lines_ = std::move(lines);
  print_page(size.rows - 1);
}

void Pager::print_page(std::size_t rows) {
  const std::size_t columns = terminal_.size().columns;
  std::string out;
  std::size_t used = 0;
  while (next_line_ < lines_.size()) {
    const std::size_t need = screen_rows(lines_[next_line_], columns);
    if (used > 0 && used + need > rows) break;  // a page shows at least one line
    out += lines_[next_line_++] + "\n";
    used += need;
  }
  if (next_line_ >= lines_.size()) lines_.clear();
  terminal_.print(out);
}

void Pager::show_replay(const wire::GameRecord& record, RenderStyle style, TimeZone zone) {
  clear();
  std::string error;
  std::optional<Replay> made = Replay::of(record, error);
  if (!made) {
    terminal_.print("Record " + std::to_string(record.record_id()) +
                    " can't be replayed: " + error + "\n");
    return;
  }
  Replay& replay = *made;
  terminal_.print("\n" + replay.header(zone) + "\n");
  if (!terminal_.interactive()) {
    while (!replay.done()) terminal_.print("\n" + replay.next(style));
    return;
  }
  if (replay.done()) return;
  replay_ = std::move(replay);
  style_ = style;
  terminal_.print("Press Enter for each move; q stops the replay.\n");
}

void Pager::step_replay() {
  terminal_.print("\n" + replay_->next(style_));
  if (replay_->done()) {
    replay_.reset();
    terminal_.print("End of the replay.\n");
  }
}

bool Pager::take(std::string_view line) {
  const std::string word = word_of(line);
  const bool replaying = replay_.has_value();
  if (!word.empty()) {
    clear();
    if (replaying) terminal_.print("Replay stopped.\n");
    return word == "q" || word == "Q";  // anything else is acted on
  }
  if (replaying) {
    step_replay();
  } else {
    // The line typed (empty) took a row: a page is a screen less two.
    const std::size_t rows = terminal_.size().rows;
    print_page(rows > 2 ? rows - 2 : 1);
  }
  return true;
}

std::string Pager::prompt() const {
  if (replay_) {
    return "replay: Enter for move " + std::to_string(replay_->shown() + 1) + " of " +
           std::to_string(replay_->moves()) + ", q to stop> ";
  }
  return "more: Enter for line " + std::to_string(next_line_ + 1) + " of " +
         std::to_string(lines_.size()) + ", q to stop> ";
}

}  // namespace ttt::client
