#include "ttt/wire/convert.hpp"

namespace ttt::wire {

Side side_of(Player player) noexcept { return player == Player::X ? SIDE_X : SIDE_O; }

Player player_of(Side side) noexcept { return side == SIDE_O ? Player::O : Player::X; }

std::optional<Level> level_of(BotLevel level) noexcept {
  switch (level) {
    case BOT_LEVEL_RANDOM:
      return Level::Random;
    case BOT_LEVEL_EASY:
      return Level::Easy;
    case BOT_LEVEL_MEDIUM:
      return Level::Medium;
    case BOT_LEVEL_HARD:
      return Level::Hard;
    case BOT_LEVEL_UNSPECIFIED:
    case BOT_LEVEL_PERFECT:
      return Level::Perfect;
    default:
      return std::nullopt;
  }
}

BotLevel bot_level_of(Level level) noexcept {
  switch (level) {
    case Level::Random:
      return BOT_LEVEL_RANDOM;
    case Level::Easy:
      return BOT_LEVEL_EASY;
    case Level::Medium:
      return BOT_LEVEL_MEDIUM;
    case Level::Hard:
      return BOT_LEVEL_HARD;
    case Level::Perfect:
      return BOT_LEVEL_PERFECT;
  }
  return BOT_LEVEL_PERFECT;
}

LineKind line_kind_of(ttt::LineKind kind) noexcept {
  switch (kind) {
    case ttt::LineKind::Row:
      return LINE_KIND_ROW;
    case ttt::LineKind::Column:
      return LINE_KIND_COLUMN;
    case ttt::LineKind::Diagonal:
      return LINE_KIND_DIAGONAL;
    case ttt::LineKind::AntiDiagonal:
      return LINE_KIND_ANTI_DIAGONAL;
  }
  return LINE_KIND_NONE;
}

std::optional<ttt::Line> line_of(const Line& line) noexcept {
  ttt::Line out{ttt::LineKind::Row, line.index()};
  switch (line.kind()) {
    case LINE_KIND_ROW:
      out.kind = ttt::LineKind::Row;
      break;
    case LINE_KIND_COLUMN:
      out.kind = ttt::LineKind::Column;
      break;
    case LINE_KIND_DIAGONAL:
      out.kind = ttt::LineKind::Diagonal;
      break;
    case LINE_KIND_ANTI_DIAGONAL:
      out.kind = ttt::LineKind::AntiDiagonal;
      break;
    default:
      return std::nullopt;
  }
  if (line.length() <= 0) {
    // A whole main diagonal has index 0 whatever was sent.
    if (out.kind == ttt::LineKind::Diagonal || out.kind == ttt::LineKind::AntiDiagonal) {
      out.index = 0;
    }
    return out;
  }
  out.start = Move{line.start().row(), line.start().col()};
  out.length = line.length();
  return out;
}

Line wire_line_of(const ttt::Line& line) {
  Line out;
  out.set_kind(line_kind_of(line.kind));
  out.set_index(line.index);
  if (line.length > 0) {
    out.mutable_start()->set_row(line.start.row);
    out.mutable_start()->set_col(line.start.col);
    out.set_length(line.length);
  }
  return out;
}

int win_length_of(int size, int win_length) noexcept { return win_length == 0 ? size : win_length; }

ErrorCode error_code_of(MoveError error) noexcept {
  switch (error) {
    case MoveError::OutOfRange:
      return ERROR_CODE_OUT_OF_RANGE;
    case MoveError::NotYourTurn:
      return ERROR_CODE_NOT_YOUR_TURN;
    case MoveError::Occupied:
      return ERROR_CODE_OCCUPIED;
    case MoveError::GameOver:
      return ERROR_CODE_GAME_OVER;
  }
  return ERROR_CODE_UNSPECIFIED;
}

}  // namespace ttt::wire
