#include "console/other_players.hpp"

#include "console/players_text.hpp"

namespace ttt::client {

bool OtherPlayers::execute(const Command& command, const wire::GameState* game) {
  wire::ClientMessage m;
  switch (command.kind) {
    case CommandKind::Mute:
      mute(command.text);
      return true;
    case CommandKind::Unmute:
      say(mutes_.unmute(command.text) ? "You hear " + command.text + " again."
                                      : command.text + " was not muted.");
      return true;
    case CommandKind::Block:
    case CommandKind::Unblock: {
      m.mutable_block()->set_name(command.text);
      m.mutable_block()->set_blocked(command.kind == CommandKind::Block);
      // The answer lists who is blocked; it is worded after what was asked.
      if (const std::uint32_t id = sender_.send(m, true); id != 0) block_requests_[id] = command;
      return true;
    }
    case CommandKind::Decline:
      // The opponent's offer comes first; without one, a challenge.
      if (command.challenge_id == 0 &&
          (challenges_received_.empty() ||
           (game && (game->draw_offered_by() != wire::SIDE_NONE ||
                     game->rematch_requested_by() != wire::SIDE_NONE)))) {
        return false;
      }
      m.mutable_answer_challenge()->set_challenge_id(command.challenge_id);
      m.mutable_answer_challenge()->set_accept(false);
      sender_.send(m, true);
      return true;
    default:
      return false;
  }
}

void OtherPlayers::mute(const std::string& name) {
  if (name.empty()) {
    const auto names = mutes_.names();
    std::string line = names.empty() ? "Nobody is muted." : "Muted:";
    for (const auto& muted : names) line += " " + muted + ";";
    if (!names.empty()) line.back() = '.';
    say(line);
  } else if (mutes_.mute(name)) {
    say("Muted " + name + ": their chat is hidden and their challenges declined unseen, " +
        "until /unmute " + name + ".");
  } else {
    say(name + " is muted already.");
  }
}

bool OtherPlayers::on_message(const wire::ServerMessage& message) {
  switch (message.body_case()) {
    case wire::ServerMessage::kChallengeOffer:
      on_challenge_offer(message.challenge_offer());
      return true;
    case wire::ServerMessage::kChallengeSent:
      say(challenge_sent_text(message.challenge_sent()));
      return true;
    case wire::ServerMessage::kChallengeEnded:
      if (muted_challenges_.erase(message.challenge_ended().challenge_id()) > 0) return true;
      challenges_received_.erase(message.challenge_ended().challenge_id());
      say(challenge_ended_text(message.challenge_ended(), own_name_));
      return true;
    case wire::ServerMessage::kChallengeSettings:
      say(message.challenge_settings().refuse_all()
              ? "You refuse every challenge now (/challenges on to take them again)."
              : "You take challenges (/challenges off to refuse them all).");
      return true;
    case wire::ServerMessage::kBlockList:
      on_block_list(message.block_list(), message.in_reply_to());
      return true;
    default:
      return false;
  }
}

void OtherPlayers::on_challenge_offer(const wire::ChallengeOffer& offer) {
  if (mutes_.muted(offer.from())) {
    // Declined unseen; its end is not said either.
    if (muted_challenges_.size() < kMaxMutedChallenges) {
      muted_challenges_.insert(offer.challenge_id());
    }
    wire::ClientMessage decline;
    decline.mutable_answer_challenge()->set_challenge_id(offer.challenge_id());
    decline.mutable_answer_challenge()->set_accept(false);
    sender_.send_quietly(std::move(decline));
    return;
  }
  challenges_received_.insert(offer.challenge_id());
  if (terminal_.interactive()) terminal_.bell();
  say(challenge_offer_text(offer));
}

void OtherPlayers::on_block_list(const wire::BlockList& list, std::uint32_t in_reply_to) {
  const auto asked = block_requests_.find(in_reply_to);
  if (asked == block_requests_.end() || asked->second.text.empty()) {
    if (asked != block_requests_.end()) block_requests_.erase(asked);
    say(block_list_text(list));
    return;
  }
  const Command command = std::move(asked->second);
  block_requests_.erase(asked);
  say(block_answer_text(list, command.text, command.kind == CommandKind::Block));
}

void OtherPlayers::say(const std::string& line) { terminal_.print(line + "\n"); }

}  // namespace ttt::client
