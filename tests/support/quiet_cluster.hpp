// QuietCluster: a Cluster for unit tests that keeps nothing and asks
// nobody. It is always available, knows only itself, finds no player or
// token elsewhere, refuses seats at other nodes as a node alone does, and
// every other call does nothing. A test's fake derives from it and
// overrides only what the test looks at.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "lobby/cluster.hpp"

namespace ttt::testing {

class QuietCluster : public server::Cluster {
 public:
  explicit QuietCluster(std::string id = "local") { self_.id = std::move(id); }

  const server::NodeInfo& self() const override { return self_; }
  bool available() const override { return true; }
  std::optional<server::NodeInfo> node(const std::string& id) const override {
    return id == self_.id ? std::optional<server::NodeInfo>(self_) : std::nullopt;
  }
  std::optional<server::NodeInfo> another_node() const override { return std::nullopt; }
  void hold(server::AccountId, const std::string&, std::chrono::milliseconds, const std::string&,
            HoldDone) override {}
  void release(server::AccountId, const std::string&) override {}
  void find_token(const std::string&, TokenDone done) override { done(std::nullopt, true); }
  void find_player(server::AccountId, PlayerDone done) override { done("", true); }
  void request_seat(const std::string&, const server::SeatRequest&, SeatDone done) override {
    done(server::SeatReply{{}, server::GameId{}, wire::ERROR_CODE_UNKNOWN_GAME, "no such node"});
  }
  void serve_seats(SeatHandler) override {}
  void on_restored(std::function<void(bool)>) override {}
  void set_draining(bool) override {}
  void leave(std::function<void()> done) override { done(); }

 protected:
  server::NodeInfo self_;
};

// This node "a" and another, "b" (127.0.0.2, port 4000), both known: the
// start of a test's two nodes, which says what else they answer.
class TwoNodeCluster : public QuietCluster {
 public:
  TwoNodeCluster() : QuietCluster("a") {
    other_.id = "b";
    other_.host = "127.0.0.2";
    other_.port = 4000;
  }
  std::optional<server::NodeInfo> node(const std::string& id) const override {
    if (id == self_.id) return self_;
    if (id == other_.id) return other_;
    return std::nullopt;
  }

 protected:
  server::NodeInfo other_;
};

}  // namespace ttt::testing
