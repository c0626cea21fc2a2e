// Owning handles for what the server's TLS code gets from OpenSSL and C
// stdio: each frees its object the way its library says.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <cstdio>
#include <memory>

namespace ttt::server {

struct FileClose {
  void operator()(FILE* f) const { std::fclose(f); }
};
struct CertFree {
  void operator()(X509* c) const { X509_free(c); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

using FileHandle = std::unique_ptr<FILE, FileClose>;
using CertHandle = std::unique_ptr<X509, CertFree>;
using KeyHandle = std::unique_ptr<EVP_PKEY, KeyFree>;

}  // namespace ttt::server
