#include "lobby/admission.hpp"

#include <spdlog/spdlog.h>

#include <string_view>
#include <utility>

#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {

Admission::Admission(HelloDesk& desk, NodeRouter& router, GameHoldings& holdings,
                     PlayerTable& players, RoomRegistry& rooms, AccountStore& accounts,
                     Cluster& cluster, LogLimiter& log, AdmissionHost& host, AdmissionTerms terms)
    : desk_(desk),
      router_(router),
      holdings_(holdings),
      players_(players),
      rooms_(rooms),
      accounts_(accounts),
      cluster_(cluster),
      log_(log),
      host_(host),
      terms_(std::move(terms)),
      instance_(random_hex(16)) {}

// --- Hello ----------------------------------------------------------------------

void Admission::hello(RoutedConnection& connection, const wire::Hello& hello,
                      std::uint32_t request_id) {
  auto conn = connection.participant();
  if (!conn) return;
  if (connection.speaks_for() != nullptr) {
    conn->deliver(
        error_reply(wire::ERROR_CODE_ALREADY_HELLO, "Hello was already said", request_id));
    return;
  }
  if (hello.protocol_version() != wire::kProtocolVersion) {
    refuse_hello(connection, wire::ERROR_CODE_VERSION_UNSUPPORTED,
                 "this server speaks protocol version " + std::to_string(wire::kProtocolVersion) +
                     ", the client " + std::to_string(hello.protocol_version()),
                 request_id);
    return;
  }
  // A node that may have looked dead checks which games are its own first.
  if (defer_hello(connection, hello, request_id)) return;
  if (!hello.reservation().empty() && router_.arrive(connection, hello, request_id)) return;
  // Who it is and where its player is held (the other nodes may be asked).
  desk_.identify(
      hello, connection.peer_address(),
      once_answered(connection, [this, hello, request_id](RoutedConnection& open, Identified who) {
        switch (who.kind) {
          case Identified::Kind::kRefused:
            refuse_hello(open, who.code, std::move(who.text), request_id);
            return;
          case Identified::Kind::kElsewhere:
            router_.redirect(open, who.node, "", GameId{}, who.text);
            return;
          case Identified::Kind::kNewName:
            new_name(open, hello, request_id);
            return;
          case Identified::Kind::kKnown:
            let_in(open, who, hello, request_id);
            return;
        }
      }));
}

bool Admission::defer_hello(RoutedConnection& connection, const wire::Hello& hello,
                            std::uint32_t request_id) {
  // (The Lobby looked for a stall, which starts a check, as the message came in.)
  if (!holdings_.checking()) return false;
  constexpr std::size_t kMostDeferred = 10'000;
  if (holdings_.waiting_for_check() >= kMostDeferred) {
    refuse_hello(connection, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                 "this node is checking which games are its own: try again in a moment",
                 request_id);
    return true;
  }
  holdings_.after_check(once_answered(
      connection,
      [this, hello, request_id](RoutedConnection& open) { this->hello(open, hello, request_id); }));
  return true;
}

void Admission::refuse_hello(RoutedConnection& connection, wire::ErrorCode code, std::string text,
                             std::uint32_t request_id) {
  spdlog::debug("hello refused: {}", text);
  if (auto conn = connection.participant()) {
    conn->deliver(error_reply(code, std::move(text), request_id, true));
    conn->close();
  }
}

