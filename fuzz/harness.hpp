// The fuzz harnesses, shared by the libFuzzer entry points (fuzz/*_fuzz.cpp)
// and the regression test that replays the corpus (tests/fuzz_regression_test.cpp).
// Each returns normally for every input; a crash, sanitizer report or failed
// check is a finding.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ttt::fuzz {

// Cuts the bytes into frames with FrameReader (in chunks the input chooses),
// parses every body as both envelopes and checks that what parses re-encodes
// to a message that parses the same.
void frames(const std::uint8_t* data, std::size_t size);

// Feeds a byte stream to a real Lobby as the frames of three fake
// connections (each frame's first body byte picks the connection), running
// the lobby's handlers after every message, then disconnects everyone and
// checks the lobby is empty.
void lobby(const std::uint8_t* data, std::size_t size);

// Feeds a byte stream, as a server's, to the real client: its first byte
// picks ttt-client (in line mode or on a terminal) or ttt-bot, the rest is
// what a loopback server of the harness sends once the client connects.
// Aborts if anything the client wrote (screen, stderr, log) holds a control
// character, an escape, a bidi control or invalid UTF-8 that it did not put
// there itself.
void client(const std::uint8_t* data, std::size_t size);

}  // namespace ttt::fuzz
