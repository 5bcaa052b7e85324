#include "common/sha256.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace stk::harness {

std::string sha256_hex(const std::vector<std::uint8_t>& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr))
    throw std::runtime_error("OpenSSL EVP_Digest(sha256) failed");
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

bool is_sha256_hex(const std::string& text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

}  // namespace stk::harness
