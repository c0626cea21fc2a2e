// NameClaim: a player name on one server held by this process, so that no
// other ttt-client or ttt-bot of the same account uses it at the same time.
//
// A claim is an exclusive flock on a lock file beside the name's secret,
// $XDG_CONFIG_HOME/ttt/locks/HOST-PORT-NAME. The kernel drops it when the
// process ends, however it ends, so a killed program's name is free for the
// next run; a released claim removes its file.
//
// Default identities: a program started without --name takes the first
// name of BASE, BASE2, BASE3, ... that no running program of this account
// holds on that server. So processes started at once never share a name, and
// a later run takes the lowest free one again, with its secret and rating.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ttt::client {

class NameClaim {
 public:
  // Holds the lock at lock_path (creating its folder 0700 and the file 0600)
  // if no other process, nor another claim in this one, holds it. nullptr if
  // it is held (error empty) or can't be made (error says why).
  static std::unique_ptr<NameClaim> try_claim(const std::string& lock_path, std::string& error);
  // Removes the lock file and releases the claim.
  ~NameClaim();

  NameClaim(const NameClaim&) = delete;
  NameClaim& operator=(const NameClaim&) = delete;

  const std::string& path() const noexcept { return path_; }

 private:
  NameClaim(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd_;
  std::string path_;
};

// The login name: $USER, else getlogin(), else "player".
std::string login_name();

// The base of ttt-bot's default names: whose bots they are, "alice-bot"
// for the login alice (the login cut to keep room for the numbers a name
// gets), so that nobody takes them for someone else's or the server's own.
std::string bot_name_base(const std::string& login);

// The lock file of a name on a server: config_file_path("locks", ...); empty
// without a config dir.
std::string name_lock_path(const std::string& host, std::uint16_t port, const std::string& name);

// The n-th default identity of base, from 1: "bot", "bot2", "bot3", ...
std::string default_name(const std::string& base, int n);

// A default identity held by this process.
struct ClaimedName {
  std::string name;
  std::unique_ptr<NameClaim> claim;  // null when there is no config dir to keep locks in
};

// Claims the first free default identity of base on host:port. When no lock
// can be kept (no HOME nor XDG_CONFIG_HOME, a folder that can't be written,
// every one of the first 10,000 names held) the name is base-pPID, one of
// this process alone, and warning says why.
ClaimedName claim_default_name(const std::string& host, std::uint16_t port, const std::string& base,
                               std::string& warning);

// Takes name's claim if it is free; null if another process holds it (the
// caller goes on: an explicit --name is the user's choice). Holding it keeps
// default identities of other processes off this name.
std::unique_ptr<NameClaim> claim_if_free(const std::string& host, std::uint16_t port,
                                         const std::string& name);

// The name a program plays under on host:port: given (--name; claimed if
// free), or when given is empty the first free default identity of base.
// warning says why a default name can't be kept for later runs, if so.
ClaimedName claim_name(const std::string& host, std::uint16_t port, const std::string& given,
                       const std::string& base, std::string& warning);

}  // namespace ttt::client
