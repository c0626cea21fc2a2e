// ConsoleClient: ttt-client online. It turns typed lines into requests and
// server messages into text: the board after every change, whose turn it is,
// chat, the opponent's comings and goings, refusals, and the `Game over:`
// line; and the server's records (/top, /history, /replay). Every string
// from the server is shown through safe_text; lists longer than a screen
// through the Pager. Moves typed
// before the player's turn wait for it (scripts can type a whole game ahead);
// commands act at once.
#pragma once

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "console/client_config.hpp"
#include "console/command.hpp"
#include "console/game_list_query.hpp"
#include "console/mute_list.hpp"
#include "console/pager.hpp"
#include "console/terminal.hpp"
#include "console/trust_prompt.hpp"
#include "identity/name_claim.hpp"
#include "identity/player_secret.hpp"
#include "identity/token_file.hpp"
#include "link/connection.hpp"
#include "view/state_view.hpp"

namespace ttt::client {

class ConsoleClient : public ConnectionEvents {
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

  // Exit codes: 0 after a normal quit, 1 when the server could not be
  // reached or was lost (or another terminal took the session over), 3 when
  // the server refused the name (NAME_TAKEN, or SESSION_ACTIVE: the name is
  // connected from another terminal), 4 when its TLS certificate was not
  // trusted.
  static constexpr int kExitLost = 1;
  static constexpr int kExitNameRefused = 3;
  static constexpr int kExitUntrusted = 4;
  int exit_code() const noexcept { return exit_code_; }

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
  void execute(const Command& command);
  // Sends a request; says so and returns 0 when there is no connection.
  std::uint32_t send(wire::ClientMessage message, bool awaits_reply);
  void type_move(const std::string& text);
  void play_pending();
  void finish_if_input_done();

  void on_joined(const wire::Joined& joined);
  void on_state(const wire::GameState& state);
  void on_error(const wire::Error& error, std::uint32_t in_reply_to);
  // A reply to /top, /history or /replay (message answers query).
  void on_record(const wire::ServerMessage& message, const Command& query);
  std::string name_refused_text() const;
  // headline, if any, comes first (e.g. the opponent's move in words).
  void show_state(const wire::GameState& state, const std::string& headline = "");

  // --- the session around the game (console_session.cpp)
  // Once a second: the reconnect countdown, an away player's countdown, a
  // move the server has not answered.
  void tick();
  void schedule_tick();
  // In an interactive terminal, /resign and /leave in a game in progress
  // ask first: true when the command waits for the answer.
  bool confirm_first(const Command& command);
  // The answer to that question: true when the line was it.
  bool answer_confirmation(const std::string& line);
  // A move typed while the link is down: pending until it is back.
  void type_move_offline(const std::string& text);
  // Back in the game after a reconnect: moves typed offline are dropped if
  // the position changed meanwhile.
  void check_offline_moves(const wire::GameState& state);
  // Says who went away or came back (for spectators; players hear of their
  // opponent through OpponentStatus) and keeps the away countdowns.
  void track_presence(const wire::GameState& before, const wire::GameState& after);
  void on_offer_ended(const wire::OfferEnded& ended);
  bool holds_seat() const noexcept;

  bool in_game() const noexcept { return game_.has_value(); }
  bool seated() const noexcept;
  bool my_turn() const noexcept;
  wire::Side my_side() const noexcept;
  void say(const std::string& line);
  void update_prompt();
  void open_token_file();

  // The lobby's extras (console_lobby.cpp): the secret that owns the name,
  // the paged game list, mutes and the spectators' chat.
  // Loads (or makes and saves) the secret the Hello carries.
  void load_secret(ConnectionOptions& options);
  // After a Welcome: a secret the server made is kept, a new name is
  // announced, a rotation the server took at Hello is finished.
  void on_welcome_secret(const wire::Welcome& welcome);
  void keep_secret(const wire::Welcome& welcome);
  void rotate_secret();
  void on_secret_rotated();
  // Handles the lobby extras' commands; false if the command is not one.
  bool execute_extra(const Command& command);
  void on_game_list(const wire::GameList& list);
  void on_spectator_count(const wire::SpectatorCount& count);
  void on_chat_settings(const wire::ChatSettings& settings);
  // Left its game (console_session.cpp).
  void on_left(const wire::Left& left);

  // The other players (console_players.cpp): /who, challenges, blocks.
  // Handles those commands (and /decline of a challenge); false if the
  // command is not one of them.
  bool execute_players(const Command& command);
  // Handles those server messages; false if the message is not one.
  bool on_players_message(const wire::ServerMessage& message);
  // The game's clocks as they run now, for the prompt: both Fischer clocks
  // ("X 2:58 O 3:00 | "), or the mover's move limit ("X 52 s | "), and an
  // away player's seat ("O away 25 s | "); "" when nothing runs.
  std::string clocks_prompt() const;
  // On our turn, the time left on our clock (the move limit or the Fischer
  // clock) as it runs now; none without a clock or out of turn.
  std::optional<std::chrono::milliseconds> my_time_left() const;
  // Once a turn, when our time left reaches kTimeWarning: a line and a bell.
  void warn_of_time();
  // The columns text for the screen may take (0 for a script: no limit).
  std::size_t screen_width() const;
  // How boards are drawn: coloured as the terminal is, compact when a
  // size x size board with its borders would not fit the screen's height.
  RenderStyle board_style(int size) const;
  // A terminal that keeps the lobby's lists on screen: asks for them every
  // few seconds out of a game (tick), and hands the answers over. True when
  // the message was such an answer.
  void refresh_lobby_panel();
  bool on_lobby_panel(const wire::ServerMessage& message);

