#include "console/trust_question.hpp"

#include <algorithm>
#include <cctype>

namespace ttt::client {

void TrustQuestion::ask(bool interactive, const std::string& where, const std::string& fingerprint,
                        const std::string& known_servers,
                        const std::function<void(const std::string&)>& say,
                        std::function<void(bool)> answer) {
  where_ = where;
  fingerprint_ = fingerprint;
  if (!interactive) {
    refusal_ = "the server at " + where + " is not known, and no certificate authority " +
               "vouches for its certificate " + fingerprint + ". There is no terminal to ask " +
               "you on: check that fingerprint with the server's host (`ttt-server " +
               "--print-fingerprint`) and run again with --fingerprint " + fingerprint +
               ", or connect once from a terminal to trust it from then on.";
    answer(false);
    return;
  }
  answer_ = std::move(answer);
  say("The server at " + where + " is new to this machine, and no certificate authority " +
      "vouches for its certificate.");
  say("Its fingerprint is " + fingerprint + ".");
  say("Compare it with the one the server's host gives you (ttt-server --print-fingerprint).");
  say("Trust this server from now on" +
      (known_servers.empty() ? std::string() : " (remembered in " + known_servers + ")") +
      "? Type yes or no:");
}

bool TrustQuestion::take(const std::string& line,
                         const std::function<void(const std::string&)>& say) {
  if (!answer_) return false;
  std::string word;
  for (const char c : line) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (word != "yes" && word != "y" && word != "no" && word != "n") {
    say("Please type yes or no: trust the server at " + where_ + " (" + fingerprint_ + ")?");
    return true;
  }
  const bool yes = word[0] == 'y';
  if (!yes) {
    refusal_ = "you did not trust the server at " + where_ + " (certificate " + fingerprint_ +
               "); nothing was sent to it.";
  }
  auto answer = std::move(answer_);
  answer_ = nullptr;
  answer(yes);
  return true;
}

}  // namespace ttt::client
