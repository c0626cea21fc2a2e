// The server's own certificate when no CA's is configured: an ECDSA P-256
// key and a self-signed certificate, made once and kept in two files that
// only the server's user can read. Clients trust it on first use, as SSH
// does, or by the fingerprint the host gives them.
#pragma once

#include <string>

namespace ttt::server {

// The files of the self-signed pair in dir.
struct KeyPairFiles {
  std::string cert;  // dir/ttt-server.crt
  std::string key;   // dir/ttt-server.key
};
KeyPairFiles self_signed_files(const std::string& dir);

// Makes the pair in dir unless both files are there. Creates dir (0700) if
// needed; the files are written 0600 under temporary names and renamed into
// place, so a crash leaves no half-written pair. Files made by root in a
// folder that another user owns are given to that user (the service's
// DynamicUser). Throws TlsError naming the file when one file of the pair is
// missing (the other is never silently replaced) or when writing fails.
// True if it made the pair.
bool ensure_self_signed(const std::string& dir);

}  // namespace ttt::server
