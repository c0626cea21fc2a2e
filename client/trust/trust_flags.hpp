// The TLS flags ttt-client and ttt-bot share: --no-tls, --fingerprint and
// --known-servers.
#pragma once

#include <string>

#include "link/connection.hpp"
#include "ttt/cli/flags.hpp"

namespace ttt::client {

struct TrustFlags {
  bool no_tls = false;        // plain TCP
  std::string fingerprint;    // a pinned certificate; canonical "SHA256:..." after finish
  std::string known_servers;  // empty: default_known_servers_path()
};

void add_trust_flags(cli::Flags& flags, TrustFlags& out);

// After parsing: the fingerprint in its canonical form. False with the reason
// in error for one that isn't a SHA-256 fingerprint, or one given with
// --no-tls.
bool finish_trust_flags(TrustFlags& flags, std::string& error);

// The connection's TLS settings from the flags (known_servers defaulting to
// default_known_servers_path()).
void apply_trust_flags(const TrustFlags& flags, ConnectionOptions& options);

}  // namespace ttt::client
