// A hostile lobby against the real ttt-client in a real terminal (tmux). A
// scripted stand-in server speaking the real protocol sends one kind of
// hostile text in every message that carries text: the Welcome's name and
// server version, the game list, the leaderboard, a history, a replay, a
// Joined (names, invite code), a move's state, chat, an error, a board that
// can't be read, a Goodbye and a fatal error. Afterwards the terminal must be
// as it was: the pane's title unchanged, no bell, nothing on the clipboard,
// the screen not cleared, no colour anywhere (the client runs with --color
// never, so any colour came from the server), and every text visible in its
// made-harmless form. A first test shows that these checks catch the same
// text printed raw.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <ostream>

#include "client_support/client_programs.hpp"
#include "client_support/fake_server.hpp"
#include "client_support/tmux.hpp"
#include "text/display_width.hpp"
#include "text/safe_text.hpp"

namespace ttt::testing {
namespace {

using client::safe_text;
namespace width = client::field_width;

struct Hostile {
  const char* kind;
  std::string text;
};

// Test names and messages show the kind, not the bytes.
void PrintTo(const Hostile& hostile, std::ostream* out) { *out << hostile.kind; }

// One of each kind of attack; every one goes into every message type.
const std::vector<Hostile>& hostile_texts() {
  static const std::vector<Hostile> texts = {
      // The issue's: retitles (OSC 0), clears (ED), paints red (SGR), reverses (RLO).
      {"issue",
       "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[31mEVIL\x1b[0m\xe2\x80\xae"
       "esrever"},
      // OSC 2 ended by ST, the clipboard (OSC 52), a bell, a hyperlink (OSC 8).
      {"osc", "\x1b]2;PWNED-ST\x1b\\\x1b]52;c;UFdORUQ=\x07\x07\x1b]8;;http://x/\x1b\\ln"},
      // 8-bit C1 controls: CSI (U+009B) clearing and colouring, OSC (U+009D) retitling.
      {"c1",
       "\xc2\x9d"
       "0;C1-TITLE\xc2\x9c\xc2\x9b"
       "2J\xc2\x9b"
       "41mC1"},
      // Forged lines: CR, LF, erase line, cursor up, and a DCS that asks the terminal to answer.
      {"lines", "ok\r\n[alice (X)] forged\r\x1b[K\x1b[1A\x1bP+q544e\x1b\\\x1b[6n"},
      // Bidi isolates and embeddings, zero-width and filler characters, wide text.
      {"invisible", "\xe2\x81\xa6\xe2\x80\xab\xe2\x80\x8b\xe3\x85\xa4x\xe2\x81\xa9\xe6\x97\xa5"},
  };
  return texts;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The first character upper-cased, as error_text does.
std::string capitalized(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

// The terminal checks: nothing the server sent acted on it.
void expect_terminal_untouched(Tmux& tmux, const std::string& title_before,
                               const std::string& first_line) {
  EXPECT_EQ(tmux.format("#{pane_title}"), title_before) << "the pane's title changed";
  EXPECT_EQ(tmux.format("#{window_bell_flag}"), "0") << "the terminal rang";
  EXPECT_EQ(tmux.buffers(), "") << "something reached the clipboard (OSC 52)";
  EXPECT_TRUE(has(tmux.visible(), first_line)) << "the screen was cleared:\n" << tmux.visible();
  const std::string attributes = tmux.visible_with_attributes();
  EXPECT_EQ(attributes.find('\x1b'), std::string::npos) << "colours or attributes on the screen:\n"
                                                        << attributes;
}

wire::GameRecord record_of(const std::string& x, const std::string& o) {
  wire::GameRecord g;
  g.set_record_id(5);
  g.set_game_id(9);
  g.set_round(1);
  g.set_size(3);
  g.set_x_name(x);
  g.set_o_name(o);
  g.set_status(wire::GAME_STATUS_DRAW);
  g.set_end_reason(wire::END_REASON_ABORTED);
  g.set_started_ms(1'795'356'180'000);
  g.set_ended_ms(1'795'356'240'000);
  g.set_move_count(1);
  return g;
}

// Game 9, 3x3: the hostile player X (id 2), the client O (id 1).
wire::GameState game_of(const std::string& x) {
  wire::GameState s;
  s.set_game_id(9);
  s.set_size(3);
  s.set_cells("EEEEEEEEE");
  s.set_status(wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(wire::SIDE_X);
  s.set_round(1);
  s.set_is_private(true);
  s.mutable_x()->set_player_id(2);
  s.mutable_x()->set_name(x);
  s.mutable_x()->set_connected(true);
  s.mutable_x()->set_rating(1200);
  s.mutable_o()->set_player_id(1);
  s.mutable_o()->set_name("tester");
  s.mutable_o()->set_connected(true);
  s.mutable_o()->set_rating(1200);
  return s;
}

template <typename Fill>
wire::ServerMessage reply(const wire::ClientMessage& request, Fill fill) {
  wire::ServerMessage m;
  m.set_in_reply_to(request.request_id());
  fill(m);
  return m;
}

TEST(HostileServer, TheChecksCatchTheSameTextPrintedRaw) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  TempDir dir;
  const std::string file = dir.path() + "/raw";
  std::ofstream(file, std::ios::binary)
      << "FIRST LINE\n"
      << hostile_texts()[0].text << hostile_texts()[1].text << "\n";
  Tmux tmux;
  ASSERT_TRUE(tmux.start("sleep 0.3; cat " + file + "; sleep 30", 120, 40));
  const std::string title = tmux.format("#{pane_title}");
  ASSERT_TRUE(tmux.wait_screen([](const std::string& s) { return has(s, "EVIL"); }, 10s))
      << tmux.screen();
  EXPECT_NE(tmux.format("#{pane_title}"), title);
  EXPECT_EQ(tmux.format("#{window_bell_flag}"), "1");
  EXPECT_NE(tmux.buffers(), "");
  EXPECT_FALSE(has(tmux.visible(), "FIRST LINE"));
  EXPECT_NE(tmux.visible_with_attributes().find("\x1b["), std::string::npos);
}

class HostileServer : public ::testing::TestWithParam<Hostile> {};

TEST_P(HostileServer, EveryTextReachesTheScreenHarmless) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  const std::string& evil = GetParam().text;
  const auto name = [&](std::size_t w = width::kName) { return safe_text(evil, w); };
  FakeServer server;
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(
      server.port(), config, "--name tester --retry 0 --log-level info --color never", 250, 100));
  const std::string title = tmux.format("#{pane_title}");
  auto see = [&](const std::string& text) {
    return tmux.wait_screen([&](const std::string& s) { return has(s, text); }, 10s);
  };
  auto request = [&](const std::string& command, auto is_it) {
    tmux.type(command);
    auto m = server.expect(is_it);
    EXPECT_TRUE(m) << command << " was not asked:\n" << tmux.screen();
    return m.value_or(wire::ClientMessage{});
  };

  const auto hello = server.expect([](const auto& m) { return m.has_hello(); });
  ASSERT_TRUE(hello) << tmux.screen();
  server.send(reply(*hello, [&](wire::ServerMessage& m) {
    m.mutable_welcome()->set_player_id(1);
    m.mutable_welcome()->set_protocol_version(wire::kProtocolVersion);
    m.mutable_welcome()->set_server_version(evil);
    m.mutable_welcome()->set_name(evil);
    m.mutable_welcome()->set_rating(1200);
  }));
  const std::string connected = "as " + name() + " (rating 1200).";
  ASSERT_TRUE(see(connected)) << tmux.screen();
  EXPECT_TRUE(see("(ttt-server " + name(width::kShort) + ")")) << tmux.screen();

  auto list = request("/list", [](const auto& m) { return m.has_list_games(); });
  server.send(reply(list, [&](wire::ServerMessage& m) {
    wire::GameSummary* g = m.mutable_game_list()->add_games();
    g->set_game_id(9);
    g->set_size(3);
    g->set_status(wire::GAME_STATUS_WAITING);
    g->set_x_name(evil);
    g->set_o_name(evil);
  }));
  EXPECT_TRUE(see("    9  3x3                waiting      " + client::pad_right(name(16), 16) +
                  " " + name(16)))
      << tmux.screen();

  auto top = request("/top", [](const auto& m) { return m.has_get_leaderboard(); });
  server.send(reply(top, [&](wire::ServerMessage& m) {
    m.mutable_leaderboard()->add_entries()->set_name(evil);
  }));
  EXPECT_TRUE(see("   1  " + name(18))) << tmux.screen();

  auto history = request("/history", [](const auto& m) { return m.has_get_history(); });
  server.send(reply(history, [&](wire::ServerMessage& m) {
    m.mutable_history()->set_name(evil);
    *m.mutable_history()->add_games() = record_of(evil, evil);
  }));
  EXPECT_TRUE(see("Recent games of " + name() + ", newest first:")) << tmux.screen();
  EXPECT_TRUE(see("3x3                " + name(18))) << tmux.screen();

  auto replay = request("/replay 5", [](const auto& m) { return m.has_get_replay(); });
  server.send(reply(replay, [&](wire::ServerMessage& m) {
    wire::GameRecord* g = m.mutable_replay()->mutable_game();
    *g = record_of(evil, evil);
    wire::MoveRecord* move = g->add_moves();
    move->set_row(1);
    move->set_col(1);
    move->set_at_ms(1'795'356'181'000);
  }));
  EXPECT_TRUE(see(name() + " (X) vs " + name() + " (O)")) << tmux.screen();
  tmux.type("");  // Enter: the move
  EXPECT_TRUE(see(": " + name() + " (X) played b2.")) << tmux.screen();

  auto join = request("/join 9", [](const auto& m) { return m.has_join_game(); });
  server.send(reply(join, [&](wire::ServerMessage& m) {
    m.mutable_joined()->set_side(wire::SIDE_O);
    m.mutable_joined()->set_invite_code(evil);
    *m.mutable_joined()->mutable_state() = game_of(evil);
  }));
  EXPECT_TRUE(see("others join with /join 9 " + name(width::kShort))) << tmux.screen();
  EXPECT_TRUE(see(": " + name() + " (X, 1200) vs tester (O, 1200), private")) << tmux.screen();
  wire::GameState moved = game_of(evil);
  moved.set_cells("XEEEEEEEE");
  moved.set_move_count(1);
  moved.mutable_last_move();  // a1
  moved.set_to_move(wire::SIDE_O);
  server.state(moved);
  EXPECT_TRUE(see(name() + " (X) played a1.")) << tmux.screen();

  wire::ServerMessage chat;
  chat.mutable_chat()->set_game_id(9);
  chat.mutable_chat()->set_from(evil);
  chat.mutable_chat()->set_from_side(wire::SIDE_X);
  chat.mutable_chat()->set_text(evil);
  server.send(chat);
  EXPECT_TRUE(see("[" + name() + " (X)] " + name(width::kChat))) << tmux.screen();

  wire::ServerMessage error;
  error.mutable_error()->set_code(wire::ERROR_CODE_BAD_REQUEST);
  error.mutable_error()->set_text(evil);
  server.send(error);
  EXPECT_TRUE(see(capitalized(name(width::kMessage)))) << tmux.screen();

  wire::ServerMessage notice;
  notice.mutable_notice()->set_code(wire::ERROR_CODE_DATABASE_WAIT);
  notice.mutable_notice()->set_text(evil);
  server.send(notice);
  EXPECT_TRUE(see("The server says: " + name(width::kMessage))) << tmux.screen();

  wire::GameState unreadable = moved;
  unreadable.set_cells(evil);
  unreadable.set_move_count(2);
  server.state(unreadable);
  EXPECT_TRUE(see("The server sent a board that can't be read: " + name(width::kShort)))
      << tmux.screen();

  wire::ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(evil);
  server.send(goodbye);
  EXPECT_TRUE(see("The server is going away: " + name(width::kMessage))) << tmux.screen();
  wire::ServerMessage fatal;
  fatal.mutable_error()->set_code(wire::ERROR_CODE_INTERNAL);
  fatal.mutable_error()->set_text(evil);
  fatal.mutable_error()->set_fatal(true);
  server.send(fatal);
  EXPECT_TRUE(see("The server closed the connection: " + name(width::kMessage))) << tmux.screen();
  EXPECT_TRUE(tmux.wait_exit(10s)) << tmux.screen();
  EXPECT_TRUE(see("ttt-client: the server is going away: " + name(width::kMessage)))
      << tmux.screen();

  expect_terminal_untouched(tmux, title, connected);
}

// The list the issue saw: 3,000 open games in one frame (every 100th with a
// hostile name), for the request list.
wire::ServerMessage three_thousand_games(const wire::ClientMessage& list) {
  return reply(list, [](wire::ServerMessage& m) {
    for (std::uint64_t id = 1; id <= 3000; ++id) {
      wire::GameSummary* g = m.mutable_game_list()->add_games();
      g->set_game_id(id);
      g->set_size(3);
      g->set_status(wire::GAME_STATUS_WAITING);
      g->set_x_name(id % 100 == 0 ? hostile_texts()[0].text : "player" + std::to_string(id));
    }
  });
}

// The last line of a screen that has text (tmux drops trailing spaces).
std::string last_line(std::string screen) {
  while (!screen.empty() && screen.back() == '\n') screen.pop_back();
  return screen.substr(screen.rfind('\n') + 1);
}

bool is_list(const wire::ClientMessage& m) { return m.has_list_games(); }
bool is_hello(const wire::ClientMessage& m) { return m.has_hello(); }

TEST(HostileServerList, ATerminalGetsThreeThousandGamesAScreenfulAtATime) {
  if (!Tmux::available()) GTEST_SKIP() << "tmux is not installed";
  FakeServer server;
  TempDir config;
  Tmux tmux;
  ASSERT_TRUE(tmux.start_client(server.port(), config, "--name tester --retry 0", 120, 40));
  const auto hello = server.expect(is_hello);
  ASSERT_TRUE(hello) << tmux.screen();
  server.welcome(*hello);
  ASSERT_TRUE(tmux.wait_screen([](const auto& s) { return has(s, "Connected to"); }, 10s));
  tmux.type("/list");
  const auto list = server.expect(is_list);
  ASSERT_TRUE(list) << tmux.screen();
  server.send(three_thousand_games(*list));
  // A 40-row screen: the header and 38 games, the prompt on the last row.
  ASSERT_TRUE(tmux.wait_screen(
      [](const auto& s) { return has(s, "more: Enter for line 40 of 3002, q to stop>"); }, 10s))
      << tmux.screen();
  EXPECT_TRUE(has(tmux.visible(), "   38  3x3                waiting      player38"))
      << tmux.visible();
  EXPECT_FALSE(has(tmux.screen(), "player39")) << tmux.screen();
  tmux.type("");  // Enter: the next screenful
  ASSERT_TRUE(tmux.wait_screen(
      [](const auto& s) { return has(s, "more: Enter for line 78 of 3002, q to stop>"); }, 10s))
      << tmux.screen();
  EXPECT_TRUE(has(tmux.screen(), "   76  3x3                waiting      player76"))
      << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "player77")) << tmux.screen();
  tmux.type("q");
  ASSERT_TRUE(tmux.wait_screen([&](const auto&) { return last_line(tmux.visible()) == ">"; }, 10s))
      << "the prompt is back after q:\n"
      << tmux.visible();
  tmux.type("/quit");
  EXPECT_TRUE(tmux.wait_exit(10s)) << tmux.screen();
  EXPECT_FALSE(has(tmux.screen(), "player77")) << "q shows nothing more";
}