  boost::asio::io_context& io_;
  ClientConfig config_;
  // The server's web client (Welcome): watch links are printed when it has one.
  bool web_client_ = false;
  std::string web_url_;
  // "https://HOST:PORT/game/ID" (or the server's --web-url), "" without a web client.
  std::string watch_link(std::uint64_t game_id) const;
  Terminal& terminal_;
  std::shared_ptr<Connection> connection_;
  std::unique_ptr<NameClaim> name_claim_;  // keeps other programs of ours off the name
  std::unique_ptr<TokenFile> token_file_;
  TrustPrompt trust_prompt_;
  std::string known_servers_;  // where trusted servers are remembered
  std::string secret_path_;    // where the name's secret is kept; empty = nowhere
  std::optional<PlayerSecret> secret_;
  GameListQuery list_query_;
  MuteList mutes_;
  std::map<std::uint64_t, wire::ChallengeOffer> challenges_received_;  // standing, by id
  // Challenges of muted players, declined unseen: their ends are not said.
  static constexpr std::size_t kMaxMutedChallenges = 1024;
  std::set<std::uint64_t> muted_challenges_;
  std::map<std::uint32_t, Command> block_requests_;                    // /block, /unblock in flight
  std::string who_filter_;                                             // the name /who filters by
  std::string who_next_;         // where /who next starts; empty: no next page
  std::uint32_t who_shown_ = 0;  // players shown of this /who so far
  std::string server_name_;      // our name as the server holds it
  std::chrono::steady_clock::time_point state_received_at_{};  // when game_ came
  std::uint32_t panel_games_request_ = 0;  // the lobby panel's lists on their way
  std::uint32_t panel_players_request_ = 0;
  std::optional<wire::GameList> panel_games_;
  std::chrono::steady_clock::time_point panel_asked_at_{};

  std::uint64_t player_id_ = 0;
  std::optional<wire::GameState> game_;  // the game sat in or watched
  bool spectating_ = false;
  bool queued_ = false;  // waiting in quick match
  // The last request that put us in a place (quick match, a game we opened,
  // a watched game): asked again when a reconnect didn't keep the place.
  std::optional<wire::ClientMessage> place_request_;
  // The last request for a place or a game to join, with its id: asked again
  // when it got no answer before a Welcome (a Redirect answered it).
  std::optional<std::pair<std::uint32_t, wire::ClientMessage>> entry_request_;
  std::deque<std::string> pending_moves_;
  std::deque<std::string> held_lines_;  // typed before the link was up
  std::uint32_t move_request_ = 0;      // the move in flight, 0 = none
  std::set<std::uint32_t> awaiting_;    // requests whose direct reply is due
  std::uint32_t barrier_request_ = 0;   // a silent request that follows a resume
  std::optional<RoundKey> announced_end_;
  std::map<std::uint32_t, Command> record_queries_;  // /top, /history, /replay in flight
  Pager pager_;  // long lists and replays, a screenful or a move per Enter
  bool welcomed_before_ = false;
  bool started_game_ = false;  // --play-bot was acted on
  bool reconnecting_ = false;
  bool resuming_ = false;  // a resumed Welcome came; Joined is next
  bool input_ended_ = false;
  bool quitting_ = false;
  bool name_refused_ = false;    // the server said NAME_TAKEN
  bool session_active_ = false;  // the server said SESSION_ACTIVE
  std::string fatal_said_;       // a fatal error's words, said already
  boost::asio::steady_timer tick_timer_;
  std::chrono::steady_clock::time_point reconnect_deadline_{};
  long reconnect_announced_ = -1;  // the last countdown said, in tens of seconds
  // The position (round, moves) when moves were typed with the link down.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> offline_position_;
  std::optional<Command> confirming_;  // /resign or /leave waiting for y
  std::chrono::steady_clock::time_point move_sent_at_{};
  bool move_wait_said_ = false;
  // The turn (round, moves) whose low time was said (warn_of_time).
  std::optional<std::pair<std::uint32_t, std::uint32_t>> time_warned_;
  // A place asked for again after a reconnect: its Joined says no more.
  std::uint64_t rejoining_game_ = 0;
  std::array<std::chrono::steady_clock::time_point, 2> away_until_{};  // X, O: seat held until
  std::array<long, 2> away_announced_{-1, -1};
  int exit_code_ = 0;
};

}  // namespace ttt::client
