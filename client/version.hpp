// The version the client programs report to the server: ttt's.
#pragma once

#include "ttt/cli/version.hpp"

namespace ttt::client {

using cli::kVersion;

}  // namespace ttt::client
