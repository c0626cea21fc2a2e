#include "lobby/challenge_desk.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/steady_timer.hpp>

#include "game/ms_until.hpp"
#include "lobby/text_rules.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {

ChallengeDesk::ChallengeDesk(boost::asio::any_io_executor logic, const PlayerTable& players,
                             AccountStore& accounts, Cluster& cluster, GameRequestChecks& checks,
                             ChallengeHost& host, ChallengeTerms terms)
    : logic_(std::move(logic)),
      players_(players),
      accounts_(accounts),
      cluster_(cluster),
      checks_(checks),
      host_(host),
      lifetime_(terms.lifetime),
      book_(terms.limits) {}

bool ChallengeDesk::may_challenge_now(LobbyPlayer& player, const LobbyPlayer& to,
                                      std::uint32_t request_id) {
  auto refusal = book_.spend_allowance(player.account, player.address, to.account, to.name);
  if (refusal) host_.error(player, wire::ERROR_CODE_RATE_LIMITED, std::move(*refusal), request_id);
  return !refusal;
}

void ChallengeDesk::challenge(LobbyPlayer& player, const wire::Challenge& request,
                              std::uint32_t request_id) {
  wire::Challenge settings = request;
  if (settings.size() == 0) settings.set_size(3);
  if (!checks_.valid_rules(player, settings.size(), settings.win_length(), request_id)) return;
  if (!checks_.valid_clock(player, settings.clock(), request_id)) return;
  settings.set_win_length(wire::win_length_of(settings.size(), settings.win_length()));
  if (request.name().empty() || request.name().size() > kMaxNameBytes) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                "a challenge names a player (up to " + std::to_string(kMaxNameBytes) + " bytes)",
                request_id);
    return;
  }
  LobbyPlayer* target = players_.online(name_key(request.name()));
  if (target == nullptr) {
    if (const auto elsewhere = cluster_.other_player(name_key(request.name()))) {
      settings.set_name(elsewhere->second.name());
      challenge_elsewhere(player, elsewhere->first, settings, request_id);
      return;
    }
    if (accounts_.find(name_key(request.name())) == nullptr) {
      host_.error(player, wire::ERROR_CODE_NO_RECORD, "no player is called " + request.name(),
                  request_id);
    } else {
      host_.error(player, wire::ERROR_CODE_PLAYER_OFFLINE, "not online now: " + request.name(),
                  request_id);
    }
    return;
  }
  settings.set_name(target->name);
  if (!may_challenge(player, target->name, request_id)) return;
  if (auto why = refusal(*target, player.account)) {
    host_.error(player, why->first, why->second, request_id);
    return;
  }
  if (const auto standing = book_.between(player.id, target->id)) {
    host_.error(
        player, wire::ERROR_CODE_BAD_REQUEST,
        "you challenged " + target->name + " already (challenge " + std::to_string(*standing) + ")",
        request_id);
    return;
  }
  if (book_.made_count(player.id) >= ChallengeBook::kMostStanding) {
    host_.error(player, wire::ERROR_CODE_TOO_MANY_CHALLENGES,
                std::to_string(ChallengeBook::kMostStanding) +
                    " of your challenges stand already: wait for an answer",
                request_id);
    return;
  }
  if (!may_challenge_now(player, *target, request_id)) return;
  PendingChallenge made;
  made.from = player.id;
  made.to = target->id;
  made.settings = settings;
  made.expires = std::chrono::steady_clock::now() + lifetime_;
  made.expiry = std::make_shared<boost::asio::steady_timer>(logic_, made.expires);
  const auto expiry = made.expiry;
  const std::uint64_t id = book_.add(std::move(made));
  const PendingChallenge& pending = *book_.find(id);
  expiry->async_wait([this, id](boost::system::error_code ec) {
    if (!ec) end(id, wire::CHALLENGE_END_EXPIRED);
  });
  wire::ServerMessage sent;
  sent.set_in_reply_to(request_id);
  sent.mutable_challenge_sent()->set_challenge_id(id);
  *sent.mutable_challenge_sent()->mutable_settings() = settings;
  sent.mutable_challenge_sent()->set_expires_in_ms(ms_until(pending.expires));
  host_.reply(player, std::move(sent));
  wire::ServerMessage offer;
  wire::ChallengeOffer* o = offer.mutable_challenge_offer();
  o->set_challenge_id(id);
  o->set_from(player.name);
  o->set_from_rating(accounts_.rating(player.account));
  o->set_from_bot(player.program);
  *o->mutable_settings() = settings;
  o->set_expires_in_ms(ms_until(pending.expires));
  host_.reply(*target, std::move(offer));
  spdlog::debug("challenge {}: {} challenges {}", id, player.name, target->name);
}

