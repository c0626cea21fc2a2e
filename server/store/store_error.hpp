// StoreError: a store's failure, its message naming what failed (the
// statement or the step, and the engine's own words).
#pragma once

#include <stdexcept>

namespace ttt::server {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ttt::server
