// MuteList: the names whose chat ttt-client hides and whose challenges it
// declines unseen (/mute NAME), compared as the server compares names
// (ASCII letters in any case). For this run only.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace ttt::client {

class MuteList {
 public:
  // False if the name was muted already.
  bool mute(const std::string& name);
  // False if the name was not muted.
  bool unmute(const std::string& name);
  bool muted(const std::string& name) const;
  // The muted names as typed, in order.
  std::vector<std::string> names() const;

 private:
  static std::string key(const std::string& name);
  std::set<std::string> keys_;
  std::vector<std::string> typed_;
};

}  // namespace ttt::client
