#include "trust/trust_flags.hpp"

#include "trust/known_servers.hpp"
#include "ttt/tls/fingerprint.hpp"

namespace ttt::client {

void add_trust_flags(cli::Flags& flags, TrustFlags& out) {
  flags.add_bool("--no-tls", "", &out.no_tls,
                 "plain TCP, unencrypted (only for a server run with --no-tls)");
  flags.add_string("--fingerprint", "", &out.fingerprint, "SHA256:...",
                   "trust only the server whose TLS certificate has this fingerprint (as "
                   "ttt-server --print-fingerprint prints it); nothing is asked");
  flags.add_string("--known-servers", "", &out.known_servers, "FILE",
                   "servers trusted on first use (default: "
                   "$XDG_CONFIG_HOME/ttt/known_servers)");
}

bool finish_trust_flags(TrustFlags& flags, std::string& error) {
  if (flags.fingerprint.empty()) return true;
  if (flags.no_tls) {
    error =
        "--fingerprint and --no-tls contradict each other: a plain connection has no "
        "certificate";
    return false;
  }
  const auto canonical = tls::parse_fingerprint(flags.fingerprint);
  if (!canonical) {
    error = "--fingerprint: '" + flags.fingerprint +
            "' is not a SHA-256 fingerprint (SHA256: and 43 base64 characters, as "
            "ttt-server --print-fingerprint prints it, or 64 hex digits)";
    return false;
  }
  flags.fingerprint = *canonical;
  return true;
}

void apply_trust_flags(const TrustFlags& flags, ConnectionOptions& options) {
  options.tls = !flags.no_tls;
  options.fingerprint = flags.fingerprint;
  options.known_servers =
      flags.known_servers.empty() ? default_known_servers_path() : flags.known_servers;
}

}  // namespace ttt::client
