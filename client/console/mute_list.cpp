#include "console/mute_list.hpp"

#include <algorithm>

namespace ttt::client {

std::string MuteList::key(const std::string& name) {
  std::string folded = name;
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return folded;
}

bool MuteList::mute(const std::string& name) {
  if (!keys_.insert(key(name)).second) return false;
  typed_.push_back(name);
  return true;
}

bool MuteList::unmute(const std::string& name) {
  if (keys_.erase(key(name)) == 0) return false;
  std::erase_if(typed_, [&](const std::string& n) { return key(n) == key(name); });
  return true;
}

bool MuteList::muted(const std::string& name) const { return keys_.contains(key(name)); }

std::vector<std::string> MuteList::names() const { return typed_; }

}  // namespace ttt::client
