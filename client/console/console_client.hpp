// ConsoleClient: ttt-client online, the coordinator of its parts. It owns
// the Connection, turns typed lines into commands and moves, hands each
// server message to the part it is for, and keeps what spans them: the
// link coming and going, lines typed before it is up, the replies a script
// waits for before it ends, the prompt. The parts: CurrentGame (the game
// sat in or watched), GameCommentary (the game told as it goes), TypedMoves
// (moves typed ahead or while the link is down), GameClocks, Absences,
// Reconnecting, GiveUpConfirmation, PlaceRequests (places asked for again
// after a reconnect), LobbyLists (/list, /who), LobbyPanel (the full
// screen's lists), OtherPlayers (challenges, blocks, mutes), RecordQueries
// (/top, /history, /replay, /me), NameSecret, KeptToken (the resume token
// between runs), WatchLinks (where a browser watches a game) and ExitStatus
// (how the run ends: fatal errors, the exit code). Every string from the
// server is shown through safe_text; lists longer than a screen through the
// Pager.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "console/absences.hpp"
#include "console/client_config.hpp"
#include "console/command.hpp"
#include "console/current_game.hpp"
#include "console/exit_status.hpp"
#include "console/game_clocks.hpp"
#include "console/game_commentary.hpp"
#include "console/give_up_confirmation.hpp"
#include "console/kept_token.hpp"
#include "console/lobby_lists.hpp"
#include "console/lobby_panel.hpp"
#include "console/name_secret.hpp"
#include "console/other_players.hpp"
#include "console/pager.hpp"
#include "console/place_requests.hpp"
#include "console/reconnecting.hpp"
#include "console/record_queries.hpp"
#include "console/request_sender.hpp"
#include "console/terminal.hpp"
#include "console/trust_question.hpp"
#include "console/typed_moves.hpp"
#include "console/watch_links.hpp"
#include "identity/name_claim.hpp"
#include "link/connection.hpp"
#include "view/dropped_round.hpp"

namespace ttt::client {

class ConsoleClient : public ConnectionEvents, private RequestSender {
 public:
  // Stops io when the client is done.
  ConsoleClient(boost::asio::io_context& io, ClientConfig config, Terminal& terminal);

  // Connects; input goes to on_line / on_input_end.
  void start();

  // A typed line, and the end of input (Ctrl-D, or EOF of a script).
  void on_line(const std::string& line);
  void on_input_end();

  // Leaves now (a signal, /quit).
  void quit();

  // The exit code (ExitStatus's): 0 after a normal quit.
  int exit_code() const noexcept { return exit_.code(); }

  // ConnectionEvents
  void on_welcome(const wire::Welcome& welcome) override;
  void on_message(const wire::ServerMessage& message) override;
  void on_reconnecting(const std::string& reason, std::chrono::milliseconds left) override;
  void on_closed(const std::string& reason, bool failed) override;
  void on_unknown_server(const std::string& where, const std::string& fingerprint,
                         std::function<void(bool)> answer) override;
  // One line: "Moved to node HOST:PORT: REASON".
  void on_redirected(const std::string& where, const std::string& reason) override;

 private:
  // RequestSender: through the connection; a reply awaited is kept in
  // awaiting_.
  std::uint32_t send(wire::ClientMessage message, bool awaits_reply) override;
  std::uint32_t send_quietly(wire::ClientMessage message) override;

  void execute(const Command& command);
  // Sends a command's request (after the question it may have needed).
  void carry_out(const Command& command);
  void rotate_secret();
  // At the end of a script: quits once nothing the script typed is left to
  // happen.
  void finish_if_input_done();

  // A Welcome back in our game (the room sends Joined next), or one without
  // a game: the place we had is asked for again (unanswered: an entry the
  // link lost the answer to).
  void resume_game(const wire::Welcome& welcome, bool restarted, bool redirected);
  // played: our side in the game before this Welcome.
  void back_in_lobby(const wire::Welcome& welcome, std::optional<wire::ClientMessage> unanswered,
                     wire::Side played, bool restarted, bool redirected);
  // The game the link dropped, which the server no longer holds: its end
  // is said if the Welcome or the history (asked for quietly) has it.
  void look_for_dropped_round(const wire::Welcome& welcome, bool was_playing);
  void recalled(const wire::ServerMessage& reply);
  void on_joined(const wire::Joined& joined);
  void on_state(const wire::GameState& state);
  void on_left(const wire::Left& left);
  void on_error(const wire::Error& error, std::uint32_t in_reply_to);
  // Tells the connection how long a lost link is worth retrying.
  void tell_stakes();

  // Once a second: the clocks in the prompt, the lobby panel, the
  // countdowns, a move the server has not answered.
  void tick();
  void schedule_tick();
  void say(const std::string& line);
  void update_prompt();

  boost::asio::io_context& io_;
  ClientConfig config_;
  Terminal& terminal_;
  std::shared_ptr<Connection> connection_;
  std::unique_ptr<NameClaim> name_claim_;  // keeps other programs of ours off the name
  KeptToken token_;                        // the resume token between runs
  TrustQuestion trust_question_;
  std::string known_servers_;  // where trusted servers are remembered
  Pager pager_;                // long lists and replays, a screenful or a move per Enter
  WatchLinks watch_links_;
  CurrentGame game_;
  GameCommentary commentary_;
  TypedMoves moves_;
  GameClocks clocks_;
  Absences absences_;
  Reconnecting reconnecting_;
  GiveUpConfirmation give_up_;
  PlaceRequests places_;
  LobbyLists lists_;
  LobbyPanel panel_;
  OtherPlayers players_;
  RecordQueries records_;
  NameSecret secret_;
  ExitStatus exit_;

  bool queued_ = false;                 // waiting in quick match
  std::deque<std::string> held_lines_;  // typed before the link was up
  std::set<std::uint32_t> awaiting_;    // requests whose direct reply is due
  std::uint32_t barrier_request_ = 0;   // a silent request that follows a resume
  DroppedRound dropped_;                // the game the link dropped, its end looked for
  std::uint32_t recall_request_ = 0;    // the history asked for it
  bool welcomed_before_ = false;
  bool started_game_ = false;  // --play-bot was acted on
  bool resuming_ = false;      // a resumed Welcome came; Joined is next
  bool input_ended_ = false;
  bool quitting_ = false;
  boost::asio::steady_timer tick_timer_;
};

}  // namespace ttt::client
