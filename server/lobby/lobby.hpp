// Lobby: connections <-> players, and the coordinator of the parts that
// answer them. A connection's Hello goes to the Admission (its way in, up to
// the Welcome), then each request of its player to the part that answers
// it (RoomDesk for rooms and what is done in them, ChallengeDesk,
// QuickMatch, PresenceList, GameListDesk, RecordsDesk, the Admission for a
// new secret). It keeps a disconnected player's identity while their seat
// is held, and answers what its parts ask of it (their host interfaces).
// The rooms this node holds, and the seats and bots in them, are its
// RoomRegistry's; games and players moving between this node and the
// others (a game taken over or lost, a player held elsewhere, the drain)
// are its NodeTransfers'.
//
// It talks to the rest through interfaces: accounts and ratings
// (AccountStore), the game list (GameDirectory), quick-match queues
// (Matchmaker), the journal rooms write to (GameJournal) and the other
// nodes (Cluster, GameHolders). Everything runs on the logic executor
// (docs/architecture.md); nothing here blocks.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "game/game_room.hpp"
#include "ids.hpp"
#include "limits/keyed_rate_limiter.hpp"
#include "limits/log_limiter.hpp"
#include "lobby/account_store.hpp"
#include "lobby/admission.hpp"
#include "lobby/challenge_desk.hpp"
#include "lobby/cluster.hpp"
#include "lobby/game_directory.hpp"
#include "lobby/game_holders.hpp"
#include "lobby/game_holdings.hpp"
#include "lobby/game_list_desk.hpp"
#include "lobby/hello_desk.hpp"
#include "lobby/identity_backoff.hpp"
#include "lobby/invite_codes.hpp"
#include "lobby/lobby_config.hpp"
#include "lobby/lobby_player.hpp"
#include "lobby/lobby_stats.hpp"
#include "lobby/matchmaker.hpp"
#include "lobby/node_router.hpp"
#include "lobby/node_transfers.hpp"
#include "lobby/player_table.hpp"
#include "lobby/presence_list.hpp"
#include "lobby/quick_match.hpp"
#include "lobby/records_desk.hpp"
#include "lobby/resume_tokens.hpp"
#include "lobby/room_desk.hpp"
#include "lobby/room_registry.hpp"
#include "net/inbox.hpp"
#include "net/read_budget.hpp"
#include "ttt/ai.hpp"

