// The Lobby among several nodes: a Hello whose player another node holds is
// sent there (Redirect); a player who joins or watches a game held elsewhere,
// or is paired with a player waiting elsewhere, gets a seat kept there (a
// reservation, 10 s) and is sent to it; other nodes' requests for such seats
// are answered here; a drained node sends its players away. With one node
// (SingleNode) no listing is elsewhere and no player arrives from another
// node; where a Hello's player is held is the HelloDesk's question.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "game/bot_level_code.hpp"
#include "lobby/lobby.hpp"
#include "lobby/lobby_connection.hpp"
#include "lobby/secrets.hpp"
#include "lobby/text_rules.hpp"
#include "net/replies.hpp"
#include "ttt/wire/convert.hpp"

namespace ttt::server {
std::shared_ptr<Lobby::Connection> Lobby::still_open(
    const std::weak_ptr<Connection>& connection) const {
  auto open = connection.lock();
  if (!open || !open->participant() || !connections_.contains(open.get())) return nullptr;
  return open;
}

void Lobby::serve_other_nodes() {
  cluster().serve_seats([this](const SeatRequest& request, Cluster::SeatDone reply) {
    seat_request(request, reply);
  });
  cluster().on_restored([this](bool forgotten) { register_again(forgotten); });
  // Every node's leaderboard and profiles follow the results the others commit.
  links_.accounts.on_figures(
      [this](const StoredPlayer& account) { cluster().share_figures(account); });
  cluster().on_figures(
      [this](const StoredPlayer& account) { links_.accounts.take_figures(account); });
}

bool Lobby::send_away(Connection& connection, const LobbyPlayer* existing) {
  if (!draining() || (existing != nullptr && existing->room)) return false;
  if (auto there = cluster().another_node()) {
    redirect(connection, *there, "", GameId{}, "this node is being drained");
  } else if (auto conn = connection.participant()) {
    conn->deliver(error_reply(wire::ERROR_CODE_DRAINING,
                              "this node is being drained and no other node takes players now: "
                              "try again in a moment",
                              0, true));
    conn->close();
  }
  return true;
}

void Lobby::redirect(Connection& connection, const NodeInfo& node, const std::string& reservation,
                     GameId game, const std::string& reason) {
  auto conn = connection.participant();
  const bool handed_over = connection.player != nullptr;
  if (LobbyPlayer* player = connection.player) {
    // Handed over: its token is held there now; nothing is revoked.
    if (auto hash = desk_.tokens().hash_of(player->id)) {
      cluster().hold(player->account, *hash, config_.token_lifetime, node.id, {});
    }
    const SeatId id = player->id;
    end_challenges_of(*player);
    quick_match_.withdraw(id);
    if (player->room) player->room->leave(id, 0);
    desk_.tokens().forget(id);
    connection.player = nullptr;
    player->connection = nullptr;
    player->conn.reset();
    if (LobbyPlayer* still = player_of(id); still && !still->room) {
      release_quota(*still);
      players_.erase(id);
    }
  }
  if (!conn) return;
  ++redirects_;
  spdlog::debug("sending a connection from {} to node {} ({})", connection.address, node.id,
                reason);
  wire::ServerMessage message;
  wire::Redirect* r = message.mutable_redirect();
  r->set_host(node.host);
  r->set_port(node.port);
  r->set_fingerprint(node.fingerprint);
  r->set_reservation(reservation);
  r->set_reason(reason);
  r->set_game_id(number(game));
  conn->set_heartbeat(false);
  auto send = [conn, message = make_outbound(std::move(message))] {
    conn->deliver(message);
    conn->close();
  };
  if (!handed_over) {
    send();
    return;
  }
  // The node it goes to checks its token against the records: sent once
  // they hold it. Meanwhile what the client says is held, never answered.
  connection.begin_routing();
  links_.accounts.after_writes(std::move(send));
}

bool Lobby::arrive(Connection& connection, const wire::Hello& hello, std::uint32_t request_id) {
  Reservation* kept = reservations_.find(hello.reservation());
  if (kept == nullptr) return false;
  auto refuse = [request_id](Connection& open, wire::ErrorCode code, std::string text) {
    open.end_routing();
    if (auto conn = open.participant()) {
      conn->deliver(error_reply(code, std::move(text), request_id, true));
      conn->close();
    }
  };
  if (kept->arriving) {
    refuse(connection, wire::ERROR_CODE_RESERVATION_GONE,
           "the seat kept for you is being taken by another connection");
    return true;
  }
  // One arrival at a time; the seat stays kept until the arriving client
  // has shown it speaks for the player it was kept for.
  kept->arriving = true;
  connection.begin_routing();
  const std::string code = hello.reservation();
  const AccountId account = kept->request.account;
  auto released = [this, code] {
    if (Reservation* still = reservations_.find(code)) still->arriving = false;
  };
  links_.accounts.refresh(account, [this, weak = connection.weak_from_this(), code, account, hello,
                                    request_id, refuse, released](bool read_ok) {
    auto open = still_open(weak);
    if (!open) {
      released();
      return;
    }
    const StoredPlayer* stored = links_.accounts.get(account);
    if (!read_ok || stored == nullptr || stored->is_bot || reservations_.find(code) == nullptr) {
      released();
      refuse(*open, wire::ERROR_CODE_RESERVATION_GONE,
             "the seat kept for you could not be taken: connect again");
      return;
    }
    // The seat is the player's only: shown its secret, or its own resume
    // token.
    desk_.prove(hello, *stored, open->address,
                [this, weak, code, hello, request_id, refuse, released](Identified who) {
                  auto again = still_open(weak);
                  if (!again || who.kind != Identified::Kind::kKnown) released();
                  if (!again) return;
                  if (who.kind != Identified::Kind::kKnown) {
                    refuse(*again, who.code, std::move(who.text));
                    return;
                  }
                  take_reservation(*again, code, hello, request_id);
                });
  });
  return true;
}

void Lobby::take_reservation(Connection& open, const std::string& code, const wire::Hello& hello,
                             std::uint32_t request_id) {
  auto taken = reservations_.take(code);
  open.end_routing();
  if (!taken) {
    if (auto conn = open.participant()) {
      conn->deliver(error_reply(wire::ERROR_CODE_RESERVATION_GONE,
                                "the seat kept for you could not be taken: connect again",
                                request_id, true));
      conn->close();
    }
    return;
  }
  const Reservation kept = std::move(*taken);
  const StoredPlayer* stored = links_.accounts.get(kept.request.account);
  if (stored == nullptr) return;
  // The kept place is taken before Welcome, so that Welcome names the game
  // and the client asks for nothing again; Joined follows Welcome.
  const auto& room = kept.room;
  const bool there = room && rooms_.contains(room->id());
  const bool seat = kept.request.kind != SeatRequest::Kind::kWatch;
  bool placed = false;
  auto place = [&](LobbyPlayer& player) {
    if (!there || player.room || (seat && !room->waiting())) return;
    if (seat && !allows_rating(player, kept.request.rated)) room->make_unrated();
    player.room = room;
    if (seat) took_seat(player);
    placed = true;
  };
  if (LobbyPlayer* held = player_of(seat_of(account_id(*stored)))) {
    take_back(open, *held, hello, request_id);  // (rare: it was here already)
    place(*held);
  } else {
    enter(open, *stored, hello, request_id, true, "", place);
  }
  LobbyPlayer* player = open.player;
  if (player == nullptr) return;
  if (kept.request.kind == SeatRequest::Kind::kChallenge) {
    challenge(*player, kept.request.challenge, 0);  // made here, as if asked here
    return;
  }
  if (!placed) {
    error(*player, wire::ERROR_CODE_RESERVATION_GONE,
          "the game you were sent to is no longer there", 0);
    return;
  }
  if (seat) {
    room->seat(player->ref(), wire::SIDE_NONE, 0);
  } else {
    room->watch(player->ref(), 0);
  }
}

// --- seats at other nodes --------------------------------------------------------

void Lobby::seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                           std::uint32_t request_id) {
  request.account = player.account;
  request.name = player.name;
  request.program = player.program;
  request.address = player.address;
  const std::string challenged =
      request.kind == SeatRequest::Kind::kChallenge ? request.challenge.name() : "";
  cluster().request_seat(
      to, request, [this, id = player.id, to, request_id, challenged](const SeatReply& answer) {
        LobbyPlayer* asker = player_of(id);
        if (asker == nullptr || asker->connection == nullptr) return;
        if (!answer.reservation.empty() && asker->room && asker->room->is_seated(asker->id)) {
          // Seated here meanwhile (paired, or a challenge accepted): that
          // game goes on; the place kept there lapses.
          error(*asker, wire::ERROR_CODE_ALREADY_IN_GAME,
                "you are in game " + std::to_string(number(asker->room->id())) + " now: " +
                    (challenged.empty() ? "the other game was left alone"
                                        : "the challenge to " + challenged + " was not made"),
                request_id);
          return;
        }
        if (answer.reservation.empty()) {
          error(*asker,
                answer.code == wire::ERROR_CODE_UNSPECIFIED ? wire::ERROR_CODE_UNKNOWN_GAME
                                                            : answer.code,
                answer.text, request_id);
          return;
        }
        auto there = cluster().node(to);
        if (!there) {
          error(*asker, wire::ERROR_CODE_CLUSTER_UNAVAILABLE, "the other node is gone: try again",
                request_id);
          return;
        }
        redirect(
            *static_cast<Connection*>(asker->connection), *there, answer.reservation, answer.game,
            challenged.empty()
                ? "game " + std::to_string(number(answer.game)) + " is at node " + where_of(*there)
                : challenged + " is at node " + where_of(*there) +
                      ": your challenge is made there");
      });
}

