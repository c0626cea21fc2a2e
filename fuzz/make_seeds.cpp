// Writes the seed corpus (fuzz/corpus/{frame,lobby,client}/): realistic
// client sessions, and hostile servers' answers to the client, as byte
// streams. Run by hand when the protocol grows:
//   build/bin/fuzz_make_seeds fuzz/corpus
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ttt/wire/frame.hpp"

namespace {

using ttt::wire::ClientMessage;

// A lobby-harness frame: the connection byte, then the message.
void add(std::string& stream, int conn, const ClientMessage& m) {
  std::string body(1, static_cast<char>(conn));
  body += m.SerializeAsString();
  std::string header(4, '\0');
  header[3] = static_cast<char>(body.size() & 0xff);
  header[2] = static_cast<char>((body.size() >> 8) & 0xff);
  stream += header + body;
}

ClientMessage hello(const std::string& name) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(ttt::wire::kProtocolVersion);
  m.mutable_hello()->set_name(name);
  return m;
}

ClientMessage move(int row, int col) {
  ClientMessage m;
  m.mutable_make_move()->set_row(row);
  m.mutable_make_move()->set_col(col);
  return m;
}

void write(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

using ttt::wire::ServerMessage;

// Text a hostile server puts in every string: escape sequences (OSC title
// and clipboard, CSI clear and colour, DCS), C1 controls, bidi controls.
const std::string kEvil =
    "\x1b]0;PWNED\x07\x1b[2J\x1b[31mEVIL\x1b[0m\xe2\x80\xae"
    "esrever\x1b]52;c;SGk=\x07"
    "\xc2\x9b"
    "2J\x1bPq\x1b\\\n[forged] line\r\xe2\x80\x8b";

ServerMessage reply_to(std::uint32_t request) {
  ServerMessage m;
  m.set_in_reply_to(request);
  return m;
}

// Game 7 on 3x3 in progress: the hostile X (player 2) against player 1 as O.
ttt::wire::GameState game(const std::string& cells, ttt::wire::Side to_move) {
  ttt::wire::GameState s;
  s.set_game_id(7);
  s.set_size(3);
  s.set_cells(cells);
  s.set_status(ttt::wire::GAME_STATUS_IN_PROGRESS);
  s.set_to_move(to_move);
  s.set_round(1);
  s.mutable_x()->set_player_id(2);
  s.mutable_x()->set_name(kEvil);
  s.mutable_x()->set_connected(true);
  s.mutable_o()->set_player_id(1);
  s.mutable_o()->set_name("fuzzer");
  s.mutable_o()->set_connected(true);
  return s;
}

ttt::wire::GameRecord record() {
  ttt::wire::GameRecord g;
  g.set_record_id(3);
  g.set_game_id(7);
  g.set_size(3);
  g.set_x_name(kEvil);
  g.set_o_name(kEvil);
  g.set_status(ttt::wire::GAME_STATUS_X_WON);
  g.set_end_reason(ttt::wire::END_REASON_LINE);
  const int cells[][2] = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {2, 2}};
  for (const auto& cell : cells) {
    ttt::wire::MoveRecord* m = g.add_moves();
    m->set_row(cell[0]);
    m->set_col(cell[1]);
  }
  return g;
}

