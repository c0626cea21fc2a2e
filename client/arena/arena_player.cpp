#include "arena/arena_player.hpp"

#include "engine/ai_brain.hpp"
#include "engine/engine_brain.hpp"
#include "ttt/ai.hpp"

namespace ttt::client {

std::unique_ptr<Brain> make_arena_player(const std::string& spec, const ArenaPlayerOptions& options,
                                         std::string& error) {
  constexpr std::string_view kEngine = "engine:";
  if (spec.starts_with(kEngine)) {
    EngineOptions engine;
    engine.command = spec.substr(kEngine.size());
    engine.grace = options.engine_grace;
    if (engine.command.find_first_not_of(" \t") == std::string::npos) {
      error = "'" + spec + "' names no engine: engine:CMD, e.g. engine:ttt-engine";
      return nullptr;
    }
    return std::make_unique<EngineBrain>(std::move(engine));
  }
  if (const auto level = parse_level(spec)) {
    AiOptions ai;
    ai.level = *level;
    ai.budget = options.budget;
    ai.seed = options.seed;
    return std::make_unique<AiBrain>(ai);
  }
  error =
      "'" + spec + "' is not a player: a level (random, easy, medium, hard, perfect) or engine:CMD";
  return nullptr;
}

}  // namespace ttt::client
