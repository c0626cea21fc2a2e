#include "net/write_cork.hpp"

#include <vector>

namespace ttt::server {
namespace {

// The calling thread's corks: how many are open, and who kept frames.
struct Corks {
  int open = 0;
  std::vector<std::shared_ptr<WriteCork::Writer>> held;
  std::vector<std::shared_ptr<WriteCork::Writer>> spare;  // keeps its allocation
};

Corks& corks() noexcept {
  thread_local Corks c;
  return c;
}

}  // namespace

WriteCork::WriteCork() noexcept { ++corks().open; }

WriteCork::~WriteCork() {
  Corks& c = corks();
  if (--c.open > 0) return;
  // Uncorking sends; a writer that stops may free others' last references,
  // so the list is taken first (and anything held meanwhile is seen too).
  while (!c.held.empty()) {
    c.spare.swap(c.held);
    for (auto& writer : c.spare) writer->uncork();
    c.spare.clear();
  }
}

bool WriteCork::open() noexcept { return corks().open > 0; }

void WriteCork::hold(std::shared_ptr<Writer> writer) { corks().held.push_back(std::move(writer)); }

}  // namespace ttt::server
