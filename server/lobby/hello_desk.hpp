// HelloDesk: who a Hello speaks for. It checks a resume token (one issued
// here, or one another node holds) or a name and its secret against the
// accounts, registers a name nobody has within its address's allowance,
// and says where the player is held: here, at another live node, or
// nowhere (its games may be another node's to take over). Failed checks
// make their key wait (IdentityBackoff). It owns the resume tokens it
// issues, the backoff and the new-name allowance.
//
// It asks the Cluster the same questions with one node as with several (a
// node alone answers at once: every player is here, no other node holds a
// token), so the lobby's Hello is one path. Runs on the logic executor;
// answers come there, at once or later.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ids.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/account_store.hpp"
#include "lobby/cluster.hpp"
#include "lobby/identity_backoff.hpp"
#include "lobby/new_name_allowance.hpp"
#include "lobby/resume_tokens.hpp"
#include "ttt.pb.h"

namespace ttt::server {

struct HelloLimits {
  std::chrono::milliseconds token_lifetime{24LL * 3600 * 1000};
  // New names one address may register in an hour (every node together
  // too); 0 = no limit.
  std::size_t new_names_per_hour = 30;
  // Failed identity checks a key may make in an hour before each costs a
  // growing wait; 0 = no limit.
  std::size_t identity_failures = 10;
};

// The desk's answer to a Hello.
struct Identified {
  enum class Kind {
    kRefused,    // code and text: the client is told and its connection closed
    kElsewhere,  // another live node holds the player: the client goes to `node`
    kNewName,    // nobody has the name: register_name() next
    kKnown,      // the account's player, to be let in here
  };
  Kind kind = Kind::kRefused;
  wire::ErrorCode code = wire::ERROR_CODE_UNSPECIFIED;
  std::string text;  // kRefused: why; kElsewhere: the reason the Redirect gives
  NodeInfo node;     // kElsewhere
  AccountId account{};
  SeatId seat{};         // kKnown: the seat the player holds (or takes) here
  bool resumed = false;  // kKnown: by a resume token (Welcome says resumed)
  // kKnown: no live node holds the player: the games in progress of its
  // last node may be this node's to take over before it is let in.
  bool adopt = false;
  std::string issued;  // a new name's secret made here (the client sent none)
};

class HelloDesk {
 public:
  using Done = std::function<void(Identified)>;
  // Whether this node holds a player of that seat now (online or away).
  using HeldHere = std::function<bool(SeatId)>;

  // accounts, cluster and log outlive the desk.
  HelloDesk(AccountStore& accounts, Cluster& cluster, LogLimiter& log, HelloLimits limits,
            HeldHere held_here);

  // Who the Hello (from address key `address`) speaks for: by its resume
  // token if it has one, else by its name and secret. A Hello is not
  // checked for its protocol version or a reservation here.
  void identify(const wire::Hello& hello, const std::string& address, Done done);

  // The Hello's name, which nobody has, registered (within the address's
  // new names, on this node and on every node together) with the client's
  // secret, or one made here when it sent none (in `issued`): kKnown once
  // the account is written where every node reads it.
  void register_name(const wire::Hello& hello, const std::string& address, Done done);

  // Whether the Hello proves it speaks for `account` (as the records hold
  // it): its secret, or its own resume token in the records. done(kKnown)
  // if so, else a refusal (a wrong one counts against the address).
  void prove(const wire::Hello& hello, const StoredPlayer& account, const std::string& address,
             Done done);

  // The operator's token from `address`: whether it is `expected` (a wrong
  // one counts as a wrong secret does); nullopt while the address must wait.
  std::optional<bool> operator_token(std::string_view typed, std::string_view expected,
                                     const std::string& address);

  // The resume tokens issued here (a fresh one on every Welcome).
  ResumeTokens& tokens() noexcept { return tokens_; }
  const ResumeTokens& tokens() const noexcept { return tokens_; }

 private:
  void by_token(const wire::Hello& hello, const std::string& address, Done done);
  void by_name(const wire::Hello& hello, const std::string& address, Done done);
  // A token no player here holds: asked of the other nodes, then checked
  // against the records.
  void token_elsewhere(const wire::Hello& hello, const std::string& address, Done done);
  // The account's name and secret were right: where its player is held.
  void locate(AccountId account, Done done);
  void write_account(const wire::Hello& hello, const std::string& address, Done done);
  // The key waits after failed checks: the refusal, or nullopt.
  std::optional<Identified> locked_out(const std::string& key, const char* what) const;
  // A refusal that counts a failed check against `key`.
  Identified failed(const std::string& key, wire::ErrorCode code, std::string text);

  AccountStore& accounts_;
  Cluster& cluster_;
  LogLimiter& log_;
  HelloLimits limits_;
  HeldHere held_here_;
  ResumeTokens tokens_;
  NewNameAllowance new_names_;  // per address and per IPv6 /48, an hour's worth
  IdentityBackoff failures_;
};

// A refusal with this code and text.
Identified refused(wire::ErrorCode code, std::string text);

}  // namespace ttt::server
