// Independent model of common/counts: which texts are counts, and their values (the perft EPD's
// count fields, an engine's "Nodes searched" and "nodes N" fields).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/counts.h"

namespace counts_model_test {

using stk::harness::parse_count;
using stk::harness::parse_count_field;

// Digit by digit in 128 bits: a count is one or more ASCII digits whose value fits 64 bits.
std::optional<std::uint64_t> model_count(const std::string& s) {
  if (s.empty()) return std::nullopt;
  unsigned __int128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + unsigned(c - '0');
    if (v > UINT64_MAX) return std::nullopt;
  }
  return std::uint64_t(v);
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// MODEL counts-parse
// checks: harness/src/common/counts.cpp  (which texts are counts, and their values)
// contract: docs/harnesses/perft.md#the-perft-epd
// planted: ci/mutants/model-counts-parse.patch  (a leading '-' accepted, as std::stoull does)
TEST_CASE("parse_count agrees with a digit-by-digit model", "[model][counts]") {
  rc::prop("generated texts", [] {
    const auto text = *rc::gen::oneOf(
        rc::gen::container<std::string>(rc::gen::elementOf(std::string("0123456789-+ x\t"))),
        rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                     [](std::uint64_t v) { return std::to_string(v); }),
        rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                     [](std::uint64_t v) { return "-" + std::to_string(v); }));
    RC_ASSERT(parse_count(text) == model_count(text));
    RC_ASSERT(parse_count_field(" " + text + "\r") == model_count(trimmed(text)));
  });
  CHECK(parse_count("18446744073709551615") == UINT64_MAX);
  CHECK_FALSE(parse_count("18446744073709551616"));
  CHECK_FALSE(parse_count("-20"));
  CHECK_FALSE(parse_count("+20"));
  CHECK_FALSE(parse_count(" 20"));
  CHECK(parse_count_field(" 20\r") == 20u);
}

}  // namespace counts_model_test
