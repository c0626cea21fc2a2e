#include "tls/tls_identity.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "tls/openssl_handles.hpp"
#include "tls/self_signed.hpp"
#include "tls/tls_error.hpp"
#include "ttt/tls/alpn.hpp"
#include "ttt/tls/fingerprint.hpp"
#include "ttt/tls/stream.hpp"

namespace ttt::server {
namespace {

namespace asio = boost::asio;
namespace fs = std::filesystem;

// Reads the first PEM certificate of a chain and the key, to name what is
// wrong with which file before OpenSSL's context is given them.
void check_files(const std::string& cert_path, const std::string& key_path) {
  FileHandle cert_file(std::fopen(cert_path.c_str(), "r"));
  if (!cert_file) {
    throw TlsError(cert_path + ": cannot read the TLS certificate: " + std::strerror(errno));
  }
  CertHandle cert(PEM_read_X509(cert_file.get(), nullptr, nullptr, nullptr));
  if (!cert) throw TlsError(cert_path + ": not a PEM certificate (" + openssl_reasons() + ")");
  FileHandle key_file(std::fopen(key_path.c_str(), "r"));
  if (!key_file) throw TlsError(key_path + ": cannot read the TLS key: " + std::strerror(errno));
  // No passphrase callback: a protected key fails instead of asking.
  KeyHandle key(PEM_read_PrivateKey(
      key_file.get(), nullptr, [](char*, int, int, void*) { return 0; }, nullptr));
  if (!key) {
    throw TlsError(key_path + ": not a PEM private key, or one protected by a passphrase (" +
                   openssl_reasons() + ")");
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    throw TlsError(key_path + ": this key does not belong to the certificate in " + cert_path);
  }
}

}  // namespace

std::string openssl_reasons() {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    const char* reason = ERR_reason_error_string(code);
    if (!text.empty()) text += "; ";
    text += reason != nullptr ? reason : "error " + std::to_string(code);
  }
  return text.empty() ? "no reason given" : text;
}

std::string tls_folder(const TlsConfig& config, const std::string& db) {
  if (!config.dir.empty()) return config.dir;
  if (db != "none" && db != ":memory:" && !db.empty()) {
    const fs::path parent = fs::path(db).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
  }
  if (const char* state = std::getenv("STATE_DIRECTORY"); state != nullptr && state[0] != '\0') {
    // systemd may list several folders, separated by colons: the first.
    const std::string folders(state);
    return folders.substr(0, folders.find(':'));
  }
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && xdg[0] != '\0') {
    return (fs::path(xdg) / "ttt").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr && home[0] != '\0' ? home : ".") / ".local/state/ttt").string();
}

struct TlsIdentity::Loaded {
  std::shared_ptr<asio::ssl::context> context;
  std::string fingerprint;
};

TlsIdentity::TlsIdentity(const TlsConfig& config, const std::string& db) : http_(config.http) {
  if (config.cert_file.empty() != config.key_file.empty()) {
    throw TlsError(config.cert_file.empty() ? "--tls-key needs --tls-cert too"
                                            : "--tls-cert needs --tls-key too");
  }
  if (config.cert_file.empty()) {
    const std::string dir = tls_folder(config, db);
    ensure_self_signed(dir);
    const KeyPairFiles files = self_signed_files(dir);
    cert_file_ = files.cert;
    key_file_ = files.key;
    self_signed_ = true;
  } else {
    cert_file_ = config.cert_file;
    key_file_ = config.key_file;
  }
  current_.store(load(cert_file_, key_file_, http_));
}

TlsIdentity::~TlsIdentity() = default;

std::shared_ptr<const TlsIdentity::Loaded> TlsIdentity::load(const std::string& cert_file,
                                                             const std::string& key_file,
                                                             bool http) {
  ERR_clear_error();
  check_files(cert_file, key_file);
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  tls::harden(*context);
  SSL_CTX* native = context->native_handle();
  // Clients don't resume sessions: no tickets to make after each handshake.
  SSL_CTX_set_num_tickets(native, 0);
  // ttt/1 for ttt's programs, http/1.1 for browsers (the web client).
  tls::accept_protocols(*context, http);
  if (SSL_CTX_use_certificate_chain_file(native, cert_file.c_str()) != 1) {
    throw TlsError(cert_file + ": cannot use the TLS certificate: " + openssl_reasons());
  }
  if (SSL_CTX_use_PrivateKey_file(native, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    throw TlsError(key_file + ": cannot use the TLS key: " + openssl_reasons());
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    throw TlsError(key_file + ": this key does not belong to the certificate in " + cert_file);
  }
  auto loaded = std::make_shared<Loaded>();
  loaded->fingerprint = tls::fingerprint(SSL_CTX_get0_certificate(native));
  loaded->context = std::move(context);
  return loaded;
}

std::shared_ptr<asio::ssl::context> TlsIdentity::context() const {
  return current_.load()->context;
}

std::string TlsIdentity::fingerprint() const { return current_.load()->fingerprint; }

std::optional<std::string> TlsIdentity::reload() {
  try {
    current_.store(load(cert_file_, key_file_, http_));
    return std::nullopt;
  } catch (const TlsError& e) {
    return std::string(e.what());
  }
}

}  // namespace ttt::server