void Admission::let_in(RoutedConnection& connection, const Identified& who,
                       const wire::Hello& hello, std::uint32_t request_id) {
  if (who.adopt) {
    // No live node holds the player: its games in progress come here (or
    // it goes where they are held) before it enters.
    Identified here = who;
    here.adopt = false;
    holdings_.adopt_games_of(
        who.account, once_answered(connection, [this, here, hello, request_id](
                                                   RoutedConnection& open,
                                                   const std::optional<NodeInfo>& elsewhere) {
          if (elsewhere) {
            router_.redirect(open, *elsewhere, "", GameId{},
                             "your game is at node " + where_of(*elsewhere));
            return;
          }
          let_in(open, here, hello, request_id);
        }));
    return;
  }
  LobbyPlayer* held = players_.get(who.seat);
  if (router_.send_away(connection, held)) return;
  if (held == nullptr) {
    const StoredPlayer* account = accounts_.get(who.account);
    if (account == nullptr) {
      refuse_hello(connection, wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token",
                   request_id);
      return;
    }
    enter(connection, *account, hello, request_id, who.resumed, "");
    return;
  }
  // One session per name: a second terminal is refused unless it asks to
  // take the session over (a resume token is the same session).
  if (!who.resumed && held->inbox != nullptr && !held->is_bot && !hello.take_over()) {
    refuse_hello(connection, wire::ERROR_CODE_SESSION_ACTIVE,
                 held->name +
                     " is connected now from another connection; ask to take over to move the "
                     "session here",
                 request_id);
    return;
  }
  take_back(connection, *held, hello, request_id);
}

void Admission::new_name(RoutedConnection& connection, const wire::Hello& hello,
                         std::uint32_t request_id) {
  if (router_.send_away(connection, nullptr)) return;
  desk_.register_name(
      hello, connection.peer_address(),
      once_answered(connection, [this, hello, request_id](RoutedConnection& open, Identified who) {
        const StoredPlayer* account = accounts_.get(who.account);
        if (who.kind != Identified::Kind::kKnown || account == nullptr) {
          refuse_hello(open, who.code, std::move(who.text), request_id);
          return;
        }
        enter(open, *account, hello, request_id, false, who.issued);
      }));
}

// --- in ---------------------------------------------------------------------------

void Admission::enter(RoutedConnection& connection, const StoredPlayer& account,
                      const wire::Hello& hello, std::uint32_t request_id, bool resumed,
                      const std::string& secret,
                      const std::function<void(LobbyPlayer&)>& before_welcome) {
  auto conn = connection.participant();
  if (!conn) return;
  auto player = std::make_unique<LobbyPlayer>();
  player->id = seat_of(account_id(account));
  player->account = account_id(account);
  player->name = account.name;
  player->key = name_key(account.name);
  player->program = hello.bot();
  player->address = connection.peer_address();
  player->chat_limiter = RateLimiter(terms_.chat_per_second, terms_.chat_burst);
  LobbyPlayer& added = players_.add(std::move(player));
  connection.attach(added);
  if (before_welcome) before_welcome(added);
  welcome(added, request_id, resumed, secret);
  // The client's self-description, for the log only; never trusted or echoed.
  const std::string_view client =
      is_printable_utf8(hello.client()) ? std::string_view(hello.client()).substr(0, 64) : "?";
  spdlog::debug("player {} ({}) joined the lobby{}{}", number(added.id), added.name,
                client.empty() ? "" : " with ", client);
}

void Admission::take_back(RoutedConnection& connection, LobbyPlayer& player,
                          const wire::Hello& hello, std::uint32_t request_id) {
  if (RoutedConnection* old = host_.connection_of(player); old && old != &connection) {
    old->detach();  // its closing no longer concerns the player
    if (auto old_conn = old->participant()) {
      old_conn->set_heartbeat(false);
      old_conn->deliver(
          error_reply(wire::ERROR_CODE_REPLACED,
                      hello.resume_token().empty()
                          ? player.name + "'s session was taken over by another connection"
                          : player.name + "'s session continued on a new connection",
                      0, true));
      old_conn->close();
    }
  }
  connection.attach(player);
  player.program = hello.bot();  // also for players restored after a restart
  player.address = connection.peer_address();
  welcome(player, request_id, true, "");
  if (const auto verdict = log_.check(connection.peer_address()); verdict.log) {
    spdlog::info("player {} ({}) is back{}", number(player.id), player.name,
                 LogLimiter::suffix(connection.peer_address(), verdict.held_back));
  }
  if (player.room) player.room->back(player.ref(), request_id);
}

