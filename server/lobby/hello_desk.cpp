#include "lobby/hello_desk.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <utility>

#include "lobby/name_rules.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"

namespace ttt::server {
namespace {

constexpr const char* kUnknownToken = "unknown or expired resume token";
constexpr const char* kCantRead = "the server can't read its records now: try again in a moment";

Identified known(AccountId account, bool resumed, bool adopt = false) {
  Identified who;
  who.kind = Identified::Kind::kKnown;
  who.account = account;
  who.seat = seat_of(account);
  who.resumed = resumed;
  who.adopt = adopt;
  return who;
}

Identified elsewhere(const NodeInfo& node, std::string reason) {
  Identified who;
  who.kind = Identified::Kind::kElsewhere;
  who.node = node;
  who.text = std::move(reason);
  return who;
}

bool secret_matches(const StoredPlayer& account, const std::string& secret) {
  return !account.secret_hash.empty() &&
         equal_constant_time(hash_secret(account.salt, secret), account.secret_hash);
}

}  // namespace

Identified refused(wire::ErrorCode code, std::string text) {
  Identified who;
  who.code = code;
  who.text = std::move(text);
  return who;
}

HelloDesk::HelloDesk(AccountStore& accounts, Cluster& cluster, LogLimiter& log, HelloLimits limits,
                     HeldHere held_here)
    : accounts_(accounts),
      cluster_(cluster),
      log_(log),
      limits_(limits),
      held_here_(std::move(held_here)),
      tokens_(accounts, limits.token_lifetime),
      new_names_(limits.new_names_per_hour),
      failures_(limits.identity_failures) {}

void HelloDesk::identify(const wire::Hello& hello, const std::string& address, Done done) {
  if (!hello.resume_token().empty()) {
    by_token(hello, address, std::move(done));
  } else {
    by_name(hello, address, std::move(done));
  }
}

// An unknown token counts against the address, a wrong secret against the
// name asked for from the address's network (others' names behind the same
// NAT stay open); past a few, each costs a growing wait before the next is
// even looked at.
std::optional<Identified> HelloDesk::locked_out(const std::string& key, const char* what) const {
  const auto wait = failures_.wait(key);
  if (wait <= IdentityBackoff::Clock::duration::zero()) return std::nullopt;
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
  return refused(
      wire::ERROR_CODE_IDENTITY_LOCKED,
      std::string("too many wrong ") + what + ": try again in " + std::to_string(seconds) + " s");
}

Identified HelloDesk::failed(const std::string& key, wire::ErrorCode code, std::string text) {
  failures_.failed(key);
  return refused(code, std::move(text));
}

void HelloDesk::by_token(const wire::Hello& hello, const std::string& address, Done done) {
  if (auto locked = locked_out(address, "resume tokens from your address")) {
    done(std::move(*locked));
    return;
  }
  const auto holder = tokens_.redeem(hello.resume_token());  // unknown, replaced or expired
  if (!holder) {
    token_elsewhere(hello, address, std::move(done));
    return;
  }
  const auto account = static_cast<AccountId>(number(*holder));
  if (!held_here_(*holder)) {
    // A token kept from before a restart: the player comes back to the lobby.
    const StoredPlayer* stored = accounts_.get(account);
    if (stored == nullptr || stored->is_bot) {
      done(failed(address, wire::ERROR_CODE_BAD_RESUME_TOKEN, kUnknownToken));
      return;
    }
  }
  Identified who = known(account, true);
  who.seat = *holder;
  done(std::move(who));
}

void HelloDesk::token_elsewhere(const wire::Hello& hello, const std::string& address, Done done) {
  const std::string hash = sha256_hex(hello.resume_token());
  cluster_.find_token(hash, [this, hash, address, done = std::move(done)](
                                std::optional<TokenHolder> holder, bool answered) {
    if (!answered) {
      done(refused(wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                   "the lobby's nodes can't reach each other now: try again in a moment"));
      return;
    }
    if (!holder) {
      done(failed(address, wire::ERROR_CODE_BAD_RESUME_TOKEN, kUnknownToken));
      return;
    }
    if (holder->node != cluster_.self().id) {
      if (auto there = cluster_.node(holder->node)) {
        done(elsewhere(*there, "your player is at node " + where_of(*there)));
        return;
      }
    }
    // Held here (sent from another node), or by a node that is gone: the
    // player comes here, with any games that node held. The other nodes say
    // where a token is held; the records say whose it is.
    const AccountId account = holder->account;
    accounts_.refresh(account, [this, account, hash, address, done](bool read_ok) {
      if (!read_ok) {
        done(refused(wire::ERROR_CODE_STORAGE, kCantRead));
        return;
      }
      accounts_.check_token(
          account, hash, [this, account, address, done](std::optional<bool> matches) {
            if (!matches) {
              done(refused(wire::ERROR_CODE_STORAGE, kCantRead));
              return;
            }
            const StoredPlayer* stored = accounts_.get(account);
            if (!*matches || stored == nullptr || stored->is_bot) {
              done(failed(address, wire::ERROR_CODE_BAD_RESUME_TOKEN, kUnknownToken));
              return;
            }
            done(known(account, true, true));
          });
    });
  });
}

void HelloDesk::by_name(const wire::Hello& hello, const std::string& address, Done done) {
  if (auto problem = name_problem(hello.name())) {
    done(refused(wire::ERROR_CODE_BAD_REQUEST, *problem));
    return;
  }
  if (imitates_a_bot(hello.name())) {
    done(refused(wire::ERROR_CODE_NAME_TAKEN,
                 "names beginning with \"bot (\" belong to the server's bots: choose another "
                 "name"));
    return;
  }
  // The account as the records hold it now (another node may have made or
  // changed it; a node alone has it already).
  const std::string key = name_key(hello.name());
  accounts_.refresh(key, [this, key, hello, address, done = std::move(done)](bool read_ok) {
    if (!read_ok) {
      done(refused(wire::ERROR_CODE_STORAGE, kCantRead));
      return;
    }
    const StoredPlayer* account = accounts_.find(key);
    if (account == nullptr) {
      Identified who;
      who.kind = Identified::Kind::kNewName;
      done(std::move(who));
      return;
    }
    const std::string lock = IdentityBackoff::name_key(key, address);
    if (auto locked = locked_out(lock, "secrets for this name from your address")) {
      done(std::move(*locked));
      return;
    }
    if (!secret_matches(*account, hello.secret())) {
      done(failed(lock, wire::ERROR_CODE_NAME_TAKEN, name_taken_text(hello.name(), account->name)));
      return;
    }
    const AccountId id = account_id(*account);
    if (held_here_(seat_of(id))) {
      done(known(id, false));
      return;
    }
    locate(id, std::move(done));
  });
}

void HelloDesk::locate(AccountId account, Done done) {
  cluster_.find_player(
      account, [this, account, done = std::move(done)](const std::string& node, bool answered) {
        // Not answered: the shared state is away, and the player is taken here.
        if (!answered || node == cluster_.self().id) {
          done(known(account, false));
          return;
        }
        if (!node.empty()) {
          if (auto there = cluster_.node(node)) {
            done(elsewhere(*there, "your player is at node " + where_of(*there)));
            return;
          }
        }
        // Its node is gone, or no node holds the player (the shared state may
        // have lost what it knew): its games in progress come here, or it goes
        // where they are held.
        done(known(account, false, true));
      });
}

void HelloDesk::register_name(const wire::Hello& hello, const std::string& address, Done done) {
  if (!hello.secret().empty() && !is_valid_secret(hello.secret())) {
    done(refused(wire::ERROR_CODE_BAD_REQUEST, "a secret is " + std::to_string(kMinSecret) +
                                                   " to " + std::to_string(kMaxSecret) +
                                                   " characters of letters, digits, '-' and '_'"));
    return;
  }
  // New names per address, and per IPv6 /48 (so many /64s) in all.
  if (auto too_many = new_names_.spend(address)) {
    done(refused(wire::ERROR_CODE_TOO_MANY_NEW_NAMES, std::move(*too_many)));
    return;
  }
  if (limits_.new_names_per_hour == 0 || address.empty()) {
    write_account(hello, address, std::move(done));
    return;
  }
  // ...and by every node together (this node's own count has let this one
  // through already; a node alone allows at once).
  cluster_.take_allowance(
      "names", address, limits_.new_names_per_hour, std::chrono::hours(1),
      [this, hello, address, done = std::move(done)](bool allowed, std::chrono::milliseconds wait) {
        if (allowed) {
          write_account(hello, address, done);
          return;
        }
        const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(wait).count() + 1;
        done(refused(wire::ERROR_CODE_TOO_MANY_NEW_NAMES,
                     "your address has registered " + std::to_string(limits_.new_names_per_hour) +
                         " new names within the hour on this lobby's nodes: try again in " +
                         std::to_string(minutes) + " min, or use a name you already have"));
      });
}

void HelloDesk::write_account(const wire::Hello& hello, const std::string& address, Done done) {
  // The client's own secret: the account is its from the first write, and a
  // Welcome lost on the way loses nothing. Several nodes: Welcome only once
  // the account is written, so that any node this player is sent to can
  // read it, and a name another node took at the same moment is refused
  // here rather than lost later.
  StoredPlayer account;
  account.name = nfc_name(hello.name());
  account.salt = random_hex(16);
  std::string issued;  // an older client sent no secret: it gets this one, once
  if (hello.secret().empty()) issued = random_hex(32);
  account.secret_hash = hash_secret(account.salt, hello.secret().empty() ? issued : hello.secret());
  const std::string key = name_key(account.name);
  accounts_.create_written(std::move(account), [this, key, name = hello.name(), address, issued,
                                                done = std::move(done)](bool ok) {
    const StoredPlayer* created = accounts_.find(key);
    if (!ok || created == nullptr) {
      done(refused(wire::ERROR_CODE_NAME_TAKEN,
                   "the name " + name +
                       " was just taken (or can't be written now): choose another or try again"));
      return;
    }
    if (const auto verdict = log_.check(address); verdict.log) {
      spdlog::info("new player {} ({}){}", created->id, created->name,
                   LogLimiter::suffix(address, verdict.held_back));
    }
    Identified who = known(account_id(*created), false);
    who.issued = issued;
    done(std::move(who));
  });
}

void HelloDesk::prove(const wire::Hello& hello, const StoredPlayer& account,
                      const std::string& address, Done done) {
  const AccountId id = account_id(account);
  if (!hello.secret().empty() && secret_matches(account, hello.secret())) {
    done(known(id, true));
    return;
  }
  const std::string not_yours =
      "that seat was kept for another player: say Hello with your own resume token or secret";
  if (hello.resume_token().empty()) {
    done(failed(address, wire::ERROR_CODE_BAD_RESUME_TOKEN, not_yours));
    return;
  }
  // Its own resume token, as the records hold it (the node that sent it
  // issued it).
  accounts_.check_token(id, sha256_hex(hello.resume_token()),
                        [this, id, address, not_yours, done](std::optional<bool> matches) {
                          if (!matches) {
                            done(refused(wire::ERROR_CODE_STORAGE, kCantRead));
                          } else if (!*matches) {
                            done(failed(address, wire::ERROR_CODE_BAD_RESUME_TOKEN, not_yours));
                          } else {
                            done(known(id, true));
                          }
                        });
}

std::optional<bool> HelloDesk::operator_token(std::string_view typed, std::string_view expected,
                                              const std::string& address) {
  const std::string lock = IdentityBackoff::name_key("operator token", address);
  if (failures_.wait(lock) > IdentityBackoff::Clock::duration::zero()) return std::nullopt;
  const bool right = !expected.empty() && equal_constant_time(typed, expected);
  if (!right) failures_.failed(lock);
  return right;
}

}  // namespace ttt::server
