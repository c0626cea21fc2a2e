#include "lobby/invite_codes.hpp"

#include <algorithm>

#include "lobby/secrets.hpp"

namespace ttt::server {
namespace {

std::string private_game(std::uint64_t game) {
  return "game " + std::to_string(game) + " is private: a matching invite code is needed";
}

}  // namespace

InviteCodes::InviteCodes(const GameDirectory& directory, PlayerReplies& replies,
                         InviteLimits limits)
    : directory_(directory),
      replies_(replies),
      per_address_(1000.0 / static_cast<double>(std::max<long long>(limits.retry.count(), 1)),
                   limits.failures_per_address) {}

std::string InviteCodes::issue() const {
  for (;;) {
    std::string code = random_invite_code();
    if (!games_.contains(code)) return display_invite_code(code);
  }
}

void InviteCodes::open(std::string_view code, GameId game) {
  if (!code.empty()) games_[normalize_invite_code(code)] = game;
}

void InviteCodes::close(std::string_view code) {
  if (!code.empty()) games_.erase(normalize_invite_code(code));
}

std::optional<GameId> InviteCodes::game_of(LobbyPlayer& player, RateLimiter* tries,
                                           std::string_view code, std::uint32_t request_id) {
  if (!may_try(player, tries, request_id)) return std::nullopt;
  const std::string normal = normalize_invite_code(code);
  if (auto here = games_.find(normal); !normal.empty() && here != games_.end()) {
    return here->second;
  }
  if (auto listing = directory_.find_by_invite(invite_key(code))) {
    return GameId{listing->summary.game_id()};  // a private game another node holds
  }
  wrong(player, tries, "no game has that invite code", request_id);
  return std::nullopt;
}

bool InviteCodes::admits(LobbyPlayer& player, RateLimiter* tries, GameId game,
                         const RoomSettings& settings, std::string_view code,
                         std::uint32_t request_id) {
  if (!settings.is_private) return true;
  if (!may_try(player, tries, request_id)) return false;
  if (opens(settings, code)) return true;
  wrong(player, tries, private_game(number(game)), request_id);
  return false;
}

bool InviteCodes::opens(const RoomSettings& settings, std::string_view code) {
  return !settings.is_private || equal_constant_time(normalize_invite_code(code),
                                                     normalize_invite_code(settings.invite_code));
}

bool InviteCodes::admits(LobbyPlayer& player, RateLimiter* tries, const Listing& listing,
                         std::string_view code, std::uint32_t request_id) {
  // A node from before invite keys lists none: its own check decides.
  if (!listing.summary.is_private() || listing.invite_key.empty()) return true;
  if (!may_try(player, tries, request_id)) return false;
  if (equal_constant_time(invite_key(code), listing.invite_key)) return true;
  wrong(player, tries, private_game(listing.summary.game_id()), request_id);
  return false;
}

bool InviteCodes::may_try(LobbyPlayer& player, RateLimiter* tries, std::uint32_t request_id) {
  const auto now = RateLimiter::Clock::now();
  double wait = per_address_.wait_seconds(player.address, now);
  if (tries != nullptr && !tries->would_allow(now)) wait = std::max(wait, 1.0);
  if (wait == 0.0) return true;
  replies_.error(player, wire::ERROR_CODE_RATE_LIMITED,
                 "too many wrong invite codes: try again in " +
                     std::to_string(static_cast<int>(std::max(1.0, wait + 0.999))) + " s",
                 request_id);
  return false;
}

void InviteCodes::wrong(LobbyPlayer& player, RateLimiter* tries, std::string text,
                        std::uint32_t request_id) {
  const auto now = RateLimiter::Clock::now();
  if (tries != nullptr) tries->allow(now);
  if (!player.address.empty()) per_address_.allow(player.address, now);
  replies_.error(player, wire::ERROR_CODE_WRONG_INVITE_CODE, std::move(text), request_id);
}

}  // namespace ttt::server