namespace ttt::server {

class HouseBot;

// What the database held at startup, beyond the accounts.
struct StoredState {
  std::vector<GameRecord> unfinished_games;                  // with moves
  std::vector<std::pair<std::int64_t, std::string>> tokens;  // account -> token hash
  std::int64_t max_room_id = 0;
};

// Where the lobby runs and what it talks to; all outlive it.
struct LobbyDependencies {
  boost::asio::any_io_executor logic;    // every lobby and room call
  boost::asio::any_io_executor compute;  // the bots' searches
  AccountStore& accounts;
  GameJournal& journal;
  GameDirectory& directory;
  Matchmaker& matchmaker;
  LogLimiter& log;                          // info lines per address
  const ReadBudget* read_budget = nullptr;  // for the operator's counters
  // The other nodes of the lobby (null: this node is alone), and where room
  // ids come from (null: counting on from the largest restored).
  Cluster* cluster = nullptr;
  IdSource* room_ids = nullptr;
  // Several nodes: which node holds each game in progress (null: this node
  // alone holds all it has, SingleNodeHolders).
  GameHolders* holders = nullptr;
};

class Lobby final : public Gate,
                    private RoomHost,
                    private RoomDeskHost,
                    private QuickMatchHost,
                    private RoutingHost,
                    private TransfersHost,
                    private ChallengeHost,
                    private AdmissionHost {
 public:
  Lobby(LobbyDependencies deps, LobbyConfig config);
  ~Lobby() override;

  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // Before serving: the games in progress and tokens of a previous run. Its
  // games come back with their players away until they reconnect.
  void restore(const StoredState& state);

  // Gate: a new connection, before its Hello.
  std::shared_ptr<Inbox> open(const std::shared_ptr<Participant>& conn,
                              const std::string& address) override;

  // Server shutdown: everyone gets Goodbye. Without a journal that keeps
  // games they end without result; with one they stay in progress, to
  // resume after a restart.
  void shutdown(const std::string& reason);

  // Everything, by state and size: walks every player and room (for the
  // operator's page and tests, not for a player's request).
  LobbyStats stats() const;
  // The counts kept as they change: connections, players, rooms, queued,
  // bots, games finished, accounts, bot searches (the rest left zero).
  LobbyStats counts() const;

  // The database can't be reached and writes wait for it (true), or it is
  // back (false): every player in a game is told (a Notice).
  void database_waiting(bool waiting);

  // --- several nodes (NodeTransfers, GameHoldings; PresenceList)
  // Shares this node's players as /who shows them with the other nodes
  // (called every couple of seconds).
  void share_presence();
  // Answers other nodes' seat requests from now on, registers this node's
  // players again whenever the shared state is back, and shares the
  // results committed here and there.
  void serve_other_nodes();
  // Drain: no new games or players; players in the lobby, queued, waiting
  // for an opponent or watching are sent to another node; games in
  // progress play on.
  void drain();
  bool draining() const noexcept override { return transfers_.draining(); }
  // Games still being played here.
  std::size_t games_in_progress() const;
  // No room waits for a write: everything every room said has been said
  // (a drain hands players over only then).
  bool settled() const;
  // The end of a drain, in two steps: freeze() takes nothing more from
  // anyone (no move can land after the games are let go in the database);
  // hand_over() then sends every player still here to another node, whose
  // node adopts their games. Returns how many were sent.
  void freeze() { transfers_.holdings().freeze(); }
  std::size_t hand_over();
  // Several nodes (GameHoldings): a write of game `record` was refused
  // because node `holder` holds it now ("": it is over, or held by nobody):
  // its room is dropped at once, its players told and sent on, never
  // registered again.
  void game_lost(RecordId record, const std::string& holder);
  // Several nodes, every heartbeat: this node's heartbeat in the database,
  // and whether it may have looked dead to the others (its heartbeats or
  // its own executor stalled past the dead limit), when it asks the
  // database which of its games it still holds.
  void keep_fence();
  // Several nodes: takes over the games in progress that no live node has
  // held since the last sweep (their node died or let them go, and none of
  // their players came back): restored here with their players away, they
  // end as any game whose players don't return. Called now and then.
  void sweep_orphans();

 private:
  class Connection;
  friend class Connection;

  // --- connections (lobby.cpp; a Hello goes to the Admission)
  void receive(Connection& connection, const wire::ClientMessage& message);
  void closed(Connection& connection);
  // Handling a message threw: the connection ends as if it had dropped.
  void fault(Connection& connection, const char* what);
  // The messages a connection sent while its Hello was being routed, now
  // handled in order.
  void replay_held(Connection& connection);
  void forget(SeatId who) override;
  void dispatch(LobbyPlayer& player, const wire::ClientMessage& message);
  void send_stats(LobbyPlayer& player, const wire::GetStats& request, std::uint32_t request_id);

  // --- challenges (ChallengeDesk asks; RoomRegistry opens their games)
  std::shared_ptr<GameRoom> open_challenge_game(LobbyPlayer& challenger, LobbyPlayer& challenged,
                                                const wire::Challenge& settings,
                                                std::uint32_t request_id) override;
  void seat_elsewhere(LobbyPlayer& player, const std::string& to, SeatRequest request,
                      std::uint32_t request_id) override;

  // --- rooms and seats (RoomRegistry holds them; RoomDesk answers requests)
  // RoomDeskHost: the wrong invite codes the player's connection may still
  // try (null while away); a seat kept for a player sent here.
  RateLimiter* invite_tries(const LobbyPlayer& player) override;
  bool seat_kept(GameId game) const override { return router_.seat_kept(game); }
  std::shared_ptr<GameRoom> find_room(GameId id) const override { return rooms_.find(id); }
  // QuickMatchHost: the rooms quick match opens.
  std::shared_ptr<GameRoom> open_pair(LobbyPlayer& waiting, wire::Rated waiting_rated,
                                      LobbyPlayer* player, const MatchRequest& rules,
                                      std::uint32_t request_id) override;
  void send_to_seat(LobbyPlayer& player, const NodeInfo& node, const std::string& reservation,
                    GameId game, const std::string& reason) override;
  bool bot_free_for(const LobbyPlayer& player) override;
  void play_bot(LobbyPlayer& player, const MatchRequest& rules) override;
  // RoomHost (RoomRegistry holds the rooms and their seats)
  void connect_bot(LobbyPlayer& bot, const std::shared_ptr<HouseBot>& house_bot) override;
  // The player's challenges end.
  void took_seat(LobbyPlayer& player) override;
  // Draining: a room's round over, its players go on (NodeTransfers).
  void round_may_be_over(GameRoom& room) override;

  // --- several nodes
  Cluster& cluster() const { return deps_.cluster ? *deps_.cluster : single_node_; }
  // The connection's peer while a lookup is under way, or null if it is gone.
  std::shared_ptr<Connection> still_open(const std::weak_ptr<Connection>& connection) const;
  // The connection the player speaks through (this lobby's own); null while
  // it is away.
  static Connection* connection_to(const LobbyPlayer& player);
  // RoutingHost (NodeRouter sends clients to other nodes and seats those
  // sent here); connection_of answers NodeTransfers and the Admission too
  // (TransfersHost, AdmissionHost), still_open the Admission.
  RoutedConnection* connection_of(const LobbyPlayer& player) override;
  std::shared_ptr<RoutedConnection> still_open(
      const std::weak_ptr<RoutedConnection>& connection) const override;
  void hand_off(LobbyPlayer& player) override;
  void enter_sent(RoutedConnection& connection, const StoredPlayer& account,
                  const wire::Hello& hello, std::uint32_t request_id,
                  const std::function<void(LobbyPlayer&)>& place) override;
  void took_kept_seat(LobbyPlayer& player, wire::Rated asked) override;
  void challenge_here(LobbyPlayer& player, const wire::Challenge& challenge) override;
  std::optional<std::pair<wire::ErrorCode, std::string>> challenge_refusal(
      const LobbyPlayer& target, AccountId from) const override;
  LobbyPlayer* online(std::string_view name) override;
  std::shared_ptr<GameRoom> seat_for_newcomer(const SeatRequest& request) override;
  void wait_again(SeatId waiting, const SeatRequest& request) override;
  bool shutting_down() const noexcept override { return shutting_down_; }
  // AdmissionHost: another live node holds the account's player (NodeTransfers).
  void held_elsewhere(AccountId account, const std::string& node) override {
    transfers_.held_elsewhere(account, node);
  }

  // --- replies
  void reply(const LobbyPlayer& player, wire::ServerMessage message) override;
  void error(const LobbyPlayer& player, wire::ErrorCode code, std::string text,
             std::uint32_t request_id) override;
  // The player, if still known (for answers that arrive later).
  LobbyPlayer* player_of(SeatId id) override;

  LobbyDependencies deps_;
  LobbyConfig config_;
  HelloDesk desk_;  // who each Hello speaks for; the resume tokens

  std::unordered_set<Connection*> connections_;
  PlayerTable players_;
  InviteCodes invites_;       // of this node's private games
  RoomRegistry rooms_;        // the rooms, their seats and bots
  RecordsDesk records_;       // the answers about past games
  QuickMatch quick_match_;    // the players waiting for a quick match
  RoomDesk room_desk_;        // the requests to take a place in a room and act in it
  ChallengeDesk challenges_;  // challenges waiting for an answer; blocks
  PresenceList presence_;     // the players online, as /who lists them
  GameListDesk games_list_;   // the game list, as ListGames pages it
  bool shutting_down_ = false;

  // --- several nodes
  static SingleNode single_node_;     // the cluster of a node alone
  NodeRouter router_;                 // redirects; places kept for players other nodes send here
  SingleNodeHolders single_holders_;  // the game holders of a node alone
  NodeTransfers transfers_;           // games and players moving between nodes; draining
  Admission admission_;               // a connection's way in: Hello to Welcome
};

}  // namespace ttt::server
