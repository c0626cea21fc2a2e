// MoveRows: moves gathered for one multi-row INSERT on PostgreSQL, each
// column as an array literal ("{1,2,3}") for unnest(): a batch's moves go to
// the database as one statement instead of one each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "records.hpp"
#include "store/postgres.hpp"

namespace ttt::server {

class MoveRows {
 public:
  void add(std::int64_t game_id, int ply, const StoredMove& move);
  int count() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  // The six columns (game_id, ply, row, col, at_ms, clock_ms) as the
  // parameters $1 to $6 of the INSERT below.
  std::vector<PgParam> params() const;
  void clear() noexcept;

 private:
  static constexpr int kColumns = 6;
  std::string columns_[kColumns];  // each "{a,b,c" until params() closes it
  int count_ = 0;
};

// The INSERT of MoveRows' parameters.
#define TTT_INSERT_MOVE_ROWS                                                            \
  "INSERT INTO moves (game_id, ply, \"row\", col, at_ms, clock_ms) SELECT m.game_id, "  \
  "m.ply, m.r, m.c, m.at_ms, m.clock_ms FROM unnest($1::bigint[], $2::integer[], "      \
  "$3::integer[], $4::integer[], $5::bigint[], $6::bigint[]) AS m(game_id, ply, r, c, " \
  "at_ms, clock_ms) "

}  // namespace ttt::server
