// SHA-256 digests (OpenSSL's libcrypto), as lowercase hex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stk::harness {

std::string sha256_hex(const std::vector<std::uint8_t>& bytes);

// True for exactly 64 hex digits (either case).
bool is_sha256_hex(const std::string& text);

}  // namespace stk::harness
