// Are the shards of one match samples of one pentanomial law? A chi-squared test of homogeneity on
// the shards x pair-score table, with a permutation p-value (the LL and WW cells are often tiny, so
// the chi-squared law is anticonservative there), and fishtest-style residuals that name the shard
// most out of line (one bad worker: an engine losing on time on one machine). It only informs:
// match-merge's gate verdict does not depend on it. Contract: docs/match-results.md "Homogeneity
// across shards".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/pentanomial.h"

namespace stk::harness::match {

struct HomogeneityOptions {
  double alpha = 0.01;  // flagged when p < alpha: the nominal false-flag rate
  std::uint64_t permutations = 2000;
  std::uint64_t seed = 20261204;  // of the permutations; the caller records it
};

struct LabelledShard {
  std::string label;  // e.g. the shard's file name
  PentanomialCounts counts;
};

struct ShardResidual {
  std::string label;
  std::uint64_t pairs = 0;
  double mean_score = 0;  // mean pair score / 4: a score fraction
  // (mean - pooled mean) / (pooled sd / sqrt(pairs)), sd of the pair score over all pairs; 0 when
  // that sd is 0 (every pair in one class).
  double residual = 0;
  double chi2_contribution = 0;  // the shard's row of the statistic
};

struct HomogeneityResult {
  HomogeneityOptions options;         // as used
  bool applicable = false;            // at least 2 shards with pairs; else nothing below is tested
  std::vector<ShardResidual> shards;  // the shards with pairs, in input order
  std::vector<std::string> excluded;  // labels of the shards with no pairs
  PentanomialCounts pooled;
  int categories = 0;                     // K: pair-score classes with a nonzero pooled count
  double pooled_mean = 0, pooled_sd = 0;  // of pair score / 4
  double statistic = 0;                   // Pearson chi-squared over the K classes
  int dof = 0;                            // (S - 1)(K - 1)
  double p_value = 1;                     // permutation (exact conditional) Monte Carlo
  double asymptotic_p_value = 1;          // chi-squared law with dof degrees of freedom
  // Index into shards of the first largest |residual|; none when every residual is 0.
  std::optional<std::size_t> worst;
  bool flagged = false;  // applicable and p_value < alpha
};

// The test on these shards. Same shards in the same order and same options: the same result.
// Throws std::invalid_argument unless 0 < alpha < 1 and permutations >= 1.
HomogeneityResult homogeneity(const std::vector<LabelledShard>& shards,
                              const HomogeneityOptions& options = {});

// P(X >= x) for X chi-squared with dof degrees of freedom: Q(dof/2, x/2), the regularized upper
// incomplete gamma function. 1 when dof <= 0 (the statistic is then always 0).
double chi_squared_survival(double x, int dof);

}  // namespace stk::harness::match
