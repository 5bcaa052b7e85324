// Independent models of common/: SHA-256 (FIPS 180-4, written here from the standard, and
// sha256sum run on the same bytes) and SplitMix64 (Vigna's published splitmix64.c).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "common/sha256.h"
#include "common/splitmix.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace common_model_test {

using stk::harness::is_sha256_hex;
using stk::harness::mix64;
using stk::harness::sha256_hex;
using stk::harness::SplitMix;

namespace {

// FIPS 180-4 section 6.2, byte-oriented, one block at a time.
std::string model_sha256(const std::vector<std::uint8_t>& msg) {
  static const std::uint32_t k[64] = {0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
                                      0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
                                      0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
                                      0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
                                      0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
                                      0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
                                      0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
                                      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
                                      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
                                      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
                                      0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
                                      0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
                                      0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  std::vector<std::uint8_t> m = msg;
  const std::uint64_t bits = std::uint64_t(msg.size()) * 8;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  for (int i = 7; i >= 0; --i) m.push_back(std::uint8_t(bits >> (8 * i)));
  for (std::size_t off = 0; off < m.size(); off += 64) {
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t)
      w[t] = std::uint32_t(m[off + 4 * t]) << 24 | std::uint32_t(m[off + 4 * t + 1]) << 16 |
             std::uint32_t(m[off + 4 * t + 2]) << 8 | std::uint32_t(m[off + 4 * t + 3]);
    for (int t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; ++t) {
      const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
                               ((e & f) ^ (~e & g)) + k[t] + w[t];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
                               ((a & b) ^ (a & c) ^ (b & c));
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  static const char* hexd = "0123456789abcdef";
  std::string out;
  for (std::uint32_t word : h)
    for (int i = 7; i >= 0; --i) out += hexd[(word >> (4 * i)) & 0xf];
  return out;
}

// What sha256sum prints for each of `inputs` (one run over one file per input), in order.
std::vector<std::string> coreutils_sha256(const std::vector<std::vector<std::uint8_t>>& inputs) {
  const auto dir = stk::test::scratch_dir("common-model-sha256");
  std::string cmd = "cd '" + dir.string() + "' && sha256sum";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "b" + std::to_string(i);
    std::ofstream out(dir / name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(inputs[i].data()), std::streamsize(inputs[i].size()));
    cmd += " " + name;
  }
  const auto r = stk::test::run_command(cmd);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> digests;
  std::size_t at = 0;
  while (at < r.output.size()) {
    const auto eol = r.output.find('\n', at);
    digests.push_back(r.output.substr(at, 64));
    at = eol == std::string::npos ? r.output.size() : eol + 1;
  }
  return digests;
}

// Byte strings of every length class that matters to the padding: 0..200 bytes (the 55/56/64
// boundaries included), sometimes made of one repeated byte (long runs of 0x00 or 0xff).
rc::Gen<std::vector<std::uint8_t>> gen_bytes() {
  return rc::gen::oneOf(
      rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>()),
      rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 201), [](std::size_t n) {
        return rc::gen::map(rc::gen::arbitrary<std::uint8_t>(),
                            [n](std::uint8_t b) { return std::vector<std::uint8_t>(n, b); });
      }));
}

bool model_is_hex(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

// Vigna, https://prng.di.unimi.it/splitmix64.c, transcribed.
struct ModelSplitMix64 {
  std::uint64_t x;
  std::uint64_t next() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
};

}  // namespace

