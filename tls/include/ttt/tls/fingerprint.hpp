// Certificate fingerprints, written as SSH writes a key's: "SHA256:" and the
// unpadded base64 of the SHA-256 of the certificate's DER encoding (43
// characters). The server logs and prints its certificate's; clients store
// and compare them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

using X509 = struct x509_st;

namespace ttt::tls {

// The fingerprint of a certificate; empty if it can't be encoded.
std::string fingerprint(X509* certificate);

// A fingerprint as a person may type it: "SHA256:" and base64 (with or
// without padding), or 64 hex digits with or without colons (as `openssl
// x509 -fingerprint -sha256` prints, with or without its "SHA256
// Fingerprint=" prefix). The canonical "SHA256:..." form, or nullopt.
std::optional<std::string> parse_fingerprint(std::string_view text);

}  // namespace ttt::tls
