// BotPlayer and challenges: a bot started with --challenge NAME challenges
// that player (again after each series of rematches); one started with
// --accept-challenges takes the challenges of anyone (or of the names given
// with --from) and declines the others, leaving each game once it is over to
// wait for the next, until stopped or --games are played. A challenge that ends without a
// game ends the challenging bot's run, said on stderr and counted an error.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>

#include "bot/bot_player.hpp"
#include "text/safe_text.hpp"

namespace ttt::client {
namespace {

std::string shown_name(const std::string& text) { return safe_text(text, field_width::kName); }

// ASCII letters without case, as the server compares names it knows.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

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

bool BotPlayer::on_challenge_message(const wire::ServerMessage& message) {
  switch (message.body_case()) {
    case wire::ServerMessage::kChallengeOffer: {
      const wire::ChallengeOffer& offer = message.challenge_offer();
      const auto& from = options_.accept_from;
      const bool wanted =
          options_.mode == BotMode::AcceptChallenges && !game_ && !finishing_ &&
          (from.empty() || std::any_of(from.begin(), from.end(), [&](const std::string& name) {
             return same_name(name, offer.from());
           }));
      spdlog::info("{}: {} challenge {} from {}", label_, wanted ? "accepts" : "declines",
                   offer.challenge_id(), shown_name(offer.from()));
      wire::ClientMessage answer;
      answer.mutable_answer_challenge()->set_challenge_id(offer.challenge_id());
      answer.mutable_answer_challenge()->set_accept(wanted);
      send(std::move(answer), Request::Answer);
      return true;
    }
    case wire::ServerMessage::kChallengeSent:
      spdlog::info("{}: challenged {} (challenge {})", label_,
                   shown_name(message.challenge_sent().settings().name()),
                   message.challenge_sent().challenge_id());
      return true;
    case wire::ServerMessage::kChallengeEnded: {
      const wire::ChallengeEnded& ended = message.challenge_ended();
      if (options_.mode != BotMode::Challenge ||
          !same_name(ended.challenged(), options_.opponent) || game_ || finishing_) {
        return true;
      }
      std::cerr << "ttt-bot: " << label_ << ": the challenge to " << shown_name(ended.challenged())
                << " " << how_text(ended.how()) << std::endl;
      ++tally_.errors;  // said once, above
      finish();
      return true;
    }
    default:
      return false;
  }
}

}  // namespace ttt::client
