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
using GameId = std::uint64_t;
using RecordId = std::int64_t;

// The number behind an id, for the wire, the database and the log.
constexpr std::uint64_t number(AccountId id) noexcept { return static_cast<std::uint64_t>(id); }
constexpr std::uint64_t number(SeatId id) noexcept { return static_cast<std::uint64_t>(id); }

// A human's seat-holder id is their account's number.
constexpr SeatId seat_of(AccountId id) noexcept { return static_cast<SeatId>(number(id)); }

}  // namespace ttt::server
