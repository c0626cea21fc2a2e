// Admission: a connection's way into the lobby, from its Hello to its
// Welcome, and a player's new secret. A Hello is checked (said once, in this
// protocol's version), waits while GameHoldings checks which games are this
// node's, takes the place a reservation keeps (NodeRouter), and is otherwise
// asked of the HelloDesk: refused (told why, closed), sent to the node that
// holds its player, or let in here: a new name registered, a player held
// here taken back (its old connection told it was replaced), or a player
// entering anew, after this node took over its games in progress if no live
// node holds it. The Welcome gives a fresh resume token (held in the
// Cluster), says which server instance and terms the client meets, and
// hands over the results decided while the player was away. One path for
// one node or several. Runs on the logic executor.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "ids.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/account_store.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_holdings.hpp"
#include "lobby/hello_desk.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/node_router.hpp"
#include "lobby/player_replies.hpp"
#include "lobby/player_table.hpp"
#include "lobby/room_registry.hpp"
#include "ttt.pb.h"

namespace ttt::server {

// What the admission asks of the lobby around it (the Lobby, or a test's fake).
class AdmissionHost : public virtual PlayerReplies {
 public:
  // The connection, if it is still open (and the lobby's); null otherwise.
  virtual std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const = 0;
  // The connection the player speaks through; null while it is away.
  virtual RoutedConnection* connection_of(const LobbyPlayer& player) = 0;
  // Another live node holds the account's player (the Cluster would not
  // hold its token here): this node checks which games are still its own
  // (it may have looked dead), then a player here out of a game goes there.
  virtual void held_elsewhere(AccountId account, const std::string& node) = 0;
};

// How a player comes in, and what its Welcome tells it.
struct AdmissionTerms {
  // How long a resume token is held; each player's chat rate, and the
  // burst it allows.
  std::chrono::milliseconds token_lifetime{24LL * 3600 * 1000};
  double chat_per_second = 1.0;
  double chat_burst = 5.0;
  // Told in Welcome: the server's version, how long a seat is held for a
  // player who dropped, the move clock (0: none), the web client on the
  // game port and its public address, and the heartbeat (0: none).
  std::string server_version;
  std::chrono::milliseconds reconnect_grace{30'000};
  std::chrono::milliseconds move_timeout{60'000};
  bool web_client = false;
  std::string web_url;
  std::chrono::milliseconds heartbeat_timeout{10'000};
};

class Admission {
 public:
  // Everything given outlives the admission.
  Admission(HelloDesk& desk, NodeRouter& router, GameHoldings& holdings, PlayerTable& players,
            RoomRegistry& rooms, AccountStore& accounts, Cluster& cluster, LogLimiter& log,
            AdmissionHost& host, AdmissionTerms terms);

  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;

  // Hello, one path: the client is refused, sent to the node that holds its
  // player, or let in here with a Welcome. What the peer sends while the
  // answer is looked for is held by its connection (begin_routing).
  void hello(RoutedConnection& connection, const wire::Hello& hello, std::uint32_t request_id);

  // The connection, which said Hello, speaks for `player`, held here online
  // elsewhere or away: a connection it had is told it was replaced and
  // closed; a Welcome with a new token (resumed); back in its room.
  void take_back(RoutedConnection& connection, LobbyPlayer& player, const wire::Hello& hello,
                 std::uint32_t request_id);
  // A player of the account, not held here, enters the lobby on the
  // connection. before_welcome, if given, runs once the player exists,
  // before its Welcome (a player sent here takes its kept seat, and Welcome
  // says so); `secret`, if not empty, is the one made for a new name.
  void enter(RoutedConnection& connection, const StoredPlayer& account, const wire::Hello& hello,
             std::uint32_t request_id, bool resumed, const std::string& secret,
             const std::function<void(LobbyPlayer&)>& before_welcome = {});

  // RotateSecret: a valid new secret is stored (the old one holds until
  // then) and the player's one token replaced by a new one, told only to
  // it; an invalid one, or one the store refuses, is refused with why.
  void rotate_secret(LobbyPlayer& player, const wire::RotateSecret& rotate,
                     std::uint32_t request_id);

  // This process's start, as Welcome tells it (new with every start).
  const std::string& instance() const noexcept { return instance_; }

 private:
  // A Hello that waits for GameHoldings' check; false when none is under way.
  bool defer_hello(RoutedConnection& connection, const wire::Hello& hello,
                   std::uint32_t request_id);
  // Hello refused: the client told why, its connection closed.
  void refuse_hello(RoutedConnection& connection, wire::ErrorCode code, std::string text,
                    std::uint32_t request_id);
  // The account's player, identified, comes in on the connection: it takes
  // back the player held here, or enters (after taking over the games of
  // its node if no live node holds it).
  void let_in(RoutedConnection& connection, const Identified& who, const wire::Hello& hello,
              std::uint32_t request_id);
  // A name nobody has: registered (within the address's new names) and entered.
  void new_name(RoutedConnection& connection, const wire::Hello& hello, std::uint32_t request_id);
  // The player's Welcome, with a fresh token held in the Cluster.
  void welcome(LobbyPlayer& player, std::uint32_t request_id, bool resumed,
               const std::string& secret);
  // The connection's Hello waits for an answer (what the peer sends
  // meanwhile is held): returns the callback the answer goes to, which runs
  // `then` with the connection and the answer if the connection is still
  // open, its held messages handled after.
  template <typename Then>
  auto once_answered(RoutedConnection& connection, Then then) {
    connection.begin_routing();
    return [this, weak = connection.handle(), then = std::move(then)](auto&&... answer) mutable {
      auto open = host_.still_open(weak);
      if (!open) return;
      open->end_routing();
      then(*open, std::forward<decltype(answer)>(answer)...);
    };
  }

  HelloDesk& desk_;
  NodeRouter& router_;
  GameHoldings& holdings_;
  PlayerTable& players_;
  RoomRegistry& rooms_;
  AccountStore& accounts_;
  Cluster& cluster_;
  LogLimiter& log_;
  AdmissionHost& host_;
  AdmissionTerms terms_;
  const std::string instance_;  // this process's start, as Welcome tells it
};

}  // namespace ttt::server
