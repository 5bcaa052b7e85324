// The homogeneity test measured at known truth: merges of shards drawn from one pentanomial law
// (its false-flag rate should be alpha or below) or with one shard drawn from another law (its
// power, and how often it names that shard). Reproducible from the seed.
#pragma once

#include <cstdint>
#include <optional>

#include "stats/sprt_simulation.h"

namespace stk::harness::match {

struct HomogeneitySimulation {
  int shards = 8;
  std::uint64_t pairs_per_shard = 60;
  PentanomialModel honest;
  // In merge m, shard m % shards is drawn from this law instead (none: every shard honest).
  std::optional<PentanomialModel> bad;
  int merges = 400;
  double alpha = 0.05;
  std::uint64_t permutations = 500;
  std::uint64_t seed = 20261204;
  double confidence = 0.95;  // of the rate intervals (Wilson)
};

struct HomogeneitySimulationReport {
  int merges = 0;
  int flagged = 0;          // merges with p < alpha
  int bad_named_worst = 0;  // merges whose worst shard is the bad one (0 without a bad law)
  RateInterval flag_rate;   // flagged / merges
  RateInterval named_rate;  // bad_named_worst / merges
};

// Merge m draws its pairs from SplitMix seeded by mix64(seed + m), shard by shard, and then takes
// that stream's next output as the permutation seed of its test.
HomogeneitySimulationReport simulate_homogeneity(const HomogeneitySimulation& sim);

}  // namespace stk::harness::match
