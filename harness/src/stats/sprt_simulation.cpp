#include "stats/sprt_simulation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "common/splitmix.h"
#include "stats/elo.h"
#include "stats/wilson.h"

namespace stk::harness::match {

double PentanomialModel::score() const {
  double s = 0;
  for (int k = 0; k < 5; ++k) s += p[k] * k / 4.0;
  return s;
}

double PentanomialModel::elo() const { return elo_from_score(score()); }

double PentanomialModel::nelo() const {
  const double mu = score();
  double var = 0;
  for (int k = 0; k < 5; ++k) var += p[k] * (k / 4.0 - mu) * (k / 4.0 - mu);
  return kNeloPerT / std::sqrt(2.0) * (mu - 0.5) / std::sqrt(var);
}

namespace {

struct GameLaw {
  double win, draw, loss;
};

GameLaw game_law(double elo, double draw_ratio) {
  const double s = score_from_elo(elo);
  GameLaw g{s - draw_ratio / 2, draw_ratio, 1 - s - draw_ratio / 2};
  // At the edge of the feasible range (model_at's bracket ends there) the win or loss probability
  // is 0 up to rounding: a few ulps below 0 is that 0, not an infeasible law.
  constexpr double kRounding = 1e-12;
  if (g.win < -kRounding || g.loss < -kRounding)
    throw std::invalid_argument(
        "draw ratio too high for this Elo: a win or loss probability would be negative");
  g.win = std::max(g.win, 0.0), g.loss = std::max(g.loss, 0.0);
  return g;
}

// The largest |elo| + |bias| at which the draw ratio still leaves both sides a non-negative win chance.
// Without draws every Elo is feasible (the formula gives +inf, and a bisection over an infinite
// bracket gives NaN): the range is capped at 1200 Elo, where elo_from_score saturates anyway.
double max_feasible_elo(double draw_ratio) {
  return std::min(-400.0 * std::log10(1.0 / (1.0 - draw_ratio / 2) - 1.0), 1200.0);
}

}  // namespace

PentanomialModel pentanomial_model(double elo, double draw_ratio, double colour_bias_elo) {
  if (!(draw_ratio >= 0 && draw_ratio < 1))
    throw std::invalid_argument("draw ratio must be in [0, 1)");
  const GameLaw w = game_law(elo + colour_bias_elo, draw_ratio);  // A has White
  const GameLaw b = game_law(elo - colour_bias_elo, draw_ratio);  // A has Black
  PentanomialModel m;
  m.p[0] = w.loss * b.loss;
  m.p[1] = w.loss * b.draw + w.draw * b.loss;
  m.p[2] = w.draw * b.draw + w.win * b.loss + w.loss * b.win;
  m.p[3] = w.win * b.draw + w.draw * b.win;
  m.p[4] = w.win * b.win;
  return m;
}

PentanomialModel model_at(double target, EloModel unit, double draw_ratio, double colour_bias_elo) {
  const double reach = max_feasible_elo(draw_ratio) - std::abs(colour_bias_elo);
  if (!(reach > 0)) throw std::invalid_argument("colour bias too large for this draw ratio");
  double lo = -reach, hi = reach;
  if (pentanomial_model(lo, draw_ratio, colour_bias_elo).strength(unit) > target ||
      pentanomial_model(hi, draw_ratio, colour_bias_elo).strength(unit) < target)
    throw std::invalid_argument(
        "target strength not reachable with this draw ratio and colour bias");
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = lo + (hi - lo) / 2;
    (pentanomial_model(mid, draw_ratio, colour_bias_elo).strength(unit) < target ? lo : hi) = mid;
  }
  return pentanomial_model(lo + (hi - lo) / 2, draw_ratio, colour_bias_elo);
}

int draw_pair(const PentanomialModel& m, double u) {
  double cumulative = 0;
  for (int k = 0; k < 4; ++k)
    if (u < (cumulative += m.p[k])) return k;
  return 4;
}

double SimulationReport::mean_pairs() const {
  if (pairs_used.empty()) return 0;
  return double(std::accumulate(pairs_used.begin(), pairs_used.end(), std::uint64_t(0))) /
         double(pairs_used.size());
}

std::uint64_t SimulationReport::quantile_pairs(double q) const {
  if (pairs_used.empty()) return 0;
  std::vector<std::uint64_t> sorted = pairs_used;
  std::sort(sorted.begin(), sorted.end());
  return sorted[std::min(sorted.size() - 1, std::size_t(q * double(sorted.size())))];
}

SimulationReport simulate_sprt(const PentanomialModel& model, const SprtParams& params, int runs,
                               std::uint64_t seed, std::uint64_t max_pairs) {
  if (auto why = params.problem(); !why.empty()) throw std::invalid_argument("SPRT: " + why);
  SimulationReport report;
  report.runs = runs;
  for (int r = 0; r < runs; ++r) {
    SplitMix rng(mix64(seed + std::uint64_t(r)));
    PentanomialCounts counts;
    Verdict v = Verdict::Continue;
    while (v == Verdict::Continue && counts.pairs() < max_pairs) {
      const double u = double(rng.next() >> 11) * 0x1.0p-53;
      ++counts.n[std::size_t(draw_pair(model, u))];
      v = verdict(llr(counts, params), params);
    }
    report.pairs_used.push_back(counts.pairs());
    (v == Verdict::AcceptH1   ? report.accepted_h1
     : v == Verdict::AcceptH0 ? report.accepted_h0
                              : report.undecided)++;
  }
  return report;
}

RateInterval wilson_interval(std::uint64_t k, std::uint64_t n, double z) {
  const auto [lo, hi] = wilson(k, n, z);  // the one implementation (stats/wilson.h)
  return {n == 0 ? 0.0 : double(k) / double(n), lo, hi};
}

}  // namespace stk::harness::match