std::optional<std::pair<wire::ErrorCode, std::string>> ChallengeDesk::refusal(
    const LobbyPlayer& target, AccountId from) const {
  if (target.room && target.room->is_seated(target.id)) {
    return std::pair{wire::ERROR_CODE_PLAYER_BUSY,
                     "busy: " + target.name +
                         (target.room->waiting() ? " waits for an opponent in a game of theirs"
                                                 : " is playing a game") +
                         "; try again when it is over"};
  }
  // A block is not told as such: it reads as any refusal.
  if (target.refuses_challenges || accounts_.blocks(target.account, from)) {
    return std::pair{wire::ERROR_CODE_CHALLENGE_REFUSED,
                     "refused: " + target.name + " is not taking challenges"};
  }
  return std::nullopt;
}

bool ChallengeDesk::seated_now(LobbyPlayer& player, std::uint32_t request_id) {
  if (!player.room || !player.room->is_seated(player.id)) return false;
  host_.error(player, wire::ERROR_CODE_ALREADY_IN_GAME,
              "you are in game " + std::to_string(number(player.room->id())) + ": leave it first",
              request_id);
  return true;
}

bool ChallengeDesk::may_challenge(LobbyPlayer& player, std::string_view name,
                                  std::uint32_t request_id) {
  if (name_key(name) == name_key(player.name)) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST, "you can't challenge yourself", request_id);
    return false;
  }
  return !seated_now(player, request_id);
}

