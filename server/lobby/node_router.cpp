#include "lobby/node_router.hpp"

#include <spdlog/spdlog.h>

#include "lobby/invite_codes.hpp"
#include "net/replies.hpp"

namespace ttt::server {
namespace {

// The client is refused: told why, its connection closed.
void refuse(RoutedConnection& connection, wire::ErrorCode code, std::string text,
            std::uint32_t request_id) {
  if (auto conn = connection.participant()) {
    conn->deliver(error_reply(code, std::move(text), request_id, true));
    conn->close();
  }
}

std::string game_name(GameId game) { return "game " + std::to_string(number(game)); }

// A Redirect to `node` (to the place kept there under `reservation`, if any).
Outbound redirect_to(const NodeInfo& node, const std::string& reservation, GameId game,
                     const std::string& reason) {
  wire::ServerMessage message;
  wire::Redirect* r = message.mutable_redirect();
  r->set_host(node.host);
  r->set_port(node.port);
  r->set_fingerprint(node.fingerprint);
  r->set_reservation(reservation);
  r->set_reason(reason);
  r->set_game_id(number(game));
  return make_outbound(std::move(message));
}

}  // namespace

NodeRouter::NodeRouter(boost::asio::any_io_executor logic, Cluster& cluster, AccountStore& accounts,
                       HelloDesk& desk, RoutingHost& host, RoutingLimits limits)
    : cluster_(cluster),
      accounts_(accounts),
      desk_(desk),
      host_(host),
      limits_(limits),
      reservations_(logic, limits.seat_hold,
                    [this](Reservation kept) { lapsed(std::move(kept)); }) {}

// --- sending clients to other nodes ------------------------------------------------

bool NodeRouter::send_away(RoutedConnection& connection, const LobbyPlayer* existing) {
  if (!host_.draining() || (existing != nullptr && existing->room)) return false;
  if (auto there = cluster_.another_node()) {
    redirect(connection, *there, "", GameId{}, "this node is being drained");
  } else {
    refuse(connection, wire::ERROR_CODE_DRAINING,
           "this node is being drained and no other node takes players now: try again in a moment",
           0);
  }
  return true;
}

void NodeRouter::redirect(RoutedConnection& connection, const NodeInfo& node,
                          const std::string& reservation, GameId game, const std::string& reason) {
  auto conn = connection.participant();
  LobbyPlayer* player = connection.speaks_for();
  const bool handed_over = player != nullptr;
  if (player != nullptr) {
    // Handed over: its token is held there now; nothing is revoked.
    if (auto hash = desk_.tokens().hash_of(player->id)) {
      cluster_.hold(player->account, *hash, limits_.token_lifetime, node.id, {});
    }
    host_.hand_off(*player);
  }
  if (!conn) return;
  ++redirects_;
  spdlog::debug("sending a connection from {} to node {} ({})", connection.peer_address(), node.id,
                reason);
  conn->set_heartbeat(false);
  auto send = [conn, message = redirect_to(node, reservation, game, reason)] {
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
  accounts_.after_writes(std::move(send));
}

void NodeRouter::send_off(Participant& peer, const NodeInfo& node, const std::string& reason) {
  ++redirects_;
  peer.set_heartbeat(false);
  peer.deliver(redirect_to(node, "", GameId{}, reason));
  peer.close();
}

// --- arriving with a reservation ---------------------------------------------------

bool NodeRouter::arrive(RoutedConnection& connection, const wire::Hello& hello,
                        std::uint32_t request_id) {
  Reservation* kept = reservations_.find(hello.reservation());
  if (kept == nullptr) return false;
  auto refused = [request_id](RoutedConnection& open, wire::ErrorCode why, std::string text) {
    open.end_routing();
    refuse(open, why, std::move(text), request_id);
  };
  if (kept->arriving) {
    refused(connection, wire::ERROR_CODE_RESERVATION_GONE,
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
  accounts_.refresh(account, [this, weak = connection.handle(), code, account, hello, request_id,
                              refused, released](bool read_ok) {
    auto open = host_.still_open(weak);
    if (!open) {
      released();
      return;
    }
    const StoredPlayer* stored = accounts_.get(account);
    if (!read_ok || stored == nullptr || stored->is_bot || reservations_.find(code) == nullptr) {
      released();
      refused(*open, wire::ERROR_CODE_RESERVATION_GONE,
              "the seat kept for you could not be taken: connect again");
      return;
    }
    // The seat is the player's only: shown its secret, or its own resume
    // token.
    desk_.prove(hello, *stored, open->peer_address(),
                [this, weak, code, hello, request_id, refused, released](Identified who) {
                  auto again = host_.still_open(weak);
                  if (!again || who.kind != Identified::Kind::kKnown) released();
                  if (!again) return;
                  if (who.kind != Identified::Kind::kKnown) {
                    refused(*again, who.code, std::move(who.text));
                    return;
                  }
                  take_reservation(*again, code, hello, request_id);
                });
  });
  return true;
}

void NodeRouter::take_reservation(RoutedConnection& open, const std::string& code,
                                  const wire::Hello& hello, std::uint32_t request_id) {
  auto taken = reservations_.take(code);
  open.end_routing();
  if (!taken) {
    refuse(open, wire::ERROR_CODE_RESERVATION_GONE,
           "the seat kept for you could not be taken: connect again", request_id);
    return;
  }
  const Reservation kept = std::move(*taken);
  const StoredPlayer* stored = accounts_.get(kept.request.account);
  if (stored == nullptr) return;
  // The kept place is taken before Welcome, so that Welcome names the game
  // and the client asks for nothing again; Joined follows Welcome.
  const auto& room = kept.room;
  const bool there = room && host_.find_room(room->id()) != nullptr;
  const bool seat = kept.request.kind != SeatRequest::Kind::kWatch;
  bool placed = false;
  host_.enter_sent(open, *stored, hello, request_id, [&](LobbyPlayer& player) {
    if (!there || player.room || (seat && !room->waiting())) return;
    player.room = room;
    if (seat) host_.took_kept_seat(player, kept.request.rated);
    placed = true;
  });
  LobbyPlayer* player = open.speaks_for();
  if (player == nullptr) return;
  if (kept.request.kind == SeatRequest::Kind::kChallenge) {
    host_.challenge_here(*player, kept.request.challenge);  // made here, as if asked here
    return;
  }
  if (!placed) {
    host_.error(*player, wire::ERROR_CODE_RESERVATION_GONE,
                "the game you were sent to is no longer there", 0);
    return;
  }
  if (seat) {
    room->seat(player->ref(), wire::SIDE_NONE, 0);
  } else {
    room->watch(player->ref(), 0);
  }
}

// --- places at other nodes ---------------------------------------------------------

void NodeRouter::seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                                std::uint32_t request_id) {
  request.account = player.account;
  request.name = player.name;
  request.program = player.program;
  request.address = player.address;
  const std::string challenged =
      request.kind == SeatRequest::Kind::kChallenge ? request.challenge.name() : "";
  cluster_.request_seat(
      to, request, [this, id = player.id, to, request_id, challenged](const SeatReply& answer) {
        LobbyPlayer* asker = host_.player_of(id);
        RoutedConnection* connection = asker ? host_.connection_of(*asker) : nullptr;
        if (connection == nullptr) return;
        if (!answer.reservation.empty() && asker->room && asker->room->is_seated(asker->id)) {
          // Seated here meanwhile (paired, or a challenge accepted): that
          // game goes on; the place kept there lapses.
          host_.error(*asker, wire::ERROR_CODE_ALREADY_IN_GAME,
                      "you are in " + game_name(asker->room->id()) + " now: " +
                          (challenged.empty() ? "the other game was left alone"
                                              : "the challenge to " + challenged + " was not made"),
                      request_id);
          return;
        }
        if (answer.reservation.empty()) {
          host_.error(*asker,
                      answer.code == wire::ERROR_CODE_UNSPECIFIED ? wire::ERROR_CODE_UNKNOWN_GAME
                                                                  : answer.code,
                      answer.text, request_id);
          return;
        }
        auto there = cluster_.node(to);
        if (!there) {
          host_.error(*asker, wire::ERROR_CODE_CLUSTER_UNAVAILABLE,
                      "the other node is gone: try again", request_id);
          return;
        }
        redirect(*connection, *there, answer.reservation, answer.game,
                 challenged.empty() ? game_name(answer.game) + " is at node " + where_of(*there)
                                    : challenged + " is at node " + where_of(*there) +
                                          ": your challenge is made there");
      });
}

void NodeRouter::seat_request(const SeatRequest& request, const Cluster::SeatDone& reply) {
  auto refuse_with = [&reply](wire::ErrorCode code, std::string text) {
    reply(SeatReply{{}, GameId{}, code, std::move(text)});
  };
  if (host_.shutting_down() || host_.draining()) {
    refuse_with(wire::ERROR_CODE_DRAINING,
                request.kind == SeatRequest::Kind::kChallenge
                    ? "the node " + request.challenge.name() +
                          " is at is being drained: challenge again soon"
                    : "that game's node is being drained: try another game");
    return;
  }
  if (auto why = reservations_.refusal(request)) {
    refuse_with(wire::ERROR_CODE_RATE_LIMITED, std::move(*why));
    return;
  }
  std::shared_ptr<GameRoom> room;
  if (request.kind == SeatRequest::Kind::kPair) {
    // The newcomer's own rating wish is applied when it arrives (make_unrated).
    room = host_.seat_for_newcomer(request);
    if (!room) {
      refuse_with(wire::ERROR_CODE_UNKNOWN_GAME, "the player you were paired with is gone");
      return;
    }
  } else if (request.kind == SeatRequest::Kind::kChallenge) {
    // No seat: a place for the challenger to arrive and challenge from
    // (checked again then, as any challenge).
    LobbyPlayer* target = host_.online(request.challenge.name());
    if (target == nullptr) {
      refuse_with(wire::ERROR_CODE_PLAYER_OFFLINE, "not online now: " + request.challenge.name());
      return;
    }
    if (target->account == request.account) {
      refuse_with(wire::ERROR_CODE_BAD_REQUEST, "you can't challenge yourself");
      return;
    }
    if (auto why = host_.challenge_refusal(*target, request.account)) {
      refuse_with(why->first, why->second);
      return;
    }
  } else {
    room = host_.find_room(request.game);
    if (auto why = game_refusal(request, room.get())) {
      refuse_with(why->first, std::move(why->second));
      return;
    }
  }
  const GameId game = room ? room->id() : GameId{};
  const std::string code = reservations_.keep(request, std::move(room));
  reply(SeatReply{code, game, wire::ERROR_CODE_UNSPECIFIED, ""});
}

std::optional<std::pair<wire::ErrorCode, std::string>> NodeRouter::game_refusal(
    const SeatRequest& request, const GameRoom* room) const {
  if (room == nullptr)
    return std::pair{wire::ERROR_CODE_UNKNOWN_GAME, "no " + game_name(request.game)};
  if (!InviteCodes::opens(room->settings(), request.invite_code)) {
    return std::pair{wire::ERROR_CODE_WRONG_INVITE_CODE,
                     game_name(room->id()) + " is private: a matching invite code is needed"};
  }
  if (request.kind == SeatRequest::Kind::kJoin &&
      (!room->waiting() || reservations_.seat_kept(room->id()))) {
    return std::pair{wire::ERROR_CODE_GAME_FULL,
                     game_name(room->id()) + " has no free seat (watch it instead)"};
  }
  if (request.kind == SeatRequest::Kind::kWatch && room->spectators_full()) {
    return std::pair{wire::ERROR_CODE_SPECTATORS_FULL,
                     game_name(room->id()) + " has as many spectators as it takes"};
  }
  return std::nullopt;
}

void NodeRouter::lapsed(Reservation kept) {
  if (!kept.room || kept.request.kind != SeatRequest::Kind::kPair) return;
  // Paired, but the other never came: the one waiting here waits again.
  LobbyPlayer* waiting = host_.player_of(kept.request.waiting);
  if (waiting == nullptr || waiting->room != kept.room || !kept.room->waiting()) return;
  const std::shared_ptr<GameRoom> room = kept.room;
  room->leave(waiting->id, 0);
  host_.wait_again(waiting->id, kept.request);
}

}  // namespace ttt::server
