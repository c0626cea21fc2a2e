// Secrets: random tokens and their one-way hashes. Resume tokens and player
// secrets are stored only hashed (SHA-256; secrets with a per-player salt).
#pragma once

#include <string>
#include <string_view>

namespace ttt::server {

// hex_digits random hex digits from the operating system's generator.
std::string random_hex(std::size_t hex_digits);

// The SHA-256 of text, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view text);

// The stored form of a player secret: SHA-256 of salt and secret.
std::string hash_secret(std::string_view salt, std::string_view secret);

// Compares two strings in time independent of where they differ.
bool equal_constant_time(std::string_view a, std::string_view b) noexcept;

}  // namespace ttt::server
