// What the game port serves a browser, without a socket: the files and the
// watch links, the strict headers, the wire's schema, and how a
// connection's first bytes are told apart.
#include <gtest/gtest.h>

#include <string>

#include "net/transport.hpp"
#include "ttt/cli/version.hpp"
#include "web/web_site.hpp"
#include "web/wire_schema.hpp"

namespace ttt::server {
namespace {

TEST(WebSite, ServesThePageAtTheRootAndAtEveryWatchLink) {
  const web::WebSite site;
  const web::WebAsset* page = site.find("/");
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(page->type, "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("/js/app.js"), std::string_view::npos);
  EXPECT_EQ(site.find("/game/42"), page);
  EXPECT_EQ(site.find("/index.html"), page);
}

TEST(WebSite, ServesItsModulesAsJavaScriptAndNothingElse) {
  const web::WebSite site;
  const web::WebAsset* app = site.find("/js/app.js");
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(app->type, "text/javascript; charset=utf-8");
  EXPECT_EQ(app->etag.front(), '"');
  EXPECT_EQ(site.find("/js/"), nullptr);
  EXPECT_EQ(site.find("/../server.toml"), nullptr);
  EXPECT_EQ(site.find("/etc/passwd"), nullptr);
  EXPECT_EQ(site.find("/game/"), nullptr);
  EXPECT_EQ(site.find("/game/12x"), nullptr);
}

TEST(WebSite, ThePageSaysTheProjectsVersionInItsHello) {
  const web::WebSite site;
  const web::WebAsset* link = site.find("/js/link.js");
  ASSERT_NE(link, nullptr);
  const std::string client = std::string("'ttt-web ") + cli::kVersion + "'";
  EXPECT_NE(link->body.find("const CLIENT = " + client + ";"), std::string_view::npos)
      << "client/web/js/link.js names another version than the project's " << cli::kVersion;
}

TEST(WebSite, TellsWatchLinksByAWholeNumber) {
  EXPECT_TRUE(web::is_watch_path("/game/1"));
  EXPECT_TRUE(web::is_watch_path("/game/18446744073709551615"));
  EXPECT_FALSE(web::is_watch_path("/game/"));
  EXPECT_FALSE(web::is_watch_path("/game/-1"));
  EXPECT_FALSE(web::is_watch_path("/game/1/2"));
  EXPECT_FALSE(web::is_watch_path("/games/1"));
  EXPECT_FALSE(web::is_watch_path("/game/123456789012345678901"));
}

TEST(WebSite, EveryAnswerForbidsInlineScriptSniffingAndFraming) {
  std::string all;
  for (const auto& [name, value] : web::WebSite::security_headers()) {
    all += std::string(name) + ": " + std::string(value) + "\n";
  }
  EXPECT_NE(all.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(all.find("script-src 'self';"), std::string::npos);
  EXPECT_EQ(all.find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(all.find("unsafe-eval"), std::string::npos);
  EXPECT_NE(all.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_NE(all.find("X-Content-Type-Options: nosniff"), std::string::npos);
  EXPECT_EQ(all.find("Set-Cookie"), std::string::npos);
}

TEST(WireSchema, NamesEveryMessageFieldAndEnumOfTheProtocol) {
  const std::string schema = web::wire_schema_json();
  EXPECT_EQ(schema.front(), '{');
  EXPECT_NE(schema.find(R"("ttt.wire.ClientMessage":[)"), std::string::npos);
  EXPECT_NE(schema.find(R"([9,"make_move","message",0,"ttt.wire.MakeMove","body"])"),
            std::string::npos);
  EXPECT_NE(schema.find(R"([14,"decided_while_away","message",1,"ttt.wire.AwayResult",""])"),
            std::string::npos);
  EXPECT_NE(schema.find(R"("ttt.wire.Side":{"SIDE_NONE":0,"SIDE_X":1,"SIDE_O":2)"),
            std::string::npos);
  const web::WebSite site;
  const web::WebAsset* served = site.find("/wire.json");
  ASSERT_NE(served, nullptr);
  EXPECT_EQ(served->body, schema);
  EXPECT_EQ(served->type, "application/json");
}

TEST(Transport, TellsAnHttpRequestFromAFrameAndATlsHandshake) {
  EXPECT_TRUE(looks_like_http("GET / HTTP/1.1\r\n"));
  EXPECT_TRUE(looks_like_http("HEAD"));
  EXPECT_FALSE(looks_like_http(std::string("\x00\x00\x00\x05", 4)));
  EXPECT_FALSE(looks_like_http(std::string("\x01\x00\x00\x00", 4)));
  EXPECT_FALSE(looks_like_http("\x16\x03\x01"));
  EXPECT_FALSE(looks_like_http("get / HTTP/1.1"));
  EXPECT_FALSE(looks_like_http(""));
}

}  // namespace
}  // namespace ttt::server
