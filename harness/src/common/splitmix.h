// SplitMix64: the harnesses' one seeded generator (random walks, synthetic nets, sampling, splits).
// Small, fast, and the same sequence on every platform and standard library.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stk::harness {

class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed = 0) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return std::size_t(next() % n); }
  bool chance(int percent) { return int(next() % 100) < percent; }
  // Uniform in lo..hi (inclusive); the modulo bias is irrelevant for these uses.
  int uniform(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }

 private:
  std::uint64_t s_;
};

// A well-mixed 64-bit function of x: the first SplitMix64 output from state x.
inline std::uint64_t mix64(std::uint64_t x) { return SplitMix(x).next(); }

}  // namespace stk::harness
