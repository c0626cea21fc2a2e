// Replays the fuzz targets' seed corpus and every past finding
// (fuzz/regressions/<target>/) through the same harnesses, in every build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const std::string& target) {
  std::vector<fs::path> files;
  for (const char* dir : {"corpus", "regressions"}) {
    const fs::path path = fs::path(TTT_FUZZ_DIR) / dir / target;
    if (!fs::is_directory(path)) continue;
    for (const auto& entry : fs::directory_iterator(path)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  return files;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every input of target through harness; a crash or sanitizer report fails.
void replay_all(const std::string& target, void (*harness)(const std::uint8_t*, std::size_t)) {
  const auto files = inputs_of(target);
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string bytes = read(file);
    harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
}

TEST(FuzzRegression, FrameInputsAreHandled) { replay_all("frame", ttt::fuzz::frames); }

TEST(FuzzRegression, LobbyInputsAreHandled) { replay_all("lobby", ttt::fuzz::lobby); }

TEST(FuzzRegression, ClientInputsAreHandled) { replay_all("client", ttt::fuzz::client); }

}  // namespace
