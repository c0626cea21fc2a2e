#include "trust/server_trust.hpp"

#include "trust/known_servers.hpp"

namespace ttt::client {
namespace {

using Verdict = TrustDecision::Verdict;

std::string how_to_check() {
  return "Ask the server's host for its fingerprint (`ttt-server --print-fingerprint` with the "
         "server's usual flags, or the `tls fingerprint:` line of its log)";
}

}  // namespace

TrustDecision judge_server(const std::string& host, std::uint16_t port,
                           const PresentedCertificate& presented, const TrustSettings& settings) {
  const std::string where = server_key(host, port);
  if (!settings.pinned.empty()) {
    if (presented.fingerprint == settings.pinned) return {Verdict::kTrusted, "pinned"};
    return {Verdict::kRefused, "the server at " + where + " presented the certificate " +
                                   presented.fingerprint + ", not " + settings.pinned +
                                   " given with --fingerprint: refusing to connect. " +
                                   how_to_check() + "."};
  }
  if (presented.ca_verified) return {Verdict::kTrusted, "a CA"};
  if (settings.known_servers.empty()) return {Verdict::kUnknown, ""};
  const KnownServers known(settings.known_servers);
  const auto lookup = known.find(host, port);
  if (!lookup.error.empty()) {
    return {Verdict::kRefused,
            "cannot tell whether to trust the server at " + where + ": " + lookup.error};
  }
  const auto& entry = lookup.entry;
  if (!entry) return {Verdict::kUnknown, ""};
  if (entry->fingerprint == presented.fingerprint) return {Verdict::kTrusted, "known"};
  const std::string line = std::to_string(entry->line);
  return {Verdict::kRefused, "the server at " + where + " presented the certificate " +
                                 presented.fingerprint + ", but " + entry->fingerprint +
                                 " was trusted for it before (" + known.path() + ", line " + line +
                                 "): refusing to connect. Someone may be intercepting the "
                                 "connection, or the server has a new certificate. " +
                                 how_to_check() + "; if it is " + presented.fingerprint +
                                 ", delete line " + line + " of " + known.path() + " (sed -i '" +
                                 line + "d' " + known.path() + ") or connect with --fingerprint " +
                                 presented.fingerprint + "."};
}

TrustDecision judge_vouched(const std::string& host, std::uint16_t port,
                            const PresentedCertificate& presented, const std::string& vouched,
                            const std::string& vouched_by, const std::string& pinned) {
  if (!pinned.empty() && vouched != pinned) {
    return {Verdict::kRefused,
            vouched_by + " sent this client to " + server_key(host, port) +
                " vouching for the certificate " + vouched + ", but you trust " + pinned +
                " there: refusing to follow. A node that sends you on can't change whom you "
                "trust; someone may be trying to intercept the connection. " +
                how_to_check() + "."};
  }
  if (presented.fingerprint == vouched) {
    return {Verdict::kTrusted, pinned.empty() ? "vouched for by " + vouched_by
                                              : "pinned, and vouched for by " + vouched_by};
  }
  return {Verdict::kRefused, "the node at " + server_key(host, port) +
                                 " presented the certificate " + presented.fingerprint + ", not " +
                                 vouched + " that " + vouched_by +
                                 " vouched for when it sent this client there: refusing to "
                                 "connect. Someone may be intercepting the connection, or the "
                                 "nodes' certificates changed. " +
                                 how_to_check() + "."};
}

}  // namespace ttt::client
