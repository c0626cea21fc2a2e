// The slash commands: every command, its arguments and the refusals; and the
// request each one sends.
#include <gtest/gtest.h>

#include "client_support/command_parse.hpp"
#include "console/command.hpp"
#include "console/command_request.hpp"

namespace ttt::client {
namespace {

using testing::parsed;
using testing::refusal;

TEST(Command, SimpleCommandsTakeNoArguments) {
  EXPECT_EQ(parsed("/list").kind, CommandKind::List);
  EXPECT_EQ(parsed("/resign").kind, CommandKind::Resign);
  EXPECT_EQ(parsed("/draw").kind, CommandKind::Draw);
  EXPECT_EQ(parsed("/rematch").kind, CommandKind::Rematch);
  EXPECT_EQ(parsed("/leave").kind, CommandKind::Leave);
  EXPECT_EQ(parsed("/help").kind, CommandKind::Help);
  EXPECT_EQ(parsed(" /quit ").kind, CommandKind::Quit);
  EXPECT_NE(refusal("/resign now").find("takes no arguments"), std::string::npos);
}

TEST(Command, CreateTakesSizePrivateAndBotLevel) {
  const Command plain = parsed("/create 4");
  EXPECT_EQ(plain.kind, CommandKind::Create);
  EXPECT_EQ(plain.size, 4);
  EXPECT_FALSE(plain.is_private);
  EXPECT_FALSE(plain.bot);

  const Command full = parsed("/create 5 private bot hard");
  EXPECT_EQ(full.size, 5);
  EXPECT_TRUE(full.is_private);
  EXPECT_EQ(full.bot, Level::Hard);

  EXPECT_EQ(parsed("/create 3 bot").bot, Level::Perfect);
  EXPECT_EQ(parsed("/create").size, 3);
  for (const char* level : {"random", "easy", "medium", "hard", "perfect"}) {
    EXPECT_EQ(parsed(std::string("/create 3 bot ") + level).bot, parse_level(level));
  }
}

TEST(Command, CreateSaysWhetherTheGameIsRated) {
  EXPECT_FALSE(parsed("/create 3").rated) << "the server's default";
  EXPECT_EQ(parsed("/create 3 rated").rated, true);
  EXPECT_EQ(parsed("/create 3 unrated").rated, false);
  const Command bot_rated = parsed("/create 4 bot rated");
  EXPECT_EQ(bot_rated.bot, Level::Perfect) << "a level left out, not 'rated' read as one";
  EXPECT_EQ(bot_rated.rated, true);
  const Command all = parsed("/create 5 private bot easy unrated");
  EXPECT_TRUE(all.is_private);
  EXPECT_EQ(all.bot, Level::Easy);
  EXPECT_EQ(all.rated, false);
  EXPECT_NE(refusal("/create 3 ranked").find("[rated|unrated]"), std::string::npos);
}

TEST(Command, CreateRefusesBadSizesAndLevels) {
  EXPECT_NE(refusal("/create 2").find("3 to 19"), std::string::npos);
  EXPECT_NE(refusal("/create 20").find("3 to 19"), std::string::npos);
  EXPECT_EQ(parsed("/create 19").size, 19);
  EXPECT_NE(refusal("/create 3 bot genius").find("Unknown bot level"), std::string::npos);
  EXPECT_NE(refusal("/create 3 public").find("Usage"), std::string::npos);
}

TEST(Command, CreateAndQuickTakeAWinLength) {
  const Command gomoku = parsed("/create 15 k 5");
  EXPECT_EQ(gomoku.size, 15);
  EXPECT_EQ(gomoku.win_length, 5);
  EXPECT_EQ(parsed("/create 15").win_length, 0) << "the whole line";
  const Command mixed = parsed("/create 9 private k 4 bot hard rated");
  EXPECT_EQ(mixed.win_length, 4);
  EXPECT_TRUE(mixed.is_private);
  EXPECT_EQ(mixed.bot, Level::Hard);
  EXPECT_EQ(parsed("/create 7 bot k 7").bot, Level::Perfect) << "k is not a level";
  EXPECT_EQ(parsed("/create 7 bot k 7").win_length, 7);
  const Command quick = parsed("/quick 15 k 5");
  EXPECT_EQ(quick.kind, CommandKind::Quick);
  EXPECT_EQ(quick.size, 15);
  EXPECT_EQ(quick.win_length, 5);
  EXPECT_EQ(parsed("/quick 19").win_length, 0);
  EXPECT_EQ(refusal("/create 15 k 2"),
            "The win length is a number from 3 to 15 on a 15x15 board, not '2'");
  EXPECT_EQ(refusal("/create 5 k 6"),
            "The win length is a number from 3 to 5 on a 5x5 board, not '6'");
  EXPECT_EQ(refusal("/quick 15 k five"),
            "The win length is a number from 3 to 15 on a 15x15 board, not 'five'");
  EXPECT_EQ(refusal("/create 15 k"),
            "k needs a number after it: how many in a row win (from 3 to 15 on a 15x15 board), "
            "e.g. k 5");
  EXPECT_NE(refusal("/quick 15 k").find("k needs a number"), std::string::npos);
  EXPECT_NE(refusal("/quick 15 5").find("Usage: /quick SIZE [k K]"), std::string::npos);
  EXPECT_NE(refusal("/quick 15 k 5 6").find("Usage"), std::string::npos);
}

TEST(Command, JoinTakesAnIdAndAnOptionalCode) {
  const Command join = parsed("/join 12");
  EXPECT_EQ(join.kind, CommandKind::Join);
  EXPECT_EQ(join.game_id, 12u);
  EXPECT_TRUE(join.code.empty());
  const Command coded = parsed("/join 7 ABC234");
  EXPECT_EQ(coded.game_id, 7u);
  EXPECT_EQ(coded.code, "ABC234");
  const Command code_only = parsed("/join ABC234");
  EXPECT_EQ(code_only.game_id, 0u);
  EXPECT_EQ(code_only.code, "ABC234");
  EXPECT_NE(refusal("/join").find("Usage"), std::string::npos);
}

TEST(Command, QuickAndWatch) {
  const Command quick = parsed("/quick 4");
  EXPECT_EQ(quick.kind, CommandKind::Quick);
  EXPECT_EQ(quick.size, 4);
  EXPECT_EQ(parsed("/quick").size, 3);
  refusal("/quick big");
  const Command watch = parsed("/watch 3");
  EXPECT_EQ(watch.kind, CommandKind::Watch);
  EXPECT_EQ(watch.game_id, 3u);
  EXPECT_NE(refusal("/watch x").find("number"), std::string::npos);
}

TEST(Command, SayKeepsTheWholeText) {
  const Command say = parsed("/say  good game, well played!  ");
  EXPECT_EQ(say.kind, CommandKind::Say);
  EXPECT_EQ(say.text, "good game, well played!  ");
  refusal("/say");
}

TEST(Command, TopTakesAnOptionalCount) {
  const Command top = parsed("/top");
  EXPECT_EQ(top.kind, CommandKind::Top);
  EXPECT_EQ(top.limit, 10);
  EXPECT_EQ(parsed("/top 25").limit, 25);
  EXPECT_NE(refusal("/top 0").find("1 to 100"), std::string::npos);
  EXPECT_NE(refusal("/top 101").find("1 to 100"), std::string::npos);
  EXPECT_NE(refusal("/top all").find("1 to 100"), std::string::npos);
  EXPECT_NE(refusal("/top 1 2").find("Usage"), std::string::npos);
}

TEST(Command, HistoryTakesTheRestOfTheLineAsAName) {
  const Command mine = parsed("/history");
  EXPECT_EQ(mine.kind, CommandKind::History);
  EXPECT_EQ(mine.text, "") << "empty: the player's own games";
  EXPECT_EQ(parsed("/history bob").text, "bob");
  EXPECT_EQ(parsed("/history  bot (hard)  ").text, "bot (hard)");
}

TEST(Command, ReplayTakesARecordId) {
  const Command replay = parsed("/replay 17");
  EXPECT_EQ(replay.kind, CommandKind::Replay);
  EXPECT_EQ(replay.record_id, 17u);
  EXPECT_NE(refusal("/replay").find("Usage: /replay ID"), std::string::npos);
  EXPECT_NE(refusal("/replay 3 4").find("Usage"), std::string::npos);
  EXPECT_NE(refusal("/replay last").find("record id is a number"), std::string::npos);
  EXPECT_NE(refusal("/replay 0").find("record id is a number"), std::string::npos);
}

TEST(Command, ListTakesFiltersOrNext) {
  const Command plain = parsed("/list");
  EXPECT_FALSE(plain.next_page);
  EXPECT_FALSE(plain.open_only);
  EXPECT_EQ(plain.list_size, 0);
  const Command filtered = parsed("/list open 15 rated name ali");
  EXPECT_TRUE(filtered.open_only);
  EXPECT_EQ(filtered.list_size, 15);
  EXPECT_EQ(filtered.rated, true);
  EXPECT_EQ(filtered.text, "ali");
  EXPECT_TRUE(parsed("/list next").next_page);
  EXPECT_EQ(parsed("/list unrated").rated, false);
  EXPECT_NE(refusal("/list 99").find("3 to 19"), std::string::npos);
  EXPECT_NE(refusal("/list everything").find("Usage: /list"), std::string::npos);
}

TEST(Command, ListTakesAWinLengthAfterItsSize) {
  EXPECT_EQ(parsed("/list").win_length, 0) << "any";
  const Command gomoku = parsed("/list 15 k 5 unrated");
  EXPECT_EQ(gomoku.list_size, 15);
  EXPECT_EQ(gomoku.win_length, 5);
  EXPECT_EQ(gomoku.rated, false);
  EXPECT_EQ(parsed("/list 15 k 15").win_length, 15) << "the whole line, asked for";
  EXPECT_EQ(refusal("/list 15 k 2"),
            "The win length is a number from 3 to 15 on a 15x15 board, not '2'");
  EXPECT_NE(refusal("/list 15 k").find("k needs a number"), std::string::npos);
  EXPECT_NE(refusal("/list k 5").find("Usage: /list"), std::string::npos) << "k goes after SIZE";
}

TEST(Command, MuteSpectatorsAndSecret) {
  const Command mute = parsed("/mute bot (hard)");
  EXPECT_EQ(mute.kind, CommandKind::Mute);
  EXPECT_EQ(mute.text, "bot (hard)");
  EXPECT_EQ(parsed("/mute").text, "") << "lists who is muted";
  EXPECT_EQ(parsed("/unmute eve").kind, CommandKind::Unmute);
  refusal("/unmute");
  EXPECT_TRUE(parsed("/spectators on").on);
  EXPECT_FALSE(parsed("/spectators off").on);
  refusal("/spectators maybe");
  EXPECT_EQ(parsed("/secret rotate").kind, CommandKind::SecretRotate);
  refusal("/secret show");
}

TEST(Command, UnknownCommandsAreRefused) {
  EXPECT_NE(refusal("/dance").find("Unknown command /dance"), std::string::npos);
  refusal("/");
  EXPECT_TRUE(is_command("/list"));
  EXPECT_TRUE(is_command("  /list"));
  EXPECT_FALSE(is_command("b2"));
}

TEST(Command, HelpNamesEveryCommand) {
  const std::string help = help_text();
  for (const char* name :
       {"/list",   "/create",       "/join",       "/quick",        "/watch", "/resign",
        "/draw",   "/rematch",      "/leave",      "/say",          "/top",   "/history",
        "/replay", "rated|unrated", "/help",       "/quit",         "b2",     "/list next",
        "/mute",   "/unmute",       "/spectators", "/secret rotate"}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

TEST(CommandRequest, EachCommandSendsItsRequest) {
  const auto create = request_for(parsed("/create 4 private bot hard unrated"));
  ASSERT_TRUE(create && create->has_create_game());
  EXPECT_EQ(create->create_game().size(), 4);
  EXPECT_TRUE(create->create_game().is_private());
  EXPECT_TRUE(create->create_game().vs_bot());
  EXPECT_EQ(create->create_game().bot_level(), wire::BOT_LEVEL_HARD);
  EXPECT_EQ(create->create_game().rated(), wire::RATED_NO);
  const auto join = request_for(parsed("/join 12 ABCDEF"));
  ASSERT_TRUE(join && join->has_join_game());
  EXPECT_EQ(join->join_game().game_id(), 12u);
  EXPECT_EQ(join->join_game().invite_code(), "ABCDEF");
  const auto history = request_for(parsed("/history bot (hard)"));
  ASSERT_TRUE(history && history->has_get_history());
  EXPECT_EQ(history->get_history().name(), "bot (hard)");
  EXPECT_EQ(history->get_history().limit(), kHistoryLength);
  EXPECT_TRUE(request_for(parsed("/list"))->has_list_games());
  EXPECT_EQ(request_for(parsed("/top 5"))->get_leaderboard().limit(), 5u);
  EXPECT_EQ(request_for(parsed("/replay 17"))->get_replay().record_id(), 17u);
  EXPECT_EQ(request_for(parsed("/say hi there"))->chat().text(), "hi there");
  EXPECT_EQ(request_for(parsed("/quick 5"))->quick_match().size(), 5);
  EXPECT_TRUE(request_for(parsed("/watch 3"))->has_spectate());
  EXPECT_TRUE(request_for(parsed("/resign"))->has_resign());
  EXPECT_TRUE(request_for(parsed("/draw"))->has_offer_draw());
  EXPECT_TRUE(request_for(parsed("/rematch"))->has_rematch());
  EXPECT_TRUE(request_for(parsed("/leave"))->has_leave());
  EXPECT_FALSE(request_for(parsed("/help")));
  EXPECT_FALSE(request_for(parsed("/quit")));
}

TEST(CommandRequest, ListCarriesItsFiltersAndTheClientOnlyCommandsSendNothing) {
  const auto list = request_for(parsed("/list open 7 unrated name bob"));
  ASSERT_TRUE(list && list->has_list_games());
  EXPECT_EQ(list->list_games().size(), 7);
  EXPECT_TRUE(list->list_games().open_only());
  EXPECT_EQ(list->list_games().rated(), wire::RATED_NO);
  EXPECT_EQ(list->list_games().name(), "bob");
  EXPECT_EQ(list->list_games().after(), 0u) << "a first page";
  const auto plain = request_for(parsed("/list"));
  EXPECT_EQ(plain->list_games().rated(), wire::RATED_DEFAULT);
  EXPECT_FALSE(plain->list_games().open_only());
  EXPECT_EQ(plain->list_games().size(), 0);
  EXPECT_EQ(plain->list_games().win_length(), 0) << "any";
  EXPECT_TRUE(request_for(parsed("/spectators on"))->chat_settings().spectators());
  EXPECT_FALSE(request_for(parsed("/spectators off"))->chat_settings().spectators());
  // Acted on by the client itself (a new secret is made and saved first).
  EXPECT_FALSE(request_for(parsed("/mute bob")));
  EXPECT_FALSE(request_for(parsed("/unmute bob")));
  EXPECT_FALSE(request_for(parsed("/secret rotate")));
}

TEST(CommandRequest, CreateQuickAndListCarryTheWinLength) {
  const auto create = request_for(parsed("/create 15 k 5 bot perfect"));
  ASSERT_TRUE(create && create->has_create_game());
  EXPECT_EQ(create->create_game().size(), 15);
  EXPECT_EQ(create->create_game().win_length(), 5);
  EXPECT_EQ(request_for(parsed("/create 15"))->create_game().win_length(), 0) << "the whole line";
  const auto quick = request_for(parsed("/quick 19 k 6"));
  ASSERT_TRUE(quick && quick->has_quick_match());
  EXPECT_EQ(quick->quick_match().size(), 19);
  EXPECT_EQ(quick->quick_match().win_length(), 6);
  const auto list = request_for(parsed("/list 15 k 5 open"));
  ASSERT_TRUE(list && list->has_list_games());
  EXPECT_EQ(list->list_games().size(), 15);
  EXPECT_EQ(list->list_games().win_length(), 5);
  EXPECT_TRUE(list->list_games().open_only());
}

TEST(CommandRequest, SaysWhichRequestsGetADirectReply) {
  EXPECT_TRUE(awaits_reply(CommandKind::List));
  EXPECT_TRUE(awaits_reply(CommandKind::Join));
  EXPECT_TRUE(awaits_reply(CommandKind::Top));
  EXPECT_FALSE(awaits_reply(CommandKind::Say));
  EXPECT_FALSE(awaits_reply(CommandKind::Resign));
  EXPECT_TRUE(awaits_reply(CommandKind::Spectators)) << "the server answers ChatSettings";
  EXPECT_FALSE(awaits_reply(CommandKind::Mute));
  EXPECT_TRUE(is_record_query(CommandKind::History));
  EXPECT_FALSE(is_record_query(CommandKind::List));
}

}  // namespace
}  // namespace ttt::client
