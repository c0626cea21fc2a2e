// Whether the server at the other end of a TLS connection is the one the
// user means: a certificate pinned with --fingerprint must match; else one
// that the system's CAs vouch for under the host's name is trusted; else the
// fingerprint trusted before for that host and port (known_servers) must
// match; else the server is unknown, and the program asks (ttt-client) or
// trusts it on first use (ttt-bot), as SSH does.
#pragma once

#include <cstdint>
#include <string>

namespace ttt::client {

// What the server presented in the handshake.
struct PresentedCertificate {
  std::string fingerprint;   // "SHA256:..."
  bool ca_verified = false;  // valid for the host name under the system's CAs
};

struct TrustSettings {
  std::string pinned;         // --fingerprint, canonical; empty = none
  std::string known_servers;  // the known_servers file; empty = none
};

struct TrustDecision {
  enum class Verdict { kTrusted, kUnknown, kRefused };
  Verdict verdict = Verdict::kRefused;
  std::string why;  // kTrusted: by what ("pinned", "a CA", "known"); kRefused: the message
};

TrustDecision judge_server(const std::string& host, std::uint16_t port,
                           const PresentedCertificate& presented, const TrustSettings& settings);

// A node another node sent the client to (a Redirect) with the fingerprint
// of its certificate: the node that redirects is trusted already, so its word
// is the pin for this link, and for this link only: it is never stored.
// Where the user pins the address already (`pinned`: its known_servers
// entry, or --fingerprint for an address the user named), that pin stands:
// a redirect can't change it, so a vouched fingerprint other than the pin is
// refused, whatever the node presents. vouched_by is the redirecting node
// ("host:port"), for the message.
TrustDecision judge_vouched(const std::string& host, std::uint16_t port,
                            const PresentedCertificate& presented, const std::string& vouched,
                            const std::string& vouched_by, const std::string& pinned = "");

}  // namespace ttt::client
