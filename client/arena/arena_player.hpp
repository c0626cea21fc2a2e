// The players ttt-arena pits against each other, named on its command line:
// a ttt level ("hard") plays with ttt's AI in-process, "engine:CMD" with an
// outside engine over the Gomocup protocol (EngineBrain).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/brain.hpp"

namespace ttt::client {

struct ArenaPlayerOptions {
  std::chrono::milliseconds budget{1000};        // the AI's time per move
  std::chrono::milliseconds engine_grace{1000};  // an engine's grace past it
  std::uint64_t seed = 0;                        // the AI's seed
};

// The brain a spec names, or nullptr with the reason in error.
std::unique_ptr<Brain> make_arena_player(const std::string& spec, const ArenaPlayerOptions& options,
                                         std::string& error);

}  // namespace ttt::client
