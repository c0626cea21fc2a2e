// OtherPlayers: what this player has to do with the others one by one.
// Challenges received (a line and a bell; a muted player's declined
// unseen), sent and ended, /challenges on|off answered; /block and
// /unblock with their answers worded after what was asked; /mute and
// /unmute (MuteList: a muted player's chat is hidden too).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "console/command.hpp"
#include "console/mute_list.hpp"
#include "console/request_sender.hpp"
#include "console/terminal.hpp"

namespace ttt::client {

class OtherPlayers {
 public:
  // Challenges of muted players declined unseen and remembered (their ends
  // are not said either), at most.
  static constexpr std::size_t kMaxMutedChallenges = 1024;

  OtherPlayers(Terminal& terminal, RequestSender& sender) : terminal_(terminal), sender_(sender) {}

  // Our name as the server holds it (from the Welcome).
  void set_own_name(std::string name) { own_name_ = std::move(name); }

  // /block, /unblock, /mute, /unmute, and /decline of a challenge (game:
  // the current game, or null; its open offer is what /decline answers
  // first): true when the command was one of them (carried out).
  bool execute(const Command& command, const wire::GameState* game);

  // Challenges and block lists: true when the message was one of them.
  bool on_message(const wire::ServerMessage& message);

  // Whether a player's chat is hidden (/mute).
  bool muted(const std::string& name) const { return mutes_.muted(name); }

 private:
  void mute(const std::string& name);
  void on_challenge_offer(const wire::ChallengeOffer& offer);
  void on_block_list(const wire::BlockList& list, std::uint32_t in_reply_to);
  void say(const std::string& line);

  Terminal& terminal_;
  RequestSender& sender_;
  std::string own_name_;
  MuteList mutes_;
  std::set<std::uint64_t> challenges_received_;      // the ids of those standing
  std::set<std::uint64_t> muted_challenges_;         // declined unseen: their ends are not said
  std::map<std::uint32_t, Command> block_requests_;  // /block, /unblock in flight
};

}  // namespace ttt::client