// A server that answers ttt-client's typed /top, /history, /replay 3, /list
// and /join 7 (request ids 2 to 6) and then says everything else it can,
// each string hostile; games_listed games in the list.
std::string hostile_console_stream(int games_listed) {
  std::string stream;
  auto add = [&stream](const ServerMessage& m) { ttt::wire::append_frame(m, stream); };
  ServerMessage welcome = reply_to(1);
  welcome.mutable_welcome()->set_player_id(1);
  welcome.mutable_welcome()->set_protocol_version(ttt::wire::kProtocolVersion);
  welcome.mutable_welcome()->set_server_version(kEvil);
  welcome.mutable_welcome()->set_name(kEvil);
  welcome.mutable_welcome()->set_secret(kEvil);
  add(welcome);
  ServerMessage top = reply_to(2);
  top.mutable_leaderboard()->add_entries()->set_name(kEvil);
  add(top);
  ServerMessage history = reply_to(3);
  history.mutable_history()->set_name(kEvil);
  *history.mutable_history()->add_games() = record();
  add(history);
  ServerMessage replay = reply_to(4);
  *replay.mutable_replay()->mutable_game() = record();
  add(replay);
  ServerMessage list = reply_to(5);
  for (int i = 0; i < games_listed; ++i) {
    ttt::wire::GameSummary* g = list.mutable_game_list()->add_games();
    g->set_game_id(static_cast<std::uint64_t>(i + 1));
    g->set_size(3);
    g->set_x_name(kEvil);
    g->set_o_name(kEvil);
  }
  add(list);
  ServerMessage joined = reply_to(6);
  joined.mutable_joined()->set_side(ttt::wire::SIDE_O);
  joined.mutable_joined()->set_invite_code(kEvil);
  *joined.mutable_joined()->mutable_state() = game("EEEEEEEEE", ttt::wire::SIDE_X);
  add(joined);
  ServerMessage moved;
  *moved.mutable_state() = game("XEEEEEEEE", ttt::wire::SIDE_O);
  moved.mutable_state()->set_move_count(1);
  moved.mutable_state()->mutable_last_move();
  add(moved);
  ServerMessage chat;
  chat.mutable_chat()->set_from(kEvil);
  chat.mutable_chat()->set_text(kEvil);
  add(chat);
  ServerMessage error;
  error.mutable_error()->set_code(ttt::wire::ERROR_CODE_BAD_REQUEST);
  error.mutable_error()->set_text(kEvil);
  add(error);
  ServerMessage unreadable;
  *unreadable.mutable_state() = game(kEvil, ttt::wire::SIDE_O);
  unreadable.mutable_state()->set_move_count(2);
  add(unreadable);
  ServerMessage ping;
  ping.mutable_ping()->set_nonce(9);
  add(ping);
  ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(kEvil);
  add(goodbye);
  ServerMessage fatal;
  fatal.mutable_error()->set_code(ttt::wire::ERROR_CODE_REPLACED);
  fatal.mutable_error()->set_text(kEvil);
  fatal.mutable_error()->set_fatal(true);
  add(fatal);
  return stream;
}

