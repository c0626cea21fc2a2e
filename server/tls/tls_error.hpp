// TlsError: a certificate or key the server can't use; the message names the
// file and says what is wrong with it.
#pragma once

#include <stdexcept>
#include <string>

namespace ttt::server {

class TlsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// OpenSSL's reasons for the last failures (its error queue, emptied).
std::string openssl_reasons();

}  // namespace ttt::server
