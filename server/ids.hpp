// The server's identifiers, as distinct types so that one can't be passed
// for another: an account (a name with its secret and rating), a seat-holder
// (whoever sits or watches: a human's is their account's number, each of the
// server's bots has one per game), a game room, and one game's record in the
// journal.
#pragma once

#include <cstdint>

namespace ttt::server {

enum class AccountId : std::uint64_t {};
enum class SeatId : std::uint64_t {};
enum class GameId : std::uint64_t {};
enum class RecordId : std::int64_t {};

// The number behind an id, for the wire, the database and the log.
constexpr std::uint64_t number(AccountId id) noexcept { return static_cast<std::uint64_t>(id); }
constexpr std::uint64_t number(SeatId id) noexcept { return static_cast<std::uint64_t>(id); }
constexpr std::uint64_t number(GameId id) noexcept { return static_cast<std::uint64_t>(id); }
constexpr std::int64_t number(RecordId id) noexcept { return static_cast<std::int64_t>(id); }

// A human's seat-holder id is their account's number.
constexpr SeatId seat_of(AccountId id) noexcept { return static_cast<SeatId>(number(id)); }

// IdSource: hands out the ids of one kind (rooms, game records, accounts).
// One server counts on from the largest id stored; the nodes of a lobby
// take blocks of a database sequence, so that no two nodes hand out the
// same id (store/sequence_ids.hpp).
class IdSource {
 public:
  virtual ~IdSource() = default;
  virtual std::int64_t next() = 0;
};

}  // namespace ttt::server
