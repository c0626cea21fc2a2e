// BotChallenges: a bot and the challenges between players. One started with
// --accept-challenges takes the challenges of anyone (or of the names given
// with --from) while it is free, and declines the others; every other bot
// declines them all. One started with --challenge NAME challenges that
// player; when that challenge ends without a game, the bot's run is over,
// said on stderr.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "bot/bot_options.hpp"
#include "ttt.pb.h"

namespace ttt::client {

// ASCII letters without case, as the server compares names.
bool same_name(std::string_view a, std::string_view b) noexcept;

class BotChallenges {
 public:
  // label names the bot in its log; the options are read as they are.
  BotChallenges(std::string label, const BotOptions& options, std::ostream& err);

  // The answer to a challenge to the bot (free: in no game, not stopping).
  wire::ClientMessage answer(const wire::ChallengeOffer& offer, bool free) const;

  // The server took the bot's challenge: logged.
  void sent(const wire::ChallengeSent& sent) const;

  // A challenge ended: true when it was the bot's own, ended without a game
  // while it was free: the run is over (said, once, on err).
  bool ends_run(const wire::ChallengeEnded& ended, bool free) const;

 private:
  std::string label_;
  const BotOptions& options_;
  std::ostream& err_;
};

}  // namespace ttt::client