TEST(HostileServerList, AScriptGetsTheFirst200LinesOfThreeThousandGames) {
  FakeServer server;
  TempDir config;
  auto client = start_client(server.port(), config, {"--retry", "0"});
  client->write("/list\n");
  const auto hello = server.expect(is_hello);
  ASSERT_TRUE(hello) << client->output();
  server.welcome(*hello);
  const auto list = server.expect(is_list);
  ASSERT_TRUE(list) << client->output();
  server.send(three_thousand_games(*list));
  ASSERT_TRUE(client->wait_for_text("lines of a list)\n", 10s)) << client->output();
  client->close_stdin();
  EXPECT_TRUE(server.hang_up_after_the_client()) << client->output();
  ASSERT_EQ(client->wait_exit(10s), 0) << client->output();
  const std::string& out = client->output();
  EXPECT_TRUE(has(
      out,
      "\n  199  3x3                waiting      player199        -\n(2802 more lines not shown: a "
      "script gets the first 200 lines of a list)\n"))
      << out;
  EXPECT_FALSE(has(out, "player200")) << out;
  EXPECT_TRUE(has(out, "  100  3x3                waiting      ^[]0;PWNED-TITL") &&
              !has(out, "\x1b"))
      << out;
}

// Every line a bot printed is its own: a log line (timestamp first), its
// last word ("ttt-bot: ...") or its summary; and no byte in them is a
// control character, an escape, a C1 control or a bidi control.
void expect_no_forged_lines(const std::string& output) {
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t end = output.find('\n', start);
    const std::string line = output.substr(start, end - start);
    start = end == std::string::npos ? output.size() : end + 1;
    EXPECT_TRUE(line.rfind("[2026-11-23 00:00", 0) != 0) << "a forged log line: " << line;
    EXPECT_TRUE(line.rfind("[20", 0) == 0 || line.rfind("ttt-bot: ", 0) == 0 ||
                line.rfind("bot summary: ", 0) == 0)
        << "a line the bot did not write: " << line;
    for (const char c : line) {
      const auto byte = static_cast<unsigned char>(c);
      EXPECT_TRUE(byte >= 0x20 && byte != 0x7f) << "a control byte in: " << line;
    }
    EXPECT_FALSE(has(line, "\xc2\x9b") || has(line, "\xe2\x80\xae")) << line;
  }
}

