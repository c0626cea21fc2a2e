// TlsIdentity: the certificate and key the server presents, as a TLS context
// new connections take. Either a CA's certificate (--tls-cert, --tls-key) or
// the server's own self-signed pair (server/tls/self_signed.hpp). reload()
// reads the files again (SIGHUP): connections already open keep the context
// they started with, new ones get the new one; nobody is dropped.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace ttt::server {

struct TlsConfig {
  bool enabled = true;    // false: --no-tls, plain TCP
  std::string cert_file;  // a CA's certificate chain (PEM); with key_file
  std::string key_file;
  // Where the self-signed pair is kept when no cert_file is given; empty:
  // tls_folder() decides.
  std::string dir;
  // ALPN: agree to http/1.1 too (the web client is served on the port).
  bool http = false;
};

// The folder of the self-signed pair: config.dir if set; else the folder of
// the database db; with no database file ("none", ":memory:"), the service's
// $STATE_DIRECTORY, else $XDG_STATE_HOME/ttt (~/.local/state/ttt).
std::string tls_folder(const TlsConfig& config, const std::string& db);

class TlsIdentity {
 public:
  // Loads the certificate and key (making the self-signed pair first if
  // needed). Throws TlsError naming the file at fault.
  TlsIdentity(const TlsConfig& config, const std::string& db);
  ~TlsIdentity();

  // The context for a new connection (thread-safe).
  std::shared_ptr<boost::asio::ssl::context> context() const;

  // "SHA256:..." of the certificate served now (thread-safe).
  std::string fingerprint() const;

  // The files it reads.
  const std::string& cert_file() const noexcept { return cert_file_; }
  const std::string& key_file() const noexcept { return key_file_; }
  bool self_signed() const noexcept { return self_signed_; }

  // Reads the files again; on success new connections get the new
  // certificate. On failure the current one stays and the error (naming the
  // file) is returned. Thread-safe.
  std::optional<std::string> reload();

 private:
  struct Loaded;
  static std::shared_ptr<const Loaded> load(const std::string& cert_file,
                                            const std::string& key_file, bool http);

  std::string cert_file_;
  std::string key_file_;
  bool self_signed_ = false;
  bool http_ = false;
  std::atomic<std::shared_ptr<const Loaded>> current_;
};

}  // namespace ttt::server
