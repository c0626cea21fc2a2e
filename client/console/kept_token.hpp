// KeptToken: the resume token as ttt-client keeps it between runs (in a
// TokenFile), so that a client killed mid-game takes its seat back when it
// is started again. It is read for the first Hello, replaced by every
// Welcome's and by the one a SecretRotated brings (a new secret revokes
// every token issued before it), and forgotten when the player leaves with
// no game to come back to.
#pragma once

#include <memory>
#include <string>

#include "identity/token_file.hpp"
#include "ttt.pb.h"

namespace ttt::client {

class KeptToken {
 public:
  // Opens the file at path and holds it while the client runs (empty: the
  // token is not kept). A file that can't be used is logged, and the token
  // is not kept.
  void open(const std::string& path);

  // Whether a file keeps the token.
  bool kept() const noexcept { return file_ != nullptr; }

  // The token an earlier run kept, or "" if there is none.
  std::string earlier() const;

  // The server issued a token (in a Welcome): kept from now on.
  void welcomed(const wire::Welcome& welcome);

  // The server stored a new secret: the token it brings is the one that
  // works from now on (a server that sends none left the old one working).
  void rotated(const wire::SecretRotated& rotated);

  // Nothing to come back to: the next run starts afresh.
  void forget();

 private:
  void keep(const std::string& token);

  std::unique_ptr<TokenFile> file_;
  bool failure_said_ = false;  // a failed write is logged once
};

}  // namespace ttt::client
