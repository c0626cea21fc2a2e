// NodeSigner: what a node writes to Redis for the other nodes (heartbeats,
// messages on the channels, the game list's entries), signed with a key the
// nodes share (HMAC-SHA256, --cluster-key-file), and checked on the way in:
// whoever can read or write Redis but lacks the key can't speak for a node,
// so it can't ask for a seat in someone's name, list a game of its own, or
// pass for a node players are sent to. Each signature covers a context (the
// channel, the key written) beside the bytes, so a signed value can't be
// moved to another place. Replaying a value where it was seen is not
// prevented (docs/scaling.md says what that allows: nothing beyond stale
// news). A signer without a key signs nothing and takes everything (tests
// of the Redis parts alone).
#pragma once

#include <openssl/types.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ttt::server::redis {

class NodeSigner {
 public:
  // Bytes of a tag on binary values; a text value's tag is hex (64 digits).
  static constexpr std::size_t kTagBytes = 32;
  // The least key a lobby may use (--cluster-key-file): 32 bytes.
  static constexpr std::size_t kMinKey = 32;

  NodeSigner() = default;
  // Throws std::runtime_error if OpenSSL has no HMAC-SHA256.
  explicit NodeSigner(std::string key);

  bool enabled() const noexcept { return !key_.empty(); }

  // A binary value signed: its tag, then the value.
  std::string sign(std::string_view context, std::string_view value) const;
  // The value of a signed one, or nullopt if its tag is not the key's.
  std::optional<std::string> open(std::string_view context, std::string_view signed_value) const;

  // A text value's tag (hex), and whether a tag is the key's.
  std::string text_tag(std::string_view context, std::string_view text) const;
  bool text_tag_ok(std::string_view context, std::string_view text, std::string_view tag) const;

 private:
  std::string mac(std::string_view context, std::string_view value) const;  // raw bytes

  std::string key_;
  // HMAC-SHA256 keyed once, never changed after: each tag starts from a
  // copy of it. (OpenSSL's one-call HMAC looks the algorithm and the digest
  // up by name every time: about 12,000 instructions a tag, a fifth of a
  // node's work a move. Copies may be made on several threads at once.)
  std::shared_ptr<const EVP_MAC_CTX> keyed_;
};

// Reads a shared key from a file (its bytes as they are, a trailing newline
// dropped): the key, or nullopt with `error` saying what is wrong (missing,
// unreadable, shorter than NodeSigner::kMinKey, readable by others).
std::optional<std::string> read_cluster_key(const std::string& path, std::string& error);

}  // namespace ttt::server::redis