void Lobby::seat_request(const SeatRequest& request, Cluster::SeatDone reply) {
  auto refuse = [&reply](wire::ErrorCode code, std::string text) {
    reply(SeatReply{{}, GameId{}, code, std::move(text)});
  };
  if (shutting_down_ || draining()) {
    refuse(wire::ERROR_CODE_DRAINING, request.kind == SeatRequest::Kind::kChallenge
                                          ? "the node " + request.challenge.name() +
                                                " is at is being drained: challenge again soon"
                                          : "that game's node is being drained: try another game");
    return;
  }
  if (auto why = reservations_.refusal(request)) {
    refuse(wire::ERROR_CODE_RATE_LIMITED, std::move(*why));
    return;
  }
  std::shared_ptr<GameRoom> room;
  if (request.kind == SeatRequest::Kind::kPair) {
    // The newcomer's own rating wish is applied when it arrives (make_unrated).
    room = quick_match_.seat_for_newcomer(request);
    if (!room) {
      refuse(wire::ERROR_CODE_UNKNOWN_GAME, "the player you were paired with is gone");
      return;
    }
  } else if (request.kind == SeatRequest::Kind::kChallenge) {
    // No seat: a place for the challenger to arrive and challenge from
    // (checked again then, as any challenge).
    LobbyPlayer* target = players_.online(name_key(request.challenge.name()));
    if (target == nullptr) {
      refuse(wire::ERROR_CODE_PLAYER_OFFLINE, "not online now: " + request.challenge.name());
      return;
    }
    if (target->account == request.account) {
      refuse(wire::ERROR_CODE_BAD_REQUEST, "you can't challenge yourself");
      return;
    }
    if (auto why = challenge_refusal(*target, request.account)) {
      refuse(why->first, why->second);
      return;
    }
  } else {
    room = find_room(request.game);
    if (!room) {
      refuse(wire::ERROR_CODE_UNKNOWN_GAME, "no game " + std::to_string(number(request.game)));
      return;
    }
    if (room->settings().is_private && normalize_invite_code(request.invite_code) !=
                                           normalize_invite_code(room->settings().invite_code)) {
      refuse(wire::ERROR_CODE_WRONG_INVITE_CODE,
             "game " + std::to_string(number(room->id())) +
                 " is private: a matching invite code is needed");
      return;
    }
    if (request.kind == SeatRequest::Kind::kJoin &&
        (!room->waiting() || reservations_.seat_kept(room->id()))) {
      refuse(wire::ERROR_CODE_GAME_FULL,
             "game " + std::to_string(number(room->id())) + " has no free seat (watch it instead)");
      return;
    }
    if (request.kind == SeatRequest::Kind::kWatch && room->spectators_full()) {
      refuse(wire::ERROR_CODE_SPECTATORS_FULL,
             "game " + std::to_string(number(room->id())) + " has as many spectators as it takes");
      return;
    }
  }
  const GameId game = room ? room->id() : GameId{};
  const std::string code = reservations_.keep(request, std::move(room));
  reply(SeatReply{code, game, wire::ERROR_CODE_UNSPECIFIED, ""});
}

void Lobby::reservation_lapsed(Reservation lapsed) {
  if (!lapsed.room) return;
  if (lapsed.request.kind != SeatRequest::Kind::kPair) return;
  // Paired, but the other never came: the one waiting here waits again.
  LobbyPlayer* waiting = player_of(lapsed.request.waiting);
  if (waiting == nullptr || waiting->room != lapsed.room || !lapsed.room->waiting()) return;
  const std::shared_ptr<GameRoom> room = lapsed.room;
  room->leave(waiting->id, 0);
  quick_match_.wait_again(waiting->id, lapsed.request);
}

}  // namespace ttt::server
