// ConnectionPhase: where a connection (Session or WebSession) is in its
// life. It only moves forward: a TLS handshake (TLS connections only), then
// waiting for Hello, then ready; closing (telling the peer why and
// flushing, within the linger) and stopped (the socket closed) may come
// from any phase.
#pragma once

namespace ttt::server {

enum class ConnectionPhase { kHandshake, kHello, kReady, kClosing, kStopped };

}  // namespace ttt::server
