// FakeGameHolders: the database's record of which node holds each game
// (GameHolders), answered by the test: every question is kept, with the
// callback that answers it, for the test to look at and answer when it
// chooses. Releasing a node's games succeeds at once.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lobby/game_holders.hpp"

namespace ttt::testing {

class FakeGameHolders : public server::GameHolders {
 public:
  void games_of(server::AccountId account, Found done) override {
    games_asked.push_back({account, std::move(done)});
  }
  void claim(server::RecordId game, const std::string& from, Claimed done) override {
    claims.push_back({game, from, std::move(done)});
  }
  void orphans(const std::vector<std::string>&, Orphans done) override {
    orphans_asked.push_back(std::move(done));
  }
  void release_all(std::function<void(bool)> done) override { done(true); }
  void beat(const server::NodeInfo&, Beaten done) override { beats.push_back(std::move(done)); }
  void holders_of(std::vector<server::RecordId> records, Holders done) override {
    checks.push_back({std::move(records), std::move(done)});
  }
  void leave() override {}

  struct Claim {
    server::RecordId game;
    std::string from;
    Claimed done;
  };
  std::deque<std::pair<server::AccountId, Found>> games_asked;
  std::deque<Claim> claims;
  std::deque<Orphans> orphans_asked;
  std::deque<Beaten> beats;
  std::deque<std::pair<std::vector<server::RecordId>, Holders>> checks;
};

}  // namespace ttt::testing
