// Cluster: what the lobby shares with the other nodes of the same lobby —
// which nodes are alive and how clients reach them, which node holds each
// player (online, or away with a seat held) and each resume token, and
// requests to another node (keep a seat for a player who is being sent
// there). Nakama's registries are the model: the lobby calls this interface
// the same way whether there is one node (SingleNode: everything is here)
// or several (redis/redis_cluster: Redis). Runs on the logic executor; its
// answers arrive there later, never inside the call.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ids.hpp"
#include "records.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// A node of the lobby as clients reach it.
struct NodeInfo {
  std::string id;    // unique per process start
  std::string host;  // --advertise
  std::uint16_t port = 0;
  std::string fingerprint;  // its TLS certificate's; empty with --no-tls
  bool draining = false;    // takes no new games or players
};

// How clients reach a node: "host:port".
inline std::string where_of(const NodeInfo& node) {
  return node.host + ":" + std::to_string(node.port);
}

// Who holds a resume token: the account it was issued to and the node that
// holds that player now.
struct TokenHolder {
  AccountId account{};
  std::string node;
};

// A seat kept at a node for a player another node sends there.
struct SeatRequest {
  enum class Kind {
    kJoin,       // a free seat of game `game` (JoinGame)
    kWatch,      // a place among game `game`'s spectators (Spectate)
    kPair,       // quick match: a game with `waiting`, who waits at that node
    kChallenge,  // a challenge to `challenge.name()`, online at that node
  };
  Kind kind = Kind::kJoin;
  GameId game{};
  SeatId waiting{};
  AccountId account{};  // the player sent there
  std::string name;
  bool program = false;  // said Hello as a bot
  wire::Rated rated = wire::RATED_DEFAULT;
  std::string invite_code;
  // kPair: the rules both asked for.
  int size = 3;
  int win_length = 3;
  wire::ClockSettings clock;
  // kChallenge: the challenge as the challenger made it (rules resolved).
  wire::Challenge challenge;
  // The address key of the player's connection: the seats kept for one
  // address are counted (and those left untaken held against it).
  std::string address;
};

// A node's answer: a reservation (the seat is kept 10 s), or why not.
struct SeatReply {
  std::string reservation;  // empty: refused
  GameId game{};
  wire::ErrorCode code = wire::ERROR_CODE_UNSPECIFIED;
  std::string text;
};

class Cluster {
 public:
  virtual ~Cluster() = default;

  // This node.
  virtual const NodeInfo& self() const = 0;
  // Whether the shared state can be reached now.
  virtual bool available() const = 0;
  // A live node by id (this one included), or nullopt if it is dead or
  // unknown.
  virtual std::optional<NodeInfo> node(const std::string& id) const = 0;
  // The ids of the live nodes, this one included.
  virtual std::vector<std::string> live_nodes() const { return {self().id}; }
  // A live node other than this one that takes players (for a drain), the
  // least loaded first; nullopt if none.
  virtual std::optional<NodeInfo> another_node() const = 0;

  // This node holds the player now (or, with `to`, the node it is being
  // sent to will); the token's hash is the player's current token. Refused
  // when another live node holds the player (a node that only looked dead
  // must not take players back from the node that took its games over):
  // done("") when held, done(that node's id) when refused; not called when
  // the shared state can't answer.
  using HoldDone = std::function<void(const std::string& held_elsewhere)>;
  virtual void hold(AccountId account, const std::string& token_hash,
                    std::chrono::milliseconds token_lifetime, const std::string& to = {},
                    HoldDone done = {}) = 0;
  // The player left this node for good; its token stops working.
  virtual void release(AccountId account, const std::string& token_hash) = 0;
  // Who holds the token: done(holder), done(nullopt) if nobody does, or
  // done(nullopt) with available() false if the shared state can't answer.
  using TokenDone = std::function<void(std::optional<TokenHolder>, bool answered)>;
  virtual void find_token(const std::string& token_hash, TokenDone done) = 0;
  // Which node holds the account: done(node id) or done("") if none;
  // answered false if the shared state can't answer.
  using PlayerDone = std::function<void(const std::string& node, bool answered)>;
  virtual void find_player(AccountId account, PlayerDone done) = 0;

  // Asks node `to` to keep a seat (answered within a few seconds: a timeout
  // is a refusal with ERROR_CODE_CLUSTER_UNAVAILABLE).
  using SeatDone = std::function<void(const SeatReply&)>;
  virtual void request_seat(const std::string& to, const SeatRequest& request, SeatDone done) = 0;
  // Who answers other nodes' seat requests at this node.
  using SeatHandler = std::function<void(const SeatRequest&, SeatDone reply)>;
  virtual void serve_seats(SeatHandler handler) = 0;

