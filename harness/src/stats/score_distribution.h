// The empirical distribution of one sample's score (a game: 0, 1/2, 1; a game pair: 0, 1/4, .. 1),
// the form in which every estimate and the SPRT read the counts.
#pragma once

#include <array>
#include <cstddef>

#include "stats/pentanomial.h"

namespace stk::harness::match {

// Outcomes a[i] (ascending, in [0,1]) with probabilities p[i]; k is 3 (trinomial) or 5 (pentanomial).
struct ScoreDistribution {
  int k = 0;
  std::array<double, 5> a{};
  std::array<double, 5> p{};
  double count = 0;  // samples behind p (after regularization)

  double mean() const;
  double variance() const;
  // Standardized third moment and fourth moment minus 3.
  double skewness() const;
  double excess_kurtosis() const;
};

// fishtest's regularization (LLRcalc.regularize): a zero count becomes 1e-3, so that no outcome has
// probability 0 and every logarithm and the variance stay finite; otherwise the plain frequencies.
// Pentanomial: a = k/4 for the k half points of a pair, normalized to one game's scale.
ScoreDistribution distribution_of(const PentanomialCounts& c);
// Trinomial: outcomes loss, draw, win.
ScoreDistribution distribution_of(const WdlCounts& c);

}  // namespace stk::harness::match
