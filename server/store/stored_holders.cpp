#include "store/stored_holders.hpp"

#include <memory>

#include "store/store_writer.hpp"

namespace ttt::server {

void StoredHolders::games_of(AccountId account, Found done) {
  auto games = std::make_shared<std::vector<HeldGame>>();
  writer_.submit(
      [games, id = static_cast<std::int64_t>(number(account)), dead_after = dead_after_](Store& s) {
        games->clear();
        for (GameRecord& g : s.unfinished_games_of(id)) {
          HeldGame held{std::move(g), std::nullopt};
          if (!held.game.node.empty()) {
            if (auto at = s.live_node(held.game.node, dead_after)) {
              held.holder = NodeInfo{held.game.node, at->host, static_cast<std::uint16_t>(at->port),
                                     at->fingerprint, false};
            }
          }
          games->push_back(std::move(held));
        }
      },
      [games, done = std::move(done)](const std::optional<std::string>& failure) {
        if (failure) {
          done(std::nullopt);
        } else {
          done(std::move(*games));
        }
      });
}

void StoredHolders::claim(RecordId game, const std::string& from, Claimed done) {
  auto claimed = std::make_shared<std::optional<ClaimedGame>>();
  writer_.submit(
      [claimed, game, from, to = node_, dead_after = dead_after_](Store& s) {
        claimed->reset();  // a second run (the batch rolled back) starts afresh
        if (!s.claim_game(number(game), from, to, dead_after)) return;
        ClaimedGame c;
        auto record = s.game(number(game));
        if (!record) return;
        c.game = std::move(*record);
        c.game.node = to;
        const std::int64_t ids[2] = {c.game.x_player, c.game.o_player};
        for (int i = 0; i < 2; ++i) {
          c.players[i] = s.player_by_id(ids[i]);
          c.token_hashes[i] = s.token_hash(ids[i]).value_or("");
        }
        *claimed = std::move(c);
      },
      [claimed, done = std::move(done)](const std::optional<std::string>& failure) {
        if (failure) {
          done(std::nullopt);
        } else {
          done(std::move(*claimed));
        }
      });
}

void StoredHolders::orphans(const std::vector<std::string>& live_nodes, Orphans done) {
  constexpr int kAtOnce = 50;  // a sweep takes a few; the next sweep the rest
  auto found = std::make_shared<std::vector<std::pair<RecordId, std::string>>>();
  writer_.submit(
      [found, live_nodes, dead_after = dead_after_](Store& s) {
        found->clear();
        for (auto& [id, node] : s.orphaned_games(live_nodes, kAtOnce, dead_after)) {
          found->emplace_back(RecordId{id}, std::move(node));
        }
      },
      [found, done = std::move(done)](const std::optional<std::string>& failure) {
        done(failure ? std::vector<std::pair<RecordId, std::string>>{} : std::move(*found));
      });
}

void StoredHolders::release_all(std::function<void(bool ok)> done) {
  writer_.submit(
      [node = node_](Store& s) { s.release_games(node); },
      [done = std::move(done)](const std::optional<std::string>& failure) { done(!failure); });
}

}  // namespace ttt::server

namespace ttt::server {

void StoredHolders::beat(const NodeInfo& self, Beaten done) {
  auto ran = std::make_shared<std::chrono::steady_clock::time_point>();
  writer_.submit(
      [ran, self](Store& s) {
        *ran = std::chrono::steady_clock::now();  // the beat is stamped after this
        s.beat_node(self.id, self.host, self.port, self.fingerprint);
      },
      [ran, done = std::move(done)](const std::optional<std::string>& failure) {
        done(!failure, *ran);
      });
}

void StoredHolders::holders_of(std::vector<RecordId> records, Holders done) {
  auto games = std::make_shared<std::map<RecordId, std::string>>();
  writer_.submit(
      [games, records = std::move(records)](Store& s) {
        games->clear();
        std::vector<std::int64_t> numbers;
        numbers.reserve(records.size());
        for (const RecordId record : records) numbers.push_back(number(record));
        for (auto& [id, node] : s.game_holders(numbers))
          games->emplace(RecordId{id}, std::move(node));
      },
      [games, done = std::move(done)](const std::optional<std::string>& failure) {
        if (failure) {
          done(std::nullopt);
        } else {
          done(std::move(*games));
        }
      });
}

void StoredHolders::leave() {
  writer_.submit([node = node_](Store& s) { s.drop_node(node); });
}

}  // namespace ttt::server