  // /who among nodes: this node's players as /who shows them (by account),
  // shared with the others. One node alone shares nothing.
  virtual void share_presence(const std::map<AccountId, wire::PlayerPresence>& here) { (void)here; }
  // One page of the players the other live nodes hold, read from an index
  // in the order of their names:
  // after `after`, whose name contains `part` (ASCII case ignored), at most
  // page_size, looking at no more than `scan` names (next_after: where the
  // next page starts; empty: every name after `after` was looked at).
  struct PresencePage {
    std::vector<wire::PlayerPresence> players;
    std::string next_after;
    std::size_t matched = 0;  // names that passed among those looked at
    std::size_t total = 0;    // the other live nodes' players, before any filter
  };
  virtual PresencePage others_presence_page(std::string_view after, std::string_view part,
                                            std::size_t page_size, std::size_t scan) const {
    (void)after, (void)part, (void)page_size, (void)scan;
    return {};
  }
  // The player another live node holds whose name has this key, with that
  // node; nullopt if none does.
  virtual std::optional<std::pair<std::string, wire::PlayerPresence>> other_player(
      const std::string& name_key) const {
    (void)name_key;
    return std::nullopt;
  }

  // A limit per address that every node shares: one more use of `kind`
  // (e.g. "names") by `address` within a window of `window` that starts
  // with its first use, at most `most`; done(allowed, wait until the window
  // ends) on the logic executor. One node alone, or a shared state that
  // can't answer, allows: each node's own limit holds in any case.
  using AllowanceDone = std::function<void(bool allowed, std::chrono::milliseconds wait)>;
  virtual void take_allowance(const std::string& kind, const std::string& address, std::size_t most,
                              std::chrono::milliseconds window, AllowanceDone done) {
    (void)kind;
    (void)address;
    (void)most;
    (void)window;
    done(true, {});
  }

  // Accounts' figures among nodes: an account's rating and counts as this
  // node committed them, told to the others; and whom to tell of the
  // figures the others commit. One node alone shares nothing.
  virtual void share_figures(const StoredPlayer& account) { (void)account; }
  virtual void on_figures(std::function<void(const StoredPlayer&)> handler) { (void)handler; }

  // The shared state came back after an outage, or it forgot this node
  // (Redis restarted empty, or was flushed: `forgotten`): called so that
  // the lobby registers again what this node holds (players and games).
  virtual void on_restored(std::function<void(bool forgotten)> handler) = 0;

  // When this node's heartbeat was last renewed (the time its renewal was
  // sent, once answered): older than the dead limit, the others may have
  // taken this node for dead. One node alone is never dead.
  virtual std::chrono::steady_clock::time_point last_beat() const {
    return std::chrono::steady_clock::time_point::max();
  }

  // This node drains (or stops): it takes no new games and others stop
  // sending players here.
  virtual void set_draining(bool draining) = 0;
  // The node stops: it is no longer alive for the others, at once; done
  // once the others can see it (or the shared state can't be reached).
  virtual void leave(std::function<void()> done) = 0;
};

// One node alone: every player and token is here, there is nobody to ask.
// It answers at once: every player is held here, no other node holds a
// token, a seat can't be kept elsewhere.
class SingleNode final : public Cluster {
 public:
  SingleNode() { self_.id = "local"; }
  const NodeInfo& self() const override { return self_; }
  bool available() const override { return true; }
  std::optional<NodeInfo> node(const std::string& id) const override {
    return id == self_.id ? std::optional<NodeInfo>(self_) : std::nullopt;
  }
  std::optional<NodeInfo> another_node() const override { return std::nullopt; }
  void hold(AccountId, const std::string&, std::chrono::milliseconds, const std::string&,
            HoldDone) override {}
  void release(AccountId, const std::string&) override {}
  void find_token(const std::string&, TokenDone done) override { done(std::nullopt, true); }
  void find_player(AccountId, PlayerDone done) override { done(self_.id, true); }
  void request_seat(const std::string&, const SeatRequest&, SeatDone done) override {
    done(SeatReply{{}, GameId{}, wire::ERROR_CODE_UNKNOWN_GAME, "no such node"});
  }
  void serve_seats(SeatHandler) override {}
  void on_restored(std::function<void(bool)>) override {}
  void set_draining(bool) override {}
  void leave(std::function<void()> done) override { done(); }

 private:
  NodeInfo self_;
};

}  // namespace ttt::server
