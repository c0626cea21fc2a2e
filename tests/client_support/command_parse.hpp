// The console client's command parser as the tests call it: a line that
// must parse (its command), or must not (its one-line reason).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "console/command.hpp"

namespace ttt::testing {

inline client::Command parsed(std::string_view line) {
  const client::CommandParse p = client::parse_command(line);
  EXPECT_TRUE(p.command) << line << ": " << p.error;
  return p.command.value_or(client::Command{});
}

inline std::string refusal(std::string_view line) {
  const client::CommandParse p = client::parse_command(line);
  EXPECT_FALSE(p.command) << line;
  EXPECT_FALSE(p.error.empty());
  EXPECT_EQ(p.error.find('\n'), std::string::npos);
  return p.error;
}

}  // namespace ttt::testing
