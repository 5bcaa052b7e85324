// Simulation at known truth: game pairs drawn from a pentanomial model whose Elo (or nElo) is exactly
// elo0 or elo1, the SPRT run to termination many times; the measured rates of the wrong verdict must
// stay within alpha and beta up to Monte Carlo error, and the sample sizes are what the test costs.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "stats/pentanomial.h"
#include "stats/sprt.h"

namespace stk::harness::match {

// Pair-outcome probabilities for A's pair score of 0..4 half points.
struct PentanomialModel {
  std::array<double, 5> p{};
  double score() const;  // expected score per game
  double elo() const;    // logistic Elo of that score
  double nelo()
      const;  // normalized Elo per game: 800/ln10 * (score - 1/2) / sqrt(2 var(pair score / 2))
  double strength(EloModel unit) const { return unit == EloModel::Normalized ? nelo() : elo(); }
};

// Each opening is played twice: A as White scores like logistic Elo `elo + colour_bias_elo`, as Black
// like `elo - colour_bias_elo` (the opening's colour advantage), each game drawn with probability
// `draw_ratio` and the two games otherwise independent. The bias correlates the games of a pair (more
// WL, fewer WW and LL), as real books do. Throws std::invalid_argument if a win or loss probability
// would be negative (draw_ratio / 2 above the weaker side's score).
PentanomialModel pentanomial_model(double elo, double draw_ratio, double colour_bias_elo);

// The model of that draw ratio and colour bias whose strength in `unit` (nElo for normalized, Elo for
// logistic) is exactly `target`, by bisection on the logistic parameter.
PentanomialModel model_at(double target, EloModel unit, double draw_ratio, double colour_bias_elo);

// Draws one pair score (0..4) from the model with a uniform u in [0, 1).
int draw_pair(const PentanomialModel& m, double u);

struct SimulationReport {
  int runs = 0;
  int accepted_h0 = 0, accepted_h1 = 0, undecided = 0;  // undecided: stopped at max_pairs
  std::vector<std::uint64_t> pairs_used;                // per run, in run order
  double mean_pairs() const;
  std::uint64_t quantile_pairs(double q) const;  // e.g. 0.5 for the median
};

// `runs` SPRTs on pairs drawn from `model`, each checked after every pair and stopped at the first
// verdict or after `max_pairs`. Run r draws from SplitMix seeded by mix64(seed + r): reproducible.
SimulationReport simulate_sprt(const PentanomialModel& model, const SprtParams& params, int runs,
                               std::uint64_t seed, std::uint64_t max_pairs);

struct RateInterval {
  double rate = 0, lower = 0, upper = 0;
};
// The Wilson score interval of k successes in n trials at normal quantile z (1.96 for 95%).
RateInterval wilson_interval(std::uint64_t k, std::uint64_t n, double z = 1.959963984540054);

}  // namespace stk::harness::match
