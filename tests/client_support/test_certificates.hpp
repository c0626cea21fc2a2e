// Certificates made by a test, as an operator would get them: a certificate
// authority of the test's own and server certificates it signs, written as
// PEM files in a directory of the test's (removed with it). OpenSSL's API
// makes them, so no `openssl` program is needed.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ttt::testing {

// A certificate and its key, in PEM files.
struct CertificateFiles {
  std::string cert;
  std::string key;
  std::string fingerprint;  // "SHA256:..." of the certificate
};

class TestCa {
 public:
  // A new CA (an ECDSA P-256 key, "ttt test CA"), written as dir/ca.crt.
  explicit TestCa(const std::string& dir);
  ~TestCa();
  TestCa(const TestCa&) = delete;
  TestCa& operator=(const TestCa&) = delete;

  // The CA's certificate: what a client's trust store holds
  // (SSL_CERT_FILE=cert_file()).
  const std::string& cert_file() const noexcept { return cert_file_; }

  // A server certificate for names (DNS names and IP addresses), signed by
  // this CA, written as dir/stem.crt (the certificate, then the CA's: a
  // chain, as Let's Encrypt's fullchain.pem) and dir/stem.key (0600).
  CertificateFiles issue(const std::string& dir, const std::string& stem,
                         const std::vector<std::string>& names) const;

 private:
  struct Keys;
  std::unique_ptr<Keys> keys_;
  std::string cert_file_;
};

}  // namespace ttt::testing
