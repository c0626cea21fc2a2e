// The Lobby's identities: Hello (a name is owned through its secret, which
// the client makes; a resume token takes a held seat back), a new secret
// for a name, and a player's chat settings.
#include <spdlog/spdlog.h>

#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
#include "ttt/wire/frame.hpp"

namespace ttt::server {

void Lobby::hello(Connection& connection, const wire::Hello& hello, std::uint32_t request_id,
                  bool routed) {
  auto conn = connection.participant();
  if (!conn) return;
  if (connection.player != nullptr) {
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
  if (!routed && defer_hello(connection, hello, request_id)) return;
  if (!hello.reservation().empty() && arrive(connection, hello, request_id)) return;
  if (!hello.resume_token().empty()) {
    hello_by_token(connection, hello, request_id, routed);
  } else {
    hello_by_name(connection, hello, request_id, routed);
  }
}

void Lobby::refuse_hello(Connection& connection, wire::ErrorCode code, std::string text,
                         std::uint32_t request_id) {
  spdlog::debug("hello refused: {}", text);
  if (auto conn = connection.participant()) {
    conn->deliver(error_reply(code, std::move(text), request_id, true));
    conn->close();
  }
}

// An unknown token counts against the address, a wrong secret against the
// name asked for from the address's network (others' names behind the same
// NAT stay open); past a few, each costs a growing wait before the next is
// even looked at.
bool Lobby::locked_out(Connection& connection, const std::string& key, const char* what,
                       std::uint32_t request_id) {
  const auto wait = identity_failures_.wait(key);
  if (wait <= IdentityBackoff::Clock::duration::zero()) return false;
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
  refuse_hello(
      connection, wire::ERROR_CODE_IDENTITY_LOCKED,
      std::string("too many wrong ") + what + ": try again in " + std::to_string(seconds) + " s",
      request_id);
  return true;
}

void Lobby::hello_by_token(Connection& connection, const wire::Hello& hello,
                           std::uint32_t request_id, bool routed) {
  const std::string& address = connection.address;
  if (locked_out(connection, address, "resume tokens from your address", request_id)) return;
  const auto holder = tokens_.redeem(hello.resume_token());  // unknown, replaced or expired
  if (!holder && cluster().shared() && !routed) {
    route_by_token(connection, hello, request_id);  // another node may hold it
    return;
  }
  if (!holder) {
    identity_failures_.failed(address);
    refuse_hello(connection, wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token",
                 request_id);
    return;
  }
  if (LobbyPlayer* player = player_of(*holder)) {
    if (send_away(connection, player)) return;
    take_back(connection, *player, hello, request_id);
    return;
  }
  if (send_away(connection, nullptr)) return;
  // A token kept from before a restart: the player comes back to the lobby.
  const StoredPlayer* account = links_.accounts.get(static_cast<AccountId>(number(*holder)));
  if (account == nullptr || account->is_bot) {
    identity_failures_.failed(address);
    refuse_hello(connection, wire::ERROR_CODE_BAD_RESUME_TOKEN, "unknown or expired resume token",
                 request_id);
    return;
  }
  enter(connection, *account, hello, request_id, true, "");
}

void Lobby::hello_by_name(Connection& connection, const wire::Hello& hello,
                          std::uint32_t request_id, bool routed) {
  if (auto problem = name_problem(hello.name())) {
    refuse_hello(connection, wire::ERROR_CODE_BAD_REQUEST, *problem, request_id);
    return;
  }
  if (imitates_a_bot(hello.name())) {
    refuse_hello(connection, wire::ERROR_CODE_NAME_TAKEN,
                 "names beginning with \"bot (\" belong to the server's bots: choose another name",
                 request_id);
    return;
  }
  if (cluster().shared() && !routed) {
    route_by_name(connection, hello, request_id);  // another node may hold the name
    return;
  }
  const std::string key = name_key(hello.name());
  const StoredPlayer* account = links_.accounts.find(key);
  if (account == nullptr) {
    new_name(connection, hello, request_id);
    return;
  }
  const std::string lock = IdentityBackoff::name_key(key, connection.address);
  if (locked_out(connection, lock, "secrets for this name from your address", request_id)) return;
  if (account->secret_hash.empty() ||
      !equal_constant_time(hash_secret(account->salt, hello.secret()), account->secret_hash)) {
    identity_failures_.failed(lock);
    refuse_hello(connection, wire::ERROR_CODE_NAME_TAKEN,
                 name_taken_text(hello.name(), account->name), request_id);
    return;
  }
  LobbyPlayer* online = player_of(seat_of(account_id(*account)));
  if (send_away(connection, online)) return;
  if (online == nullptr) {
    enter(connection, *account, hello, request_id, false, "");
    return;
  }
  // One session per name: a second terminal is refused unless it asks to
  // take the session over (a resume token is the same session).
  if (online->connection != nullptr && !online->is_bot && !hello.take_over()) {
    refuse_hello(connection, wire::ERROR_CODE_SESSION_ACTIVE,
                 online->name +
                     " is connected now from another connection; ask to take over to move the "
                     "session here",
                 request_id);
    return;
  }
  take_back(connection, *online, hello, request_id);
}

void Lobby::new_name(Connection& connection, const wire::Hello& hello, std::uint32_t request_id) {
  if (send_away(connection, nullptr)) return;
  if (!hello.secret().empty() && !is_valid_secret(hello.secret())) {
    refuse_hello(connection, wire::ERROR_CODE_BAD_REQUEST,
                 "a secret is " + std::to_string(kMinSecret) + " to " + std::to_string(kMaxSecret) +
                     " characters of letters, digits, '-' and '_'",
                 request_id);
    return;
  }
  // New names per address, and per IPv6 /48 (so many /64s) in all.
  if (auto too_many = new_names_.spend(connection.address)) {
    refuse_hello(connection, wire::ERROR_CODE_TOO_MANY_NEW_NAMES, std::move(*too_many), request_id);
    return;
  }
  if (cluster().shared()) {
    register_shared(connection, hello, request_id);
    return;
  }
  // The client's own secret: the account is its from the first write, and
  // a Welcome lost on the way loses nothing.
  std::string issued;  // a secret made here, for a client that sent none
  const StoredPlayer& account =
      register_account(nfc_name(hello.name()), hello.secret(), issued, connection.address);
  enter(connection, account, hello, request_id, false, issued);
}

void Lobby::register_shared(Connection& connection, const wire::Hello& hello,
                            std::uint32_t request_id) {
  if (config_.new_names_per_hour == 0 || connection.address.empty()) {
    write_shared_account(connection, hello, request_id);
    return;
  }
  // The new names per address are counted by every node together (this
  // node's own count has let this one through already).
  connection.begin_routing();
  cluster().take_allowance(
      "names", connection.address, config_.new_names_per_hour, std::chrono::hours(1),
      [this, weak = connection.weak_from_this(), hello, request_id](
          bool allowed, std::chrono::milliseconds wait) {
        auto open = still_open(weak);
        if (!open) return;
        open->end_routing();
        if (allowed) {
          write_shared_account(*open, hello, request_id);
          return;
        }
        const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(wait).count() + 1;
        if (auto conn = open->participant()) {
          conn->deliver(error_reply(
              wire::ERROR_CODE_TOO_MANY_NEW_NAMES,
              "your address has registered " + std::to_string(config_.new_names_per_hour) +
                  " new names within the hour on this lobby's nodes: try again in " +
                  std::to_string(minutes) + " min, or use a name you already have",
              request_id, true));
          conn->close();
        }
      });
}

void Lobby::write_shared_account(Connection& connection, const wire::Hello& hello,
                                 std::uint32_t request_id) {
  // Several nodes: Welcome only once the account is written, so that any
  // node this player is sent to can read it, and a name another node took
  // at the same moment is refused here rather than lost later.
  StoredPlayer account;
  account.name = nfc_name(hello.name());
  account.salt = random_hex(16);
  auto issued = std::make_shared<std::string>();
  if (hello.secret().empty()) *issued = random_hex(32);
  account.secret_hash =
      hash_secret(account.salt, hello.secret().empty() ? *issued : hello.secret());
  const std::string key = name_key(account.name);
  connection.begin_routing();
  links_.accounts.create_written(std::move(account), [this, weak = connection.weak_from_this(), key,
                                                      hello, request_id, issued](bool ok) {
    auto open = still_open(weak);
    if (!open) return;
    open->end_routing();
    const StoredPlayer* created = links_.accounts.find(key);
    if (!ok || created == nullptr) {
      if (auto conn = open->participant()) {
        conn->deliver(error_reply(wire::ERROR_CODE_NAME_TAKEN,
                                  "the name " + hello.name() +
                                      " was just taken (or can't be written now): choose "
                                      "another or try again",
                                  request_id, true));
        conn->close();
      }
      return;
    }
    if (const auto verdict = links_.log.check(open->address); verdict.log) {
      spdlog::info("new player {} ({}){}", created->id, created->name,
                   LogLimiter::suffix(open->address, verdict.held_back));
    }
    enter(*open, *created, hello, request_id, false, *issued);
  });
}

void Lobby::enter(Connection& connection, const StoredPlayer& account, const wire::Hello& hello,
                  std::uint32_t request_id, bool resumed, const std::string& secret,
                  const std::function<void(LobbyPlayer&)>& before_welcome) {
  auto conn = connection.participant();
  if (!conn) return;
  auto player = std::make_unique<LobbyPlayer>();
  player->id = seat_of(account_id(account));
  player->account = account_id(account);
  player->name = account.name;
  player->key = name_key(account.name);
  player->conn = conn;
  player->connection = &connection;
  player->program = hello.bot();
  player->address = connection.address;
  player->chat_limiter = RateLimiter(config_.chat_per_second, config_.chat_burst);
  LobbyPlayer& added = players_.add(std::move(player));
  connection.player = &added;
  if (before_welcome) before_welcome(added);
  welcome(added, request_id, resumed, secret);
  // The client's self-description, for the log only; never trusted or echoed.
  const std::string_view client =
      is_printable_utf8(hello.client()) ? std::string_view(hello.client()).substr(0, 64) : "?";
  spdlog::debug("player {} ({}) joined the lobby{}{}", number(added.id), added.name,
                client.empty() ? "" : " with ", client);
}

void Lobby::take_back(Connection& connection, LobbyPlayer& player, const wire::Hello& hello,
                      std::uint32_t request_id) {
  if (auto* old = static_cast<Connection*>(player.connection); old && old != &connection) {
    old->player = nullptr;  // its closing no longer concerns the player
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
  player.conn = connection.weak();
  player.connection = &connection;
  player.program = hello.bot();  // also for players restored after a restart
  player.address = connection.address;
  connection.player = &player;
  welcome(player, request_id, true, "");
  if (const auto verdict = links_.log.check(connection.address); verdict.log) {
    spdlog::info("player {} ({}) is back{}", number(player.id), player.name,
                 LogLimiter::suffix(connection.address, verdict.held_back));
  }
  if (player.room) player.room->back(player.ref(), request_id);
}

void Lobby::welcome(LobbyPlayer& player, std::uint32_t request_id, bool resumed,
                    const std::string& secret) {
  // A fresh token on every Hello: an old one stops working.
  const std::string token = tokens_.issue(player.id, player.account);
  if (!player.is_bot) {
    cluster().hold(player.account, sha256_hex(token), config_.token_lifetime, "",
                   [this, account = player.account](const std::string& elsewhere) {
                     if (elsewhere.empty()) return;
                     holdings_.check();  // this node may have looked dead
                     held_elsewhere(account, elsewhere);
                   });
  }
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  wire::Welcome* w = message.mutable_welcome();
  w->set_player_id(number(player.id));
  w->set_resume_token(token);
  w->set_protocol_version(wire::kProtocolVersion);
  w->set_server_version(config_.server_version);
  w->set_resumed(resumed);
  w->set_name(player.name);
  w->set_secret(secret);
  w->set_rating(links_.accounts.rating(player.account));
  w->set_server_instance(instance_);
  if (player.room) w->set_game_id(player.room->id());
  w->set_reconnect_grace_ms(static_cast<std::uint32_t>(config_.reconnect_grace.count()));
  w->set_move_timeout_ms(static_cast<std::uint32_t>(config_.move_timeout.count()));
  w->set_web_client(config_.web_client);
  w->set_web_url(config_.web_url);
  if (config_.heartbeat_timeout.count() > 0) {
    w->set_heartbeat_timeout_ms(static_cast<std::uint32_t>(config_.heartbeat_timeout.count()));
    w->set_heartbeat_ms(static_cast<std::uint32_t>(config_.heartbeat_timeout.count() / 3));
  }
  if (auto it = away_results_.find(player.account); it != away_results_.end()) {
    for (auto& result : it->second) *w->add_decided_while_away() = std::move(result);
    away_results_.erase(it);
  }
  reply(player, std::move(message));
}

const StoredPlayer& Lobby::register_account(const std::string& name, const std::string& chosen,
                                            std::string& issued, const std::string& address) {
  StoredPlayer account;
  account.name = name;
  account.salt = random_hex(16);
  if (chosen.empty()) issued = random_hex(32);  // an older client: it gets the secret once
  account.secret_hash = hash_secret(account.salt, chosen.empty() ? issued : chosen);
  const StoredPlayer& created = links_.accounts.create(std::move(account));
  if (const auto verdict = links_.log.check(address); verdict.log) {
    spdlog::info("new player {} ({}){}", created.id, name,
                 LogLimiter::suffix(address, verdict.held_back));
  }
  return created;
}

void Lobby::rotate_secret(LobbyPlayer& player, const wire::RotateSecret& rotate,
                          std::uint32_t request_id) {
  if (!is_valid_secret(rotate.new_secret())) {
    error(player, wire::ERROR_CODE_BAD_REQUEST,
          "a secret is " + std::to_string(kMinSecret) + " to " + std::to_string(kMaxSecret) +
              " characters of letters, digits, '-' and '_'",
          request_id);
    return;
  }
  std::string salt = random_hex(16);
  std::string hash = hash_secret(salt, rotate.new_secret());
  // The old secret works until the new one is stored; the reply says when.
  links_.accounts.change_secret(
      player.account, std::move(salt), std::move(hash),
      [this, id = player.id, name = player.name, request_id](bool ok) {
        LobbyPlayer* asker = player_of(id);
        if (!ok) {
          spdlog::warn("the new secret of {} could not be stored", name);
          if (asker) {
            error(*asker, wire::ERROR_CODE_STORAGE,
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
        const std::string token = tokens_.issue(asker->id, asker->account);
        cluster().hold(asker->account, sha256_hex(token), config_.token_lifetime);
        wire::ServerMessage message;
        message.set_in_reply_to(request_id);
        message.mutable_secret_rotated()->set_resume_token(token);
        reply(*asker, std::move(message));
      });
}

void Lobby::chat_settings(LobbyPlayer& player, const wire::ChatSettings& settings,
                          std::uint32_t request_id) {
  player.hears_spectators = settings.spectators();
  if (player.room) player.room->set_hears_spectators(player.id, player.hears_spectators);
  wire::ServerMessage message;
  message.set_in_reply_to(request_id);
  message.mutable_chat_settings()->set_spectators(player.hears_spectators);
  reply(player, std::move(message));
}

}  // namespace ttt::server
