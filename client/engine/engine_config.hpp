// ttt-engine's command line: the AI's level, its time per move when the
// manager sends none, and its seed.
#pragma once

#include "engine/engine_loop.hpp"
#include "ttt/cli/program.hpp"

namespace ttt::client {

// Parses ttt-engine's flags (and the --config file) into options.
cli::ParsedArgs parse_engine_args(int argc, const char* const* argv, EngineLoopOptions& options);

}  // namespace ttt::client
