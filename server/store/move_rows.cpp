#include "store/move_rows.hpp"

namespace ttt::server {

void MoveRows::add(std::int64_t game_id, int ply, const StoredMove& move) {
  const std::int64_t values[kColumns] = {game_id,  ply,        move.row,
                                         move.col, move.at_ms, move.clock_ms};
  for (int i = 0; i < kColumns; ++i) {
    columns_[i] += count_ == 0 ? '{' : ',';
    columns_[i] += std::to_string(values[i]);
  }
  ++count_;
}

std::vector<PgParam> MoveRows::params() const {
  std::vector<PgParam> params;
  params.reserve(kColumns);
  for (const auto& column : columns_) params.emplace_back(column + '}');
  return params;
}

void MoveRows::clear() noexcept {
  for (auto& column : columns_) column.clear();
  count_ = 0;
}

}  // namespace ttt::server
