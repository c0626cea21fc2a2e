// StoredHolders: GameHolders over the PostgreSQL store, through its writer
// thread: this node's id is the holder it writes, and dead_after how old a
// node's beat in the database must be before its games may be taken.
#pragma once

#include <chrono>
#include <string>

#include "lobby/game_holders.hpp"

namespace ttt::server {

class StoreWriter;

class StoredHolders final : public GameHolders {
 public:
  StoredHolders(StoreWriter& writer, std::string node, std::chrono::milliseconds dead_after)
      : writer_(writer), node_(std::move(node)), dead_after_(dead_after) {}

  void games_of(AccountId account, Found done) override;
  void claim(RecordId game, const std::string& from, Claimed done) override;
  void orphans(const std::vector<std::string>& live_nodes, Orphans done) override;
  void release_all(std::function<void(bool ok)> done) override;
  void beat(const NodeInfo& self, Beaten done) override;
  void holders_of(std::vector<RecordId> records, Holders done) override;
  void leave() override;

 private:
  StoreWriter& writer_;
  std::string node_;
  std::chrono::milliseconds dead_after_;
};

}  // namespace ttt::server