// MODEL common-sha256-digest
// checks: harness/src/common/sha256.cpp  (the SHA-256 digest as 64 lowercase hex digits)
// contract: docs/architecture.md#common-helpers
// planted: ci/mutants/model-common-sha256-digest.patch  (hex bytes without their leading zero)
TEST_CASE("SHA-256 digests equal a FIPS 180-4 model and sha256sum on generated bytes",
          "[model][common]") {
  // The model itself against FIPS 180-2 appendix B's examples.
  CHECK(model_sha256({}) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(model_sha256({'a', 'b', 'c'}) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  rc::prop("sha256_hex equals the model", [] {
    const auto bytes = *gen_bytes();
    RC_ASSERT(sha256_hex(bytes) == model_sha256(bytes));
  });
  SECTION("sha256_hex equals sha256sum on 300 seeded byte strings of 0 to 300 bytes") {
    SplitMix rng(20261203);
    std::vector<std::vector<std::uint8_t>> inputs;
    for (int i = 0; i < 300; ++i) {
      std::vector<std::uint8_t> bytes(i < 130 ? std::size_t(i) : rng.below(301));
      const bool run = rng.chance(20);  // sometimes one repeated byte
      const auto fill = std::uint8_t(rng.next());
      for (auto& b : bytes) b = run ? fill : std::uint8_t(rng.next());
      inputs.push_back(bytes);
    }
    const auto digests = coreutils_sha256(inputs);
    REQUIRE(digests.size() == inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      INFO("input " << i << ", " << inputs[i].size() << " bytes");
      CHECK(sha256_hex(inputs[i]) == digests[i]);
    }
  }
}

// MODEL common-sha256-hex-text
// checks: harness/src/common/sha256.cpp  (which texts are SHA-256 hex digests)
// contract: docs/architecture.md#common-helpers
// planted: ci/mutants/model-common-sha256-hex-text.patch  (any length of at least 64 accepted)
TEST_CASE("is_sha256_hex accepts exactly 64 hex digits of either case as a model says",
          "[model][common]") {
  rc::prop("generated near-digests", [] {
    const auto len = *rc::gen::inRange<std::size_t>(60, 68);
    const auto text = *rc::gen::container<std::string>(len, rc::gen::elementOf(std::string(
                                                                "0123456789abcdefABCDEFgG x\n")));
    RC_ASSERT(is_sha256_hex(text) == model_is_hex(text));
  });
  rc::prop("a digest of any case, and one character more or less", [] {
    const auto d = model_sha256(*gen_bytes());
    RC_ASSERT(is_sha256_hex(d));
    std::string upper = d;
    for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    RC_ASSERT(is_sha256_hex(upper));
    RC_ASSERT(!is_sha256_hex(d + "0"));
    RC_ASSERT(!is_sha256_hex(d.substr(1)));
    RC_ASSERT(!is_sha256_hex(d.substr(0, 63) + "g"));
  });
}

// MODEL common-splitmix-sequence
// checks: harness/src/common/splitmix.h  (SplitMix64 outputs and the draws built on them)
// contract: docs/architecture.md#common-helpers
// planted: ci/mutants/model-common-splitmix-sequence.patch  (the second mixing shift 27 -> 29)
TEST_CASE("SplitMix64 outputs and draws equal Vigna's published splitmix64.c", "[model][common]") {
  CHECK(SplitMix(0).next() == 0xe220a8397b1dcdafULL);
  CHECK(mix64(0) == 0xe220a8397b1dcdafULL);
  rc::prop("next, below, chance, uniform and mix64 follow the definition", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    SplitMix rng(seed);
    ModelSplitMix64 model{seed};
    RC_ASSERT(mix64(seed) == ModelSplitMix64{seed}.next());
    for (int i = 0; i < 40; ++i) {
      switch (*rc::gen::inRange(0, 4)) {
        case 0: RC_ASSERT(rng.next() == model.next()); break;
        case 1: {
          const auto n = *rc::gen::inRange<std::size_t>(1, 1000);
          RC_ASSERT(rng.below(n) == std::size_t(model.next() % n));
          break;
        }
        case 2: {
          const int p = *rc::gen::inRange(0, 101);
          RC_ASSERT(rng.chance(p) == (int(model.next() % 100) < p));
          break;
        }
        default: {
          const int lo = *rc::gen::inRange(-100, 100);
          const int hi = lo + *rc::gen::inRange(0, 300);
          RC_ASSERT(rng.uniform(lo, hi) == lo + int(model.next() % std::uint64_t(hi - lo + 1)));
        }
      }
    }
  });
}

}  // namespace common_model_test
