#include "stats/elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/normal.h"
#include "stats/score_distribution.h"

namespace stk::harness::match {

double elo_from_score(double score) {
  const double s = std::clamp(score, 1e-3, 1 - 1e-3);
  return -400.0 * std::log10(1.0 / s - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

namespace {

// `games_per_sample` is 2 for a pair, 1 for a game: nElo is defined per game, and a pair's t-value
// is sqrt(2) times a game's for the same strength difference.
EloEstimate estimate_from(const ScoreDistribution& d, const char* kind, std::uint64_t games,
                          double games_per_sample, double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("confidence must be in (0, 1)");
  EloEstimate e;
  e.kind = kind;
  e.samples = d.count;
  e.games = games;
  e.confidence = confidence;
  e.score = d.mean();
  e.variance = d.variance();
  const double z = normal_quantile(0.5 + confidence / 2);
  const double standard_error = std::sqrt(e.variance / d.count);

  // Elo: the interval of the mean score, mapped through the logistic curve.
  e.elo = elo_from_score(e.score) + 0.0;  // + 0.0 turns -0 into 0
  e.elo_lower = elo_from_score(e.score - z * standard_error);
  e.elo_upper = elo_from_score(e.score + z * standard_error);
  e.elo_error = (e.elo_upper - e.elo_lower) / 2;
  e.los = normal_cdf((e.score - 0.5) / standard_error);

  // Normalized Elo: the t-value (mean - 1/2) / sd per game, times 800 / ln 10. Its variance by the
  // delta method (1 - t*skewness + t^2 (excess kurtosis + 2) / 4) / N accounts for the sd being
  // estimated too; clamped at 0 against rounding, as fishtest does.
  const double t = (e.score - 0.5) / std::sqrt(e.variance);
  const double var_t = std::max(1 - t * d.skewness() + 0.25 * t * t * (d.excess_kurtosis() + 2),
                                0.0);
  const double per_game = kNeloPerT / std::sqrt(games_per_sample);
  e.nelo = per_game * t + 0.0;
  e.nelo_error = per_game * z * std::sqrt(var_t / d.count);
  return e;
}

}  // namespace

EloEstimate estimate(const PentanomialCounts& c, double confidence) {
  if (c.pairs() == 0) throw std::invalid_argument("no game pairs: nothing to estimate");
  return estimate_from(distribution_of(c), "pentanomial", c.games(), 2.0, confidence);
}

EloEstimate estimate(const WdlCounts& c, double confidence) {
  if (c.games() == 0) throw std::invalid_argument("no games: nothing to estimate");
  return estimate_from(distribution_of(c), "trinomial", c.games(), 1.0, confidence);
}

double pairs_ratio(const PentanomialCounts& c) {
  const double won = double(c.n[3] + c.n[4]), lost = double(c.n[0] + c.n[1]);
  if (lost > 0) return won / lost;
  return won > 0 ? std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::quiet_NaN();
}

double balanced_pair_ratio(const PentanomialCounts& c) {
  return c.pairs() ? double(c.n[2]) / double(c.pairs()) : std::numeric_limits<double>::quiet_NaN();
}

double draw_ratio(const WdlCounts& c) {
  return c.games() ? double(c.draws) / double(c.games()) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace stk::harness::match
