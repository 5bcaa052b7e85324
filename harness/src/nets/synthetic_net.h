// Deterministic synthetic STKHALFKA nets for tests and benchmarks (never committed: the big one
// is 47 MB). Weight magnitudes keep activations away from saturation: FT biases 20..100 and rows
// in -12..12 put most accumulator lanes inside 0..127; dense weights are scaled by fan-in so the
// hidden activations spread over 0..127; PSQT rows carry material values plus noise.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nnue/network.h"

namespace stk::harness {

constexpr std::uint64_t kDefaultNetSeed = 20240601;

// Typical: activations spread as described above. Extreme: every parameter uniform over its whole
// type range, so int16 accumulators wrap, clamps saturate and int32 sums wrap (modular-arithmetic
// and SIMD-vs-scalar edge cases; the evaluations mean nothing).
enum class NetStyle { Typical, Extreme };

// The complete file image (exactly nnue::net_file_size(hidden) bytes).
std::vector<std::uint8_t> make_synthetic_net(int hidden, std::uint64_t seed,
                                             NetStyle style = NetStyle::Typical);

// Generated once per process and cached (the 47 MB image of H=1024 is made at most once).
std::shared_ptr<const std::vector<std::uint8_t>> synthetic_net_bytes(
    int hidden, std::uint64_t seed = kDefaultNetSeed, NetStyle style = NetStyle::Typical);
// Parsed once per process and cached (hidden 128 or 1024).
std::shared_ptr<const nnue::Network> synthetic_network(int hidden,
                                                       std::uint64_t seed = kDefaultNetSeed,
                                                       NetStyle style = NetStyle::Typical);
// Written once per process into a temporary directory and cached; returns the path.
std::string synthetic_net_file(int hidden, std::uint64_t seed = kDefaultNetSeed);

// How the activations of `net` sit on sample positions (for makenet's report).
struct ActivationStats {
  std::uint64_t acc_lanes = 0, acc_in_range = 0;  // accumulator lanes in 0..127
  std::uint64_t l1_units = 0, l1_inside = 0;      // hidden-1 units strictly inside (0, 127)
  std::uint64_t l2_units = 0, l2_inside = 0;
  int min_eval = 0, max_eval = 0;
  std::string describe() const;
};
ActivationStats measure_activations(const nnue::Network& net, const std::vector<std::string>& fens);

}  // namespace stk::harness
