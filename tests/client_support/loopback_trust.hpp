// How the end-to-end tests' clients trust the servers the tests start: a
// ServerProcess (TLS, a certificate of its own) registers its port with the
// fingerprint it printed; a FakeServer (plain TCP) registers its port as
// plain. start_client, start_bot and Tmux::start_client add what the port
// needs: --fingerprint for a TLS server, --no-tls for a plain one, nothing
// for a port nobody registered (the client's own defaults).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ttt::testing {

// fingerprint: "SHA256:..." of a TLS server; empty for a plain one.
void register_server(std::uint16_t port, const std::string& fingerprint);
void forget_server(std::uint16_t port, const std::string& fingerprint);

// The client flags for the server on port.
std::vector<std::string> trust_args(std::uint16_t port);

}  // namespace ttt::testing
