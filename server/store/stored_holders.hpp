// StoredHolders: GameHolders over the PostgreSQL store, through its writer
// thread: this node's id is the holder it writes.
#pragma once

#include <string>

#include "lobby/game_holders.hpp"

namespace ttt::server {

class StoreWriter;

class StoredHolders final : public GameHolders {
 public:
  StoredHolders(StoreWriter& writer, std::string node) : writer_(writer), node_(std::move(node)) {}

  void games_of(AccountId account, Found done) override;
  void claim(RecordId game, const std::string& from, Claimed done) override;
  void orphans(const std::vector<std::string>& live_nodes, Orphans done) override;
  void release_all(std::function<void(bool ok)> done) override;

 private:
  StoreWriter& writer_;
  std::string node_;
};

}  // namespace ttt::server