void Admission::welcome(LobbyPlayer& player, std::uint32_t request_id, bool resumed,
                        const std::string& secret) {
  // A fresh token on every Hello: an old one stops working.
  const std::string token = desk_.tokens().issue(player.id, player.account);
  if (!player.is_bot) {
    cluster_.hold(player.account, sha256_hex(token), terms_.token_lifetime, "",
                  [this, account = player.account](const std::string& elsewhere) {
                    if (elsewhere.empty()) return;
                    host_.held_elsewhere(account, elsewhere);
                  });
  }
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Welcome* w = message.mutable_welcome();
  w->set_player_id(number(player.id));
  w->set_resume_token(token);
  w->set_protocol_version(wire::kProtocolVersion);
  w->set_server_version(terms_.server_version);
  w->set_resumed(resumed);
  w->set_name(player.name);
  w->set_secret(secret);
  w->set_rating(accounts_.rating(player.account));
  w->set_server_instance(instance_);
  if (player.room) w->set_game_id(number(player.room->id()));
  w->set_reconnect_grace_ms(static_cast<std::uint32_t>(terms_.reconnect_grace.count()));
  w->set_move_timeout_ms(static_cast<std::uint32_t>(terms_.move_timeout.count()));
  w->set_web_client(terms_.web_client);
  w->set_web_url(terms_.web_url);
  if (terms_.heartbeat_timeout.count() > 0) {
    w->set_heartbeat_timeout_ms(static_cast<std::uint32_t>(terms_.heartbeat_timeout.count()));
    w->set_heartbeat_ms(static_cast<std::uint32_t>(terms_.heartbeat_timeout.count() / 3));
  }
  for (auto& result : rooms_.take_away_results(player.account)) {
    *w->add_decided_while_away() = std::move(result);
  }
  host_.reply(player, std::move(message));
}

// --- a new secret -----------------------------------------------------------------

void Admission::rotate_secret(LobbyPlayer& player, const wire::RotateSecret& rotate,
                              std::uint32_t request_id) {
  if (!is_valid_secret(rotate.new_secret())) {
    host_.error(player, wire::ERROR_CODE_BAD_REQUEST,
                "a secret is " + std::to_string(kMinSecret) + " to " + std::to_string(kMaxSecret) +
                    " characters of letters, digits, '-' and '_'",
                request_id);
    return;
  }
  std::string salt = random_hex(16);
  std::string hash = hash_secret(salt, rotate.new_secret());
  // The old secret works until the new one is stored; the reply says when.
  accounts_.change_secret(
      player.account, std::move(salt), std::move(hash),
      [this, id = player.id, name = player.name, request_id](bool ok) {
        LobbyPlayer* asker = host_.player_of(id);
        if (!ok) {
          spdlog::warn("the new secret of {} could not be stored", name);
          if (asker) {
            host_.error(*asker, wire::ERROR_CODE_STORAGE,
                        "the new secret could not be stored; the old one still holds the name",
                        request_id);
          }
          return;
        }
        spdlog::info("player {} ({}) has a new secret", number(id), name);
        if (asker == nullptr) {
          // Gone meanwhile: forgetting it revoked its token.
          return;
        }
        // Whoever held a token of this player before the rotation (the
        // reason one rotates: a secret or a token got out) holds nothing
        // now: the player's one token is replaced, and told only to it.
        const std::string token = desk_.tokens().issue(asker->id, asker->account);
        cluster_.hold(asker->account, sha256_hex(token), terms_.token_lifetime);
        wire::ServerMessage message;
        message.set_in_reply_to(request_id);
        message.mutable_secret_rotated()->set_resume_token(token);
        host_.reply(*asker, std::move(message));
      });
}

}  // namespace ttt::server
