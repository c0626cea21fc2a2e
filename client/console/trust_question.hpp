// TrustQuestion: asks the person at the terminal, once, whether to trust a TLS
// server seen for the first time (no CA vouches for its certificate and it
// is not in known_servers), and takes the answer from the next line typed.
// Without a terminal there is nobody to ask: the answer is no, with a reason
// that says how to pin the server instead.
#pragma once

#include <functional>
#include <string>

namespace ttt::client {

class TrustQuestion {
 public:
  // The question's lines go to say; answer gets the reply (now if there is
  // no terminal, else when a line is typed).
  void ask(bool interactive, const std::string& where, const std::string& fingerprint,
           const std::string& known_servers, const std::function<void(const std::string&)>& say,
           std::function<void(bool)> answer);

  // A typed line: true if it was the answer (the prompt took it).
  bool take(const std::string& line, const std::function<void(const std::string&)>& say);

  bool waiting() const noexcept { return static_cast<bool>(answer_); }

  // Why the server was not trusted, for the exit message; empty if it was.
  const std::string& refusal() const noexcept { return refusal_; }

 private:
  std::function<void(bool)> answer_;
  std::string where_;
  std::string fingerprint_;
  std::string refusal_;
};

}  // namespace ttt::client