TEST(HostileServerBot, TheBotsLogQuotesTheServerOnlyHarmlessly) {
  const std::string evil =
      "\x1b]0;PWNED\x07\x1b[31mred\xc2\x9b"
      "2J\xe2\x80\xae"
      "rev\n"
      "[2026-11-23 00:00:00.000] [ttt-bot] [error] FORGED\r\x1b[K";
  FakeServer server;
  TempDir config;
  auto bot = start_bot(server.port(), config, {"--name", "logger", "--log-level", "debug"});
  const auto hello = server.expect(is_hello);
  ASSERT_TRUE(hello) << bot->output();
  server.send(reply(*hello, [&](wire::ServerMessage& m) {
    m.mutable_welcome()->set_player_id(1);
    m.mutable_welcome()->set_name("logger");
    m.mutable_welcome()->set_server_version(evil);
  }));
  const auto quick = server.expect([](const auto& m) { return m.has_quick_match(); });
  ASSERT_TRUE(quick) << bot->output();
  wire::ServerMessage notice;
  notice.mutable_notice()->set_code(wire::ERROR_CODE_DATABASE_WAIT);
  notice.mutable_notice()->set_text(evil);
  server.send(notice);
  wire::ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(evil);
  server.send(goodbye);
  server.send(reply(*quick, [&](wire::ServerMessage& m) {
    m.mutable_error()->set_code(wire::ERROR_CODE_BAD_REQUEST);
    m.mutable_error()->set_text(evil);
  }));
  EXPECT_TRUE(server.hang_up_after_the_client()) << bot->output();
  ASSERT_EQ(bot->wait_exit(10s), 1) << bot->output();
  const std::string& out = bot->output();
  const std::string shown = safe_text(evil, width::kMessage);
  EXPECT_TRUE(has(out, "the server is going away: " + shown)) << out;
  EXPECT_TRUE(has(out, "the server says: " + shown)) << out;
  EXPECT_TRUE(has(out, "could not get a game: " + shown)) << out;
  EXPECT_TRUE(has(out, "(ttt-server " + safe_text(evil, width::kShort) + ")")) << out;
  expect_no_forged_lines(out);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, HostileServer, ::testing::ValuesIn(hostile_texts()),
                         [](const auto& param) { return std::string(param.param.kind); });

}  // namespace
}  // namespace ttt::testing
