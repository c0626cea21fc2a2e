#include "tls/self_signed.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "tls/openssl_handles.hpp"
#include "tls/tls_error.hpp"

namespace ttt::server {
namespace {

namespace fs = std::filesystem;

// Long enough never to matter: a pinned certificate is trusted by its
// fingerprint, not its dates.
constexpr long kValidSeconds = 20L * 365 * 24 * 3600;

KeyHandle make_key() {
  KeyHandle key(EVP_EC_gen("P-256"));
  if (!key) throw TlsError("cannot make a TLS key: " + openssl_reasons());
  return key;
}

CertHandle make_certificate(EVP_PKEY* key) {
  CertHandle cert(X509_new());
  unsigned char serial[16];
  bool ok = cert && RAND_bytes(serial, sizeof serial) == 1;
  if (ok) {
    serial[0] &= 0x7f;  // a positive number
    BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
    ok = bn != nullptr && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) != nullptr;
    BN_free(bn);
  }
  ok = ok && X509_set_version(cert.get(), 2) == 1 &&
       X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) != nullptr &&
       X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValidSeconds) != nullptr &&
       X509_set_pubkey(cert.get(), key) == 1;
  X509_NAME* name = ok ? X509_get_subject_name(cert.get()) : nullptr;
  ok = ok && name != nullptr &&
       X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                  reinterpret_cast<const unsigned char*>("ttt-server"), -1, -1,
                                  0) == 1 &&
       X509_set_issuer_name(cert.get(), name) == 1;
  if (ok) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
    X509_EXTENSION* ext =
        X509V3_EXT_conf_nid(nullptr, &ctx, NID_basic_constraints, "critical,CA:FALSE");
    ok = ext != nullptr && X509_add_ext(cert.get(), ext, -1) == 1;
    X509_EXTENSION_free(ext);
  }
  ok = ok && X509_sign(cert.get(), key, EVP_sha256()) > 0;
  if (!ok) throw TlsError("cannot make a TLS certificate: " + openssl_reasons());
  return cert;
}

// Opens path for writing as a new 0600 file.
FileHandle create_private(const std::string& path) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw TlsError(path + ": cannot create: " + std::strerror(errno));
  FILE* file = ::fdopen(fd, "w");
  if (file == nullptr) {
    ::close(fd);
    throw TlsError(path + ": cannot write: " + std::strerror(errno));
  }
  return FileHandle(file);
}

void finish(FileHandle file, const std::string& path, bool written) {
  const bool flushed =
      written && std::fflush(file.get()) == 0 && ::fsync(::fileno(file.get())) == 0;
  if (!flushed) throw TlsError(path + ": cannot write: " + openssl_reasons());
}

// Root making files for a service whose folder belongs to another user: the
// files are that user's.
void give_to_folder_owner(const std::string& dir, const std::string& path) {
  if (::geteuid() != 0) return;
  struct stat folder {};
  if (::stat(dir.c_str(), &folder) != 0 || folder.st_uid == 0) return;
  if (::chown(path.c_str(), folder.st_uid, folder.st_gid) != 0) {
    throw TlsError(path + ": cannot give it to the folder's owner: " + std::strerror(errno));
  }
}

}  // namespace

KeyPairFiles self_signed_files(const std::string& dir) {
  const fs::path base = dir.empty() ? fs::path(".") : fs::path(dir);
  return {(base / "ttt-server.crt").string(), (base / "ttt-server.key").string()};
}

bool ensure_self_signed(const std::string& dir) {
  const KeyPairFiles files = self_signed_files(dir);
  std::error_code ec;
  const bool have_cert = fs::exists(files.cert, ec);
  const bool have_key = fs::exists(files.key, ec);
  if (have_cert && have_key) return false;
  if (have_cert != have_key) {
    const std::string& missing = have_cert ? files.key : files.cert;
    const std::string& present = have_cert ? files.cert : files.key;
    throw TlsError(missing + ": missing, beside " + present +
                   ": the server's self-signed pair is incomplete (remove " + present +
                   " to make a new pair: clients that trusted the old one will refuse the new one "
                   "until told)");
  }
  if (!dir.empty() && !fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) throw TlsError(dir + ": cannot create the folder for the TLS key: " + ec.message());
    fs::permissions(dir, fs::perms::owner_all, ec);
  }
  auto key = make_key();
  auto cert = make_certificate(key.get());
  const std::string key_tmp = files.key + ".new";
  const std::string cert_tmp = files.cert + ".new";
  {
    auto out = create_private(key_tmp);
    const bool written =
        PEM_write_PrivateKey(out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1;
    finish(std::move(out), key_tmp, written);
  }
  {
    auto out = create_private(cert_tmp);
    const bool written = PEM_write_X509(out.get(), cert.get()) == 1;
    finish(std::move(out), cert_tmp, written);
  }
  give_to_folder_owner(dir.empty() ? "." : dir, key_tmp);
  give_to_folder_owner(dir.empty() ? "." : dir, cert_tmp);
  // The key first: a crash between the renames leaves a key without a
  // certificate, which the next start reports instead of replacing.
  if (::rename(key_tmp.c_str(), files.key.c_str()) != 0 ||
      ::rename(cert_tmp.c_str(), files.cert.c_str()) != 0) {
    throw TlsError(files.key + ": cannot put the new TLS key in place: " + std::strerror(errno));
  }
  return true;
}

}  // namespace ttt::server
