// Independent model of nets/synthetic_net: the file decoded field by field from SPEC-NNUE's layout
// (written here, not the engine's loader) and checked against the documented ranges
// (docs/harnesses/makenet.md, "The net").
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "nets/synthetic_net.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace nets_model_test {

using namespace stk::harness;

namespace {

struct Reader {
  const std::vector<std::uint8_t>& b;
  std::size_t at = 0;
  std::int64_t le(int bytes, bool is_signed) {
    std::uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= std::uint64_t(b.at(at + std::size_t(k))) << (8 * k);
    at += std::size_t(bytes);
    if (is_signed && bytes < 8 && (v >> (8 * bytes - 1)) & 1) v |= ~0ULL << (8 * bytes);
    return std::int64_t(v);
  }
  std::int64_t i8() { return le(1, true); }
  std::int64_t i16() { return le(2, true); }
  std::int64_t i32() { return le(4, true); }
  std::uint32_t u32() { return std::uint32_t(le(4, false)); }
};

constexpr std::uint64_t kFeatures = 22528;

std::uint64_t spec_size(std::uint64_t h) {
  return 25 + 2 * kFeatures * h + 2 * h + 4 * kFeatures * 8 +
         8 * (16 * h + 64 + 512 + 128 + 32 + 4);
}

// "" when `bytes` is the documented typical net of width `h`, else the first field out of range.
std::string typical_violation(const std::vector<std::uint8_t>& bytes, int h) {
  if (bytes.size() != spec_size(std::uint64_t(h))) return "size " + std::to_string(bytes.size());
  Reader r{bytes};
  if (std::memcmp(bytes.data(), "STKHALFKA", 9) != 0) return "magic";
  r.at = 9;
  if (r.u32() != 1 || r.u32() != kFeatures || r.u32() != std::uint32_t(h) || r.u32() != 8)
    return "header";
  auto in = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return lo <= v && v <= hi; };
  for (std::uint64_t i = 0; i < kFeatures * std::uint64_t(h); ++i)
    if (const auto v = r.i16(); !in(v, -12, 12)) return "FT weight " + std::to_string(v);
  for (int j = 0; j < h; ++j)
    if (const auto v = r.i16(); !in(v, 20, 100)) return "FT bias " + std::to_string(v);
  static const int value[11] = {100, 320, 330, 500, 950, -100, -320, -330, -500, -950, 0};
  for (std::uint64_t f = 0; f < kFeatures; ++f)
    for (int b = 0; b < 8; ++b)
      if (const auto v = r.i32() - 8 * value[(f / 64) % 11]; !in(v, -64, 64))
        return "PSQT of feature " + std::to_string(f) + " off by " + std::to_string(v);
  const int k = h == 1024 ? 4 : 13;
  for (int b = 0; b < 8; ++b) {
    for (int i = 0; i < 16 * h; ++i)
      if (const auto v = r.i8(); !in(v, -k, k)) return "L1 weight " + std::to_string(v);
    for (int i = 0; i < 16; ++i)
      if (!in(r.i32(), 2000, 6000)) return "L1 bias";
    for (int i = 0; i < 32 * 16; ++i)
      if (!in(r.i8(), -18, 18)) return "L2 weight";
    for (int i = 0; i < 32; ++i)
      if (!in(r.i32(), 2000, 6000)) return "L2 bias";
    for (int i = 0; i < 32; ++i)
      if (!in(r.i8(), -10, 10)) return "output weight";
    if (!in(r.i32(), -500, 500)) return "output bias";
  }
  return r.at == bytes.size() ? "" : "trailing bytes";
}

}  // namespace

// MODEL nets-synthetic-net
// checks: harness/src/nets/synthetic_net.cpp  (the synthetic net's layout and parameter ranges)
// contract: docs/harnesses/makenet.md#the-net
// planted: ci/mutants/model-nets-synthetic-net.patch  (FT weights drawn from -12..13)
TEST_CASE("synthetic nets decode by SPEC-NNUE's layout into the documented ranges",
          "[model][nets]") {
  // Seeds of every shape (0, all ones, small, large), generated once: an H=128 net is 6.5 MB.
  SplitMix rng(7);
  const std::vector<std::uint64_t> seeds = {0, ~0ULL, 1, kDefaultNetSeed, rng.next(), rng.next()};
  for (const auto seed : seeds) {
    INFO("seed " << seed);
    const auto bytes = make_synthetic_net(128, seed);
    CHECK(typical_violation(bytes, 128) == "");
    CHECK(
        (make_synthetic_net(128, seed) == bytes));  // a function of the arguments alone (one bool:
                                                    // Catch would print both 6.5 MB vectors)
    const auto extreme = make_synthetic_net(128, seed, NetStyle::Extreme);
    CHECK(extreme.size() == spec_size(128));
    CHECK(std::equal(bytes.begin(), bytes.begin() + 25, extreme.begin()));
    CHECK((extreme != bytes));
  }
  CHECK((make_synthetic_net(128, 1) != make_synthetic_net(128, 2)));
  CHECK(spec_size(1024) == 46997305);
  CHECK(spec_size(128) == 6510649);
  CHECK(typical_violation(*synthetic_net_bytes(1024), 1024) == "");
  CHECK_THROWS_AS(make_synthetic_net(256, 1), std::exception);
}

}  // namespace nets_model_test
