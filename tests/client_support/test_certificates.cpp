#include "client_support/test_certificates.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cstdio>
#include <stdexcept>

#include "ttt/tls/fingerprint.hpp"

namespace ttt::testing {
namespace {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertFree {
  void operator()(X509* c) const { X509_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test certificates: ") + what + " failed");
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  check(ext != nullptr && X509_add_ext(cert, ext, -1) == 1, "an extension");
  X509_EXTENSION_free(ext);
}

Cert make_cert(EVP_PKEY* key, const std::string& common_name, X509* issuer, long serial) {
  Cert cert(X509_new());
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 7L * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                             0);
  X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);
  return cert;
}

void write_pem(const std::string& path, X509* cert, X509* chain, EVP_PKEY* key) {
  FILE* file = std::fopen(path.c_str(), "w");
  check(file != nullptr, "opening a PEM file");
  bool ok = true;
  if (cert) ok = ok && PEM_write_X509(file, cert) == 1;
  if (chain) ok = ok && PEM_write_X509(file, chain) == 1;
  if (key) ok = ok && PEM_write_PrivateKey(file, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  ok = std::fclose(file) == 0 && ok;
  check(ok, "writing a PEM file");
  if (key) ::chmod(path.c_str(), 0600);
}

bool is_address(const std::string& name) {
  return name.find_first_not_of("0123456789.") == std::string::npos ||
         name.find(':') != std::string::npos;
}

}  // namespace

struct TestCa::Keys {
  Key key;
  Cert cert;
};

TestCa::TestCa(const std::string& dir) : keys_(std::make_unique<Keys>()) {
  keys_->key.reset(EVP_EC_gen("P-256"));
  check(keys_->key != nullptr, "the CA's key");
  keys_->cert = make_cert(keys_->key.get(), "ttt test CA", nullptr, 1);
  X509* cert = keys_->cert.get();
  add_extension(cert, cert, NID_basic_constraints, "critical,CA:TRUE");
  add_extension(cert, cert, NID_key_usage, "critical,keyCertSign,cRLSign");
  add_extension(cert, cert, NID_subject_key_identifier, "hash");
  check(X509_sign(cert, keys_->key.get(), EVP_sha256()) > 0, "signing the CA");
  cert_file_ = dir + "/ca.crt";
  write_pem(cert_file_, cert, nullptr, nullptr);
}

TestCa::~TestCa() = default;

CertificateFiles TestCa::issue(const std::string& dir, const std::string& stem,
                               const std::vector<std::string>& names) const {
  static long serial = 100;
  Key key(EVP_EC_gen("P-256"));
  check(key != nullptr, "a server key");
  Cert cert =
      make_cert(key.get(), names.empty() ? "server" : names.front(), keys_->cert.get(), ++serial);
  std::string alt;
  for (const std::string& name : names) {
    alt += (alt.empty() ? "" : ",") + std::string(is_address(name) ? "IP:" : "DNS:") + name;
  }
  if (!alt.empty()) add_extension(cert.get(), keys_->cert.get(), NID_subject_alt_name, alt);
  add_extension(cert.get(), keys_->cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_extension(cert.get(), keys_->cert.get(), NID_ext_key_usage, "serverAuth");
  add_extension(cert.get(), keys_->cert.get(), NID_authority_key_identifier, "keyid");
  check(X509_sign(cert.get(), keys_->key.get(), EVP_sha256()) > 0, "signing a server certificate");
  CertificateFiles files{dir + "/" + stem + ".crt", dir + "/" + stem + ".key",
                         tls::fingerprint(cert.get())};
  write_pem(files.cert, cert.get(), keys_->cert.get(), nullptr);
  write_pem(files.key, nullptr, nullptr, key.get());
  return files;
}

}  // namespace ttt::testing
