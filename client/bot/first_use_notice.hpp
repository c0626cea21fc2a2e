#pragma once

#include <string>

namespace ttt::client {

// ttt-bot trusts a TLS server it has never met (trust on first use, as SSH
// does) and says so in its log: once per server address and fingerprint for
// the whole process, however many bots of it connect there, from any thread.
// `known_servers` is the file the fingerprint is remembered in ("" when none).
void log_first_use_trust(const std::string& where, const std::string& fingerprint,
                         const std::string& known_servers);

}  // namespace ttt::client
