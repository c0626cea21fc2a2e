// ChallengeDesk: challenges (one player invites another by name; the game
// starts when they accept, with the challenger's settings) and blocks (a
// player's challenges and chat kept from an account that blocked it). It
// owns the challenges waiting for an answer and the rates they may be made
// at (ChallengeBook), each challenge's expiry, and answers Challenge,
// AnswerChallenge, ChallengeSettings and Block. A challenge to a player at
// another node is made there (the challenger is sent through the host).
// Runs on the logic executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "game/game_room.hpp"
#include "ids.hpp"
#include "lobby/account_store.hpp"
#include "lobby/challenge_book.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_request_checks.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/player_table.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// What the challenge desk asks of the lobby around it (the Lobby, or a
// test's fake).
class ChallengeHost : public virtual PlayerReplies {
 public:
  // A challenge was accepted: both leave what they watch or wait for and sit
  // in a new room by its settings, the challenger as X, the challenged as O
  // (answering request_id); their seats count against their addresses and
  // their other challenges end. Returns the room.
  virtual std::shared_ptr<GameRoom> open_challenge_game(LobbyPlayer& challenger,
                                                        LobbyPlayer& challenged,
                                                        const wire::Challenge& settings,
                                                        std::uint32_t request_id) = 0;
  // Asks node `to` to keep a place for the player and sends it there
  // (NodeRouter::seat_elsewhere); an error to the player if refused.
  virtual void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                              std::uint32_t request_id) = 0;
  // The server shuts down: no new games.
  virtual bool shutting_down() const noexcept = 0;
};

// How long a challenge stands, and how often challenges may be made.
struct ChallengeTerms {
  std::chrono::milliseconds lifetime{60'000};
  ChallengeLimits limits;
};

class ChallengeDesk {
 public:
  // players, accounts, cluster, checks and host outlive the desk; expiry
  // timers run on `logic`.
  ChallengeDesk(boost::asio::any_io_executor logic, const PlayerTable& players,
                AccountStore& accounts, Cluster& cluster, GameRequestChecks& checks,
                ChallengeHost& host, ChallengeTerms terms);

  ChallengeDesk(const ChallengeDesk&) = delete;
  ChallengeDesk& operator=(const ChallengeDesk&) = delete;

  // Challenge: made (ChallengeSent to the challenger, ChallengeOffer to the
  // challenged, standing until it expires), made at the challenged player's
  // node, or refused with why.
  void challenge(LobbyPlayer& player, const wire::Challenge& request, std::uint32_t request_id);
  // AnswerChallenge (by id, or 0: the latest to the player): declined, the
  // challenge ends for both; accepted, the game starts (the host opens it).
  void answer(LobbyPlayer& player, const wire::AnswerChallenge& answer, std::uint32_t request_id);
  // ChallengeSettings: refusing all challenges declines those standing.
  void settings(LobbyPlayer& player, const wire::ChallengeSettings& settings,
                std::uint32_t request_id);
  // Block (or unblock) a player by name, then the block list; a block
  // declines the blocked player's standing challenges.
  void block(LobbyPlayer& player, const wire::Block& request, std::uint32_t request_id);

  // Why `target` takes no challenge from account `from` now (busy, not
  // taking challenges, blocking it), or nullopt.
  std::optional<std::pair<wire::ErrorCode, std::string>> refusal(const LobbyPlayer& target,
                                                                 AccountId from) const;
  // The player went offline, away or into a game: the challenges it made
  // are withdrawn, those it received can no longer be taken.
  void end_all_of(const LobbyPlayer& player);

  // Challenges standing.
  std::size_t size() const noexcept { return book_.size(); }

 private:
  // The challenge ends without a game; both players are told how.
  void end(std::uint64_t id, wire::ChallengeEnd how);
  // Several nodes: a challenge to a player at another node, made there.
  void challenge_elsewhere(LobbyPlayer& player, const std::string& node, wire::Challenge settings,
                           std::uint32_t request_id);
  // Whether the player sits in a game now (ALREADY_IN_GAME replied then).
  bool seated_now(LobbyPlayer& player, std::uint32_t request_id);
  // Whether the player may challenge `name`: not itself, not seated in a
  // game (replied if not).
  bool may_challenge(LobbyPlayer& player, std::string_view name, std::uint32_t request_id);
  // Whether the player may make another challenge (to `to`) now: within its
  // own, its address's and its network's rates, and not `to` again too
  // soon; replies RATE_LIMITED if not.
  bool may_challenge_now(LobbyPlayer& player, const LobbyPlayer& to, std::uint32_t request_id);

  boost::asio::any_io_executor logic_;
  const PlayerTable& players_;
  AccountStore& accounts_;
  Cluster& cluster_;
  GameRequestChecks& checks_;  // a challenge's rules, clock and seats
  ChallengeHost& host_;
  std::chrono::milliseconds lifetime_;
  ChallengeBook book_;  // the challenges waiting for an answer; the rates
};

}  // namespace ttt::server
