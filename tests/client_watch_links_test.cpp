// WatchLinks: where a browser watches a game, only when the server says it
// serves its web client: its --web-url, or the address connected to.
#include <gtest/gtest.h>

#include "console/watch_links.hpp"

namespace ttt::client {
namespace {

wire::Welcome welcome_of(bool web_client, const std::string& web_url = "") {
  wire::Welcome welcome;
  welcome.set_web_client(web_client);
  welcome.set_web_url(web_url);
  return welcome;
}

TEST(WatchLinks, NoneWithoutAWebClient) {
  WatchLinks links("localhost", 7777, true);
  EXPECT_EQ(links.game(4), "") << "before any Welcome";
  links.welcomed(welcome_of(false));
  EXPECT_EQ(links.game(4), "");
  EXPECT_EQ(links.any_game(), "");
}

TEST(WatchLinks, TheAddressConnectedToOverTlsOrNot) {
  WatchLinks tls("ttt.example", 7777, true);
  tls.welcomed(welcome_of(true));
  EXPECT_EQ(tls.game(4), "https://ttt.example:7777/game/4");
  EXPECT_EQ(tls.any_game(), "https://ttt.example:7777/game/ID");
  WatchLinks plain("127.0.0.1", 8000, false);
  plain.welcomed(welcome_of(true));
  EXPECT_EQ(plain.game(12), "http://127.0.0.1:8000/game/12");
  WatchLinks v6("::1", 7777, true);
  v6.welcomed(welcome_of(true));
  EXPECT_EQ(v6.game(1), "https://[::1]:7777/game/1");
}

TEST(WatchLinks, TheServersWebUrlWhenItGivesOneMadeSafe) {
  WatchLinks links("10.0.0.5", 7777, true);
  links.welcomed(welcome_of(true, "https://ttt.example.org"));
  EXPECT_EQ(links.game(4), "https://ttt.example.org/game/4");
  links.welcomed(welcome_of(true, "https://evil\x1b[2J.example"));
  EXPECT_EQ(links.game(4).find('\x1b'), std::string::npos) << links.game(4);
  links.welcomed(welcome_of(false, "https://ttt.example.org"));
  EXPECT_EQ(links.game(4), "") << "a later Welcome without a web client";
}

}  // namespace
}  // namespace ttt::client
