#include "lobby/game_directory.hpp"

namespace ttt::server {

void LocalGameDirectory::publish(const wire::GameSummary& summary) {
  games_[summary.game_id()] = summary;
}

void LocalGameDirectory::withdraw(GameId game) { games_.erase(game); }

std::vector<wire::GameSummary> LocalGameDirectory::list() const {
  std::vector<wire::GameSummary> games;
  games.reserve(games_.size());
  for (const auto& [id, summary] : games_) games.push_back(summary);
  return games;
}

}  // namespace ttt::server