// A server that seats ttt-bot (its QuickMatch is request 2) as X in a game
// with a hostile opponent, ends it, and says hostile things.
std::string hostile_bot_stream() {
  std::string stream;
  auto add = [&stream](const ServerMessage& m) { ttt::wire::append_frame(m, stream); };
  ServerMessage welcome = reply_to(1);
  welcome.mutable_welcome()->set_player_id(2);
  welcome.mutable_welcome()->set_server_version(kEvil);
  welcome.mutable_welcome()->set_name(kEvil);
  add(welcome);
  ServerMessage joined = reply_to(2);
  joined.mutable_joined()->set_side(ttt::wire::SIDE_X);
  *joined.mutable_joined()->mutable_state() = game("EEEEEEEEE", ttt::wire::SIDE_X);
  add(joined);
  ServerMessage refused = reply_to(3);
  refused.mutable_error()->set_code(ttt::wire::ERROR_CODE_OCCUPIED);
  refused.mutable_error()->set_text(kEvil);
  add(refused);
  ServerMessage over;
  *over.mutable_state() = game("XXXOOEEEE", ttt::wire::SIDE_NONE);
  over.mutable_state()->set_status(ttt::wire::GAME_STATUS_X_WON);
  over.mutable_state()->set_move_count(5);
  add(over);
  ServerMessage unreadable;
  *unreadable.mutable_state() = game(kEvil, ttt::wire::SIDE_X);
  add(unreadable);
  ServerMessage goodbye;
  goodbye.mutable_goodbye()->set_reason(kEvil);
  add(goodbye);
  ServerMessage fatal;
  fatal.mutable_error()->set_code(ttt::wire::ERROR_CODE_SHUTTING_DOWN);
  fatal.mutable_error()->set_text(kEvil);
  fatal.mutable_error()->set_fatal(true);
  add(fatal);
  return stream;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argv[1];
  std::filesystem::create_directories(root / "lobby");
  std::filesystem::create_directories(root / "frame");
  std::filesystem::create_directories(root / "client");

  // A whole game between connections 0 and 1, watched by 2.
  std::string game;
  add(game, 0, hello("alice"));
  add(game, 1, hello("bob"));
  add(game, 2, hello("carol"));
  ClientMessage create;
  create.mutable_create_game()->set_size(3);
  add(game, 0, create);
  ClientMessage join;
  join.mutable_join_game()->set_game_id(1);
  add(game, 1, join);
  ClientMessage spectate;
  spectate.mutable_spectate()->set_game_id(1);
  add(game, 2, spectate);
  const int moves[][2] = {{0, 0}, {1, 1}, {0, 1}, {0, 2}, {2, 0}, {1, 0}, {1, 2}, {2, 1}, {2, 2}};
  for (int i = 0; i < 9; ++i) add(game, i % 2, move(moves[i][0], moves[i][1]));
  ClientMessage rematch;
  rematch.mutable_rematch();
  add(game, 0, rematch);
  add(game, 1, rematch);
  write(root / "lobby" / "full_game", game);

  // Quick match, a bot game, chat, draw offers, resign, private games, leave.
  std::string lobby;
  add(lobby, 0, hello("dave"));
  add(lobby, 1, hello("erin"));
  add(lobby, 2, hello("frank"));
  ClientMessage quick;
  quick.mutable_quick_match()->set_size(4);
  add(lobby, 0, quick);
  add(lobby, 1, quick);
  ClientMessage chat;
  chat.mutable_chat()->set_text("hello there");
  add(lobby, 0, chat);
  ClientMessage draw;
  draw.mutable_offer_draw();
  add(lobby, 0, draw);
  add(lobby, 1, draw);
  ClientMessage leave;
  leave.mutable_leave();
  add(lobby, 0, leave);
  ClientMessage bot;
  bot.mutable_create_game()->set_size(3);
  bot.mutable_create_game()->set_vs_bot(true);
  bot.mutable_create_game()->set_bot_level(ttt::wire::BOT_LEVEL_RANDOM);
  add(lobby, 2, bot);
  add(lobby, 2, move(1, 1));
  ClientMessage resign;
  resign.mutable_resign();
  add(lobby, 2, resign);
  ClientMessage priv;
  priv.mutable_create_game()->set_size(5);
  priv.mutable_create_game()->set_is_private(true);
  add(lobby, 1, leave);
  add(lobby, 1, priv);
  ClientMessage list;
  list.mutable_list_games();
  add(lobby, 0, list);
  ClientMessage stats;
  stats.mutable_get_stats();
  add(lobby, 0, stats);
  write(root / "lobby" / "lobby_tour", lobby);

  // Frames: a few client and server messages, and edge cases.
  std::string frames(1, '\x07');
  for (const auto& m : {hello("x"), move(2, 2), create, chat}) ttt::wire::append_frame(m, frames);
  ttt::wire::ServerMessage state;
  state.mutable_state()->set_cells("XOXEEEEEE");
  state.mutable_state()->set_status(ttt::wire::GAME_STATUS_IN_PROGRESS);
  ttt::wire::append_frame(state, frames);
  write(root / "frame" / "messages", frames);
  write(root / "frame" / "huge_length", std::string("\x01\xff\xff\xff\xff", 5));
  write(root / "frame" / "empty_frames", std::string("\x03\0\0\0\0\0\0\0\0", 9));

  // The client: the first byte says how it runs (0 ttt-client in line mode,
  // 1 on a terminal, 2 ttt-bot), the rest is what the server sends.
  write(root / "client" / "console_lines", std::string(1, '\0') + hostile_console_stream(3));
  write(root / "client" / "console_terminal", std::string(1, '\1') + hostile_console_stream(40));
  write(root / "client" / "bot", std::string(1, '\2') + hostile_bot_stream());
  ServerMessage welcome = reply_to(1);  // then a chat whose text is not UTF-8
  welcome.mutable_welcome()->set_player_id(1);
  welcome.mutable_welcome()->set_name("fuzzer");
  ServerMessage bad_utf8;
  bad_utf8.mutable_chat()->set_text("x");
  std::string frame = ttt::wire::encode_frame(bad_utf8);
  frame.back() = '\xff';
  write(root / "client" / "invalid_utf8",
        std::string(1, '\0') + ttt::wire::encode_frame(welcome) + frame);
  return 0;
}
