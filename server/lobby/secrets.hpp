// Secrets: random tokens, invite codes and their one-way hashes. Every random
// value comes from OpenSSL's cryptographic generator (RAND_bytes, seeded by
// the operating system), so that no value seen helps to guess another.
// Resume tokens and player secrets are stored only hashed (SHA-256; secrets
// with a per-player salt).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ttt::server {

// hex_digits random hex digits. Throws std::runtime_error if the generator
// fails (it never returns a predictable value).
std::string random_hex(std::size_t hex_digits);

// length characters drawn uniformly from alphabet (at most 256 characters).
std::string random_code(std::size_t length, std::string_view alphabet);

// Invite codes: kInviteLength characters of kInviteAlphabet (32 capital
// letters and digits without I, O, 0 and 1: 5 bits each, 60 bits in all),
// shown in groups of four ("K7QW-M3XP-9HTR").
inline constexpr std::string_view kInviteAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
inline constexpr std::size_t kInviteLength = 12;
std::string random_invite_code();

// An invite code as typed, in the form codes are kept: ASCII letters upper-
// cased, dashes and spaces dropped ("k7qw-m3xp 9htr" -> "K7QWM3XP9HTR").
std::string normalize_invite_code(std::string_view typed);

// The code grouped for people: "K7QWM3XP9HTR" -> "K7QW-M3XP-9HTR" (codes of
// other lengths, from older servers, are returned as they are).
std::string display_invite_code(std::string_view code);

// A private game's invite code as the nodes of one lobby share it (in the
// game directory): the SHA-256 of the normalized code, so that the code
// itself never leaves the node that made it. Empty for an empty code.
std::string invite_key(std::string_view typed);

// A player secret a client may choose: kMinSecret..kMaxSecret characters of
// [0-9A-Za-z_-] (at least 128 bits when random hex).
inline constexpr std::size_t kMinSecret = 32;
inline constexpr std::size_t kMaxSecret = 128;
bool is_valid_secret(std::string_view secret) noexcept;

// The SHA-256 of text, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view text);

// The stored form of a player secret: SHA-256 of salt and secret.
std::string hash_secret(std::string_view salt, std::string_view secret);

// Compares two strings in time independent of where they differ.
bool equal_constant_time(std::string_view a, std::string_view b) noexcept;

}  // namespace ttt::server
