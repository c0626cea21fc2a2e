#include "store/stored_holders.hpp"

#include <memory>

#include "store/store_writer.hpp"

namespace ttt::server {

void StoredHolders::games_of(AccountId account, Found done) {
  auto games = std::make_shared<std::vector<GameRecord>>();
  writer_.submit(
      [games, id = static_cast<std::int64_t>(number(account))](Store& s) {
        *games = s.unfinished_games_of(id);
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
      [claimed, game, from, to = node_](Store& s) {
        claimed->reset();  // a second run (the batch rolled back) starts afresh
        if (!s.claim_game(game, from, to)) return;
        ClaimedGame c;
        auto record = s.game(game);
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
  writer_.submit([found, live_nodes](Store& s) { *found = s.orphaned_games(live_nodes, kAtOnce); },
                 [found, done = std::move(done)](const std::optional<std::string>& failure) {
                   done(failure ? std::vector<std::pair<RecordId, std::string>>{}
                                : std::move(*found));
                 });
}

void StoredHolders::release_all(std::function<void(bool ok)> done) {
  writer_.submit([node = node_](Store& s) { s.release_games(node); },
                 [done = std::move(done)](const std::optional<std::string>& failure) {
                   done(!failure);
                 });
}

}  // namespace ttt::server
