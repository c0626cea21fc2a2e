// DEVELOPMENT ONLY: tunable parameters read from TTT_TUNE (name=value,...).
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

namespace ttt::internal::ai {

struct Tune {
  double v[32];
  Tune() {
    for (double& x : v) x = -12345;
    const char* env = std::getenv("TTT_TUNE");
    if (env == nullptr) return;
    std::string s(env);
    std::size_t pos = 0;
    while (pos < s.size()) {
      std::size_t end = s.find(',', pos);
      if (end == std::string::npos) end = s.size();
      std::string item = s.substr(pos, end - pos);
      std::size_t eq = item.find('=');
      if (eq != std::string::npos) {
        int i = std::atoi(item.substr(1, eq - 1).c_str());
        if (item[0] == 'p' && i >= 0 && i < 32) v[i] = std::atof(item.c_str() + eq + 1);
      }
      pos = end + 1;
    }
  }
  double get(int i, double def) const { return v[i] == -12345 ? def : v[i]; }
};

inline const Tune& tune() {
  static const Tune t;
  return t;
}

}  // namespace ttt::internal::ai
