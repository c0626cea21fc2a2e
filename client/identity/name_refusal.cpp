#include "identity/name_refusal.hpp"

#include <cctype>

namespace ttt::client {
namespace {

// As the server compares names: ignoring ASCII case.
bool is_server_bot_name(const std::string& name) {
  constexpr std::string_view kPrefix = "bot (";
  if (name.size() < kPrefix.size()) return false;
  for (std::size_t i = 0; i < kPrefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != kPrefix[i]) return false;
  }
  return true;
}

}  // namespace

std::string name_refusal_text(const NameRefusal& r) {
  const std::string name = "'" + r.name + "'";
  if (is_server_bot_name(r.name)) {
    return "the name " + name + " is not yours to take: names beginning with \"bot (\" belong to " +
           "the server's bots.\nChoose another name with --name NAME.";
  }
  std::string why = "the name " + name + " on " + r.server + " belongs to someone else: ";
  if (r.secret_path.empty()) {
    why +=
        "it is held by a secret, and this program has nowhere to keep secrets (set HOME or "
        "XDG_CONFIG_HOME).";
  } else if (r.had_secret) {
    why += "the secret in " + r.secret_path + " is not the one the server gave with it.";
  } else {
    why += "it is held by a secret that is not on this account (nothing in " + r.secret_path + ").";
  }
  std::string fix =
      "Choose another name with --name NAME; or, if the name is yours, copy its "
      "secret file from where you first used it to " +
      (r.secret_path.empty() ? std::string("this account") : r.secret_path);
  if (!r.secret_flag.empty()) fix += " (or point " + r.secret_flag + " at it)";
  return why + "\n" + fix + ".";
}

}  // namespace ttt::client
