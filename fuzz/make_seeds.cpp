// Writes the seed corpus (fuzz/corpus/{frame,lobby}/): realistic client
// sessions as byte streams. Run by hand when the protocol grows:
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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argv[1];
  std::filesystem::create_directories(root / "lobby");
  std::filesystem::create_directories(root / "frame");

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
  return 0;
}
