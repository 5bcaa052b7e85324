// Strength estimates from match counts, defined as fishtest computes them:
//   score, logistic Elo with its 95% interval and LOS: server/fishtest/stats/stat_util.py get_elo
//     (the interval is the normal interval of the mean score, mapped through the Elo curve);
//   normalized Elo with its interval: server/fishtest/templates/elo_results.mak (t-value times
//     800/ln 10, per game; the interval is the delta-method variance of the t-value);
//   pairs ratio: the same template. OpenBench (OpenBench/stats.py Elo) gives the same Elo bounds.
// The pentanomial estimates treat a game pair as one sample: its variance is the variance of pair
// scores, which already contains the correlation of the two games of an opening.
#pragma once

#include <cstdint>
#include <string>

#include "stats/pentanomial.h"

namespace stk::harness::match {

constexpr double kNeloPerT =
    800.0 / 2.302585092994045684;  // 800 / ln 10: nElo per unit of t-value per game

// Logistic Elo of an expected score (score 0.5 is 0 Elo; +400 Elo is odds 10:1). The score is clamped
// to [0.001, 0.999] first, as fishtest's stat_util.elo does, so 0% or 100% gives -1200 or +1200.
double elo_from_score(double score);
// The inverse: expected score 1 / (1 + 10^(-elo/400)).
double score_from_elo(double elo);

struct EloEstimate {
  const char* kind = "";  // "pentanomial" or "trinomial"
  double samples = 0;  // pairs (pentanomial) or games (trinomial), as counted with regularization
  std::uint64_t games = 0;
  double score = 0.5;   // A's mean score per game
  double variance = 0;  // variance of one sample's score on the per-game scale [0, 1]
  double confidence = 0.95;
  double elo = 0, elo_lower = 0, elo_upper = 0;
  double elo_error = 0;             // fishtest's "+-": half the width of [elo_lower, elo_upper]
  double nelo = 0, nelo_error = 0;  // the interval is nelo +- nelo_error
  double los = 0.5;  // likelihood of superiority: P(true score > 0.5), normal approximation
};

// Throws std::invalid_argument when there are no pairs (no games); confidence in (0, 1).
EloEstimate estimate(const PentanomialCounts& c, double confidence = 0.95);
EloEstimate estimate(const WdlCounts& c, double confidence = 0.95);

// fishtest's PairsRatio: pairs won (DW + WW) over pairs lost (LL + LD); inf or nan without losses.
double pairs_ratio(const PentanomialCounts& c);
// Share of pairs in the middle class (DD or WL): the pentanomial's "draw ratio" (fastchess).
double balanced_pair_ratio(const PentanomialCounts& c);
// Share of drawn games.
double draw_ratio(const WdlCounts& c);

}  // namespace stk::harness::match