void ChallengeDesk::challenge_elsewhere(LobbyPlayer& player, const std::string& node,
                                        wire::Challenge settings, std::uint32_t request_id) {
  if (!may_challenge(player, settings.name(), request_id)) return;
  if (host_.shutting_down()) {
    host_.error(player, wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", request_id);
    return;
  }
  // The challenge is made where the challenged player is: that node checks
  // it (online, free, taking challenges, not blocking this player) and keeps
  // a place for the challenger, who is sent there and challenges on arrival.
  SeatRequest request;
  request.kind = SeatRequest::Kind::kChallenge;
  request.challenge = std::move(settings);
  host_.seat_elsewhere(player, node, std::move(request), request_id);
}

void ChallengeDesk::answer(LobbyPlayer& player, const wire::AnswerChallenge& answer,
                           std::uint32_t request_id) {
  std::optional<std::uint64_t> found;
  if (answer.challenge_id() != 0) {
    const PendingChallenge* asked = book_.find(answer.challenge_id());
    if (asked != nullptr && asked->to == player.id) found = answer.challenge_id();
  } else {
    found = book_.latest_to(player.id);
  }
  if (!found) {
    host_.error(player, wire::ERROR_CODE_NO_CHALLENGE,
                answer.challenge_id() == 0
                    ? std::string("no challenge to you stands")
                    : "no challenge " + std::to_string(answer.challenge_id()) + " to you stands",
                request_id);
    return;
  }
  const std::uint64_t id = *found;
  if (!answer.accept()) {
    end(id, wire::CHALLENGE_END_DECLINED);
    return;
  }
  LobbyPlayer* challenger = host_.player_of(book_.find(id)->from);
  if (challenger == nullptr || challenger->inbox == nullptr ||
      (challenger->room && challenger->room->is_seated(challenger->id)) ||
      !checks_.may_hold_seat(*challenger)) {
    end(id, wire::CHALLENGE_END_WITHDRAWN);
    return;
  }
  if (seated_now(player, request_id)) return;
  if (host_.shutting_down()) {
    host_.error(player, wire::ERROR_CODE_SHUTTING_DOWN, "the server is shutting down", request_id);
    return;
  }
  if (!checks_.within_quota(player, false, request_id)) return;
  const auto taken = book_.take(id);
  if (taken->expiry) taken->expiry->cancel();
  // The cool-down keeps a challenge that ends without a game from being made
  // again at once; one that is accepted leaves the pair free to play again.
  book_.accepted(challenger->account, player.account);
  const auto room = host_.open_challenge_game(*challenger, player, taken->settings, request_id);
  spdlog::debug("challenge {} accepted: game {}", id, number(room->id()));
}

void ChallengeDesk::end(std::uint64_t id, wire::ChallengeEnd how) {
  const auto taken = book_.take(id);
  if (!taken) return;
  const PendingChallenge& pending = *taken;
  if (pending.expiry) pending.expiry->cancel();
  LobbyPlayer* from = host_.player_of(pending.from);
  LobbyPlayer* to = host_.player_of(pending.to);
  wire::ServerMessage message;
  wire::ChallengeEnded* ended = message.mutable_challenge_ended();
  ended->set_challenge_id(id);
  ended->set_challenger(from != nullptr ? from->name : "");
  ended->set_challenged(pending.settings.name());
  ended->set_how(how);
  for (LobbyPlayer* p : {from, to}) {
    if (p != nullptr && p->inbox != nullptr) host_.reply(*p, message);
  }
}

void ChallengeDesk::end_all_of(const LobbyPlayer& player) {
  for (std::uint64_t id : book_.made_by(player.id)) end(id, wire::CHALLENGE_END_WITHDRAWN);
  for (std::uint64_t id : book_.received_by(player.id)) end(id, wire::CHALLENGE_END_UNAVAILABLE);
}

void ChallengeDesk::settings(LobbyPlayer& player, const wire::ChallengeSettings& settings,
                             std::uint32_t request_id) {
  player.refuses_challenges = settings.refuse_all();
  if (player.refuses_challenges) {
    for (std::uint64_t id : book_.received_by(player.id)) end(id, wire::CHALLENGE_END_DECLINED);
  }
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  message.mutable_challenge_settings()->set_refuse_all(player.refuses_challenges);
  host_.reply(player, std::move(message));
}

void ChallengeDesk::block(LobbyPlayer& player, const wire::Block& request,
                          std::uint32_t request_id) {
  if (!request.name().empty()) {
    const StoredPlayer* whom = accounts_.find(name_key(request.name()));
    if (whom == nullptr || whom->is_bot) {
      host_.error(player, wire::ERROR_CODE_NO_RECORD, "no player is called " + request.name(),
                  request_id);
      return;
    }
    if (account_id(*whom) == player.account) {
      host_.error(player, wire::ERROR_CODE_BAD_REQUEST, "you can't block yourself", request_id);
      return;
    }
    accounts_.set_blocked(player.account, account_id(*whom), request.blocked());
    if (request.blocked()) {
      // What they asked of this player stands no longer.
      for (std::uint64_t id : book_.received_by(player.id)) {
        const LobbyPlayer* from = host_.player_of(book_.find(id)->from);
        if (from != nullptr && from->account == account_id(*whom)) {
          end(id, wire::CHALLENGE_END_DECLINED);
        }
      }
    }
  }
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::BlockList* list = message.mutable_block_list();  // set even when empty
  for (const std::string& name : accounts_.blocked_names(player.account)) list->add_names(name);
  host_.reply(player, std::move(message));
}

}  // namespace ttt::server
