// ttt-engine: ttt's AI as a Gomocup engine on stdin and stdout, for any
// Gomocup manager (Piskvork, GomocupJudge, ttt-arena, ttt-bot --engine).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "engine/engine_config.hpp"
#include "engine/engine_loop.hpp"
#include "ttt/cli/program.hpp"

int main(int argc, char** argv) {
  ttt::client::EngineLoopOptions options;
  const auto args = ttt::client::parse_engine_args(argc, argv, options);
  if (const auto done = ttt::cli::answer_command_line("ttt-engine", args)) return *done;
  try {
    ttt::client::EngineLoop loop(options, std::cout);
    std::string line;
    while (!loop.ended() && std::getline(std::cin, line)) loop.handle(line);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ttt-engine: %s\n", e.what());
    return 1;
  }
}
