#include "bot/bot_challenges.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ostream>

#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

std::string challenger_name(const std::string& text) { return safe_text(text, field_width::kName); }

const char* how_text(wire::ChallengeEnd how) {
  switch (how) {
    case wire::CHALLENGE_END_DECLINED:
      return "declined";
    case wire::CHALLENGE_END_EXPIRED:
      return "expired without an answer";
    case wire::CHALLENGE_END_WITHDRAWN:
      return "was withdrawn";
    case wire::CHALLENGE_END_UNAVAILABLE:
      return "ended: the player went offline or into a game";
    default:
      return "ended";
  }
}

}  // namespace

bool same_name(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

BotChallenges::BotChallenges(std::string label, const BotOptions& options, std::ostream& err)
    : label_(std::move(label)), options_(options), err_(err) {}

wire::ClientMessage BotChallenges::answer(const wire::ChallengeOffer& offer, bool free) const {
  const auto& from = options_.accept_from;
  const bool wanted =
      options_.mode == BotMode::AcceptChallenges && free &&
      (from.empty() || std::any_of(from.begin(), from.end(), [&](const std::string& name) {
         return same_name(name, offer.from());
       }));
  spdlog::info("{}: {} challenge {} from {}", label_, wanted ? "accepts" : "declines",
               offer.challenge_id(), challenger_name(offer.from()));
  wire::ClientMessage answer;
  answer.mutable_answer_challenge()->set_challenge_id(offer.challenge_id());
  answer.mutable_answer_challenge()->set_accept(wanted);
  return answer;
}

void BotChallenges::sent(const wire::ChallengeSent& sent) const {
  spdlog::info("{}: challenged {} (challenge {})", label_, challenger_name(sent.settings().name()),
               sent.challenge_id());
}

bool BotChallenges::ends_run(const wire::ChallengeEnded& ended, bool free) const {
  if (options_.mode != BotMode::Challenge || !same_name(ended.challenged(), options_.opponent) ||
      !free) {
    return false;
  }
  err_ << "ttt-bot: " << label_ << ": the challenge to " << challenger_name(ended.challenged())
       << " " << how_text(ended.how()) << std::endl;
  return true;
}

}  // namespace ttt::client
