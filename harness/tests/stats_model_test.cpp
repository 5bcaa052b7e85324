// Independent models of harness/src/stats, written from docs/match-results.md (sections 2 and 3)
// and the published definitions it cites; the models live in stats_model.h. Each TEST_CASE is one
// model, with its planted defect in ci/mutants/model-<id>.patch.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "stats/constrained_mle.h"
#include "stats/elo.h"
#include "stats/normal.h"
#include "stats/score_distribution.h"
#include "stats/sprt.h"
#include "stats/sprt_simulation.h"
#include "stats/wilson.h"
#include "stats_model.h"

using namespace stk::harness::match;
namespace model = stk::model;

namespace stats_model_test {

// |got - want| <= tol * max(1, |want|), else a failure naming both values.
void expect_close(double got, double want, double tol, const std::string& what) {
  if (std::abs(got - want) <= tol * std::max(1.0, std::abs(want))) return;
  std::ostringstream s;
  s << std::setprecision(17) << what << ": code " << got << ", model " << want;
  RC_FAIL(s.str());
}

// LLRs: 1e-7 of the value, plus 1e-9 per sample. In a near-degenerate law (one class holding nearly
// every pair) the t-value fixed point is met to about 1e-9 in t by any iteration (the code, this
// model and stkref.sprt each stop elsewhere), and the LLR moves by N * dloglik/dt times that:
// 8,6238,0,0,0 on nElo [15, 15.8] gives -15.6572515 (code, stkref) and -15.6572533 (model).
void expect_llr(double got, double want, double samples, const std::string& what) {
  if (std::abs(got - want) <= 1e-7 * std::max(1.0, std::abs(want)) + 1e-9 * samples) return;
  std::ostringstream s;
  s << std::setprecision(17) << what << ": code " << got << ", model " << want;
  RC_FAIL(s.str());
}

// One class count: often 0 (regularization), often small, sometimes large.
rc::Gen<std::uint64_t> count_gen() {
  return rc::gen::oneOf(rc::gen::just<std::uint64_t>(0), rc::gen::inRange<std::uint64_t>(0, 20),
                        rc::gen::inRange<std::uint64_t>(0, 5000));
}

PentanomialCounts gen_penta() {
  const auto n = *rc::gen::suchThat(rc::gen::container<std::vector<std::uint64_t>>(5, count_gen()),
                                    [](const std::vector<std::uint64_t>& v) {
                                      return v[0] + v[1] + v[2] + v[3] + v[4] > 0;
                                    });
  return PentanomialCounts{{n[0], n[1], n[2], n[3], n[4]}};
}

model::Law law(const PentanomialCounts& c) { return model::penta_law(c.n); }

SprtParams gen_params(EloModel m) {
  // Bounds in nElo (normalized) or Elo (logistic), alpha and beta in [0.01, 0.2].
  const double e0 = *rc::gen::inRange(-200, 200) / 10.0;
  const double w = *rc::gen::inRange(5, 300) / 10.0;
  const double alpha = *rc::gen::inRange(1, 21) / 100.0, beta = *rc::gen::inRange(1, 21) / 100.0;
  return SprtParams{e0, e0 + w, alpha, beta, m};
}

model::Unit unit(EloModel m) {
  return m == EloModel::Normalized ? model::Unit::Normalized : model::Unit::Logistic;
}

int sign_of(Verdict v) { return v == Verdict::AcceptH1 ? 1 : v == Verdict::AcceptH0 ? -1 : 0; }

// MODEL stats-elo-estimate
// checks: harness/src/stats/elo.cpp  (score, Elo with its 95% interval, LOS, nElo with its interval, pairs, balanced-pair and draw ratios)
// contract: docs/match-results.md#2-estimates-statseloh-statsscore_distributionh
// planted: ci/mutants/model-stats-elo-estimate.patch  (nElo per game divided by g instead of sqrt g)
TEST_CASE("Elo estimates of generated counts equal the model of docs/match-results.md section 2",
          "[model][stats]") {
  rc::prop("pentanomial estimate equals the model, mirrors under an engine swap, grows with wins",
           [] {
             const PentanomialCounts c = gen_penta();
             const double conf = *rc::gen::element(0.95, 0.9, 0.99);
             const EloEstimate e = estimate(c, conf);
             const model::Estimate m = model::estimate(law(c), conf);
             expect_close(e.score, m.score, 1e-12, "score");
             expect_close(e.variance, m.variance, 1e-10, "variance");
             expect_close(e.samples, law(c).n, 1e-12, "samples (regularized pairs)");
             RC_ASSERT(e.games == 2 * c.pairs());
             expect_close(e.elo, m.elo, 1e-9, "elo");
             expect_close(e.elo_lower, m.lower, 1e-9, "elo_lower");
             expect_close(e.elo_upper, m.upper, 1e-9, "elo_upper");
             expect_close(e.elo_error, m.error, 1e-9, "elo_error");
             expect_close(e.los, m.los, 1e-9, "los");
             expect_close(e.nelo, m.nelo, 1e-8, "nelo");
             expect_close(e.nelo_error, m.nelo_error, 1e-7, "nelo_error");
             const double won = double(c.n[3] + c.n[4]), lost = double(c.n[0] + c.n[1]);
             if (lost > 0) expect_close(pairs_ratio(c), won / lost, 1e-15, "pairs ratio");
             if (lost == 0) {
               const double r = pairs_ratio(c);
               RC_ASSERT((won > 0 ? std::isinf(r) : std::isnan(r)));
             }
             if (c.pairs() > 0)
               expect_close(balanced_pair_ratio(c), double(c.n[2]) / double(c.pairs()), 1e-15,
                            "balanced-pair ratio");

             // Swapping the engines: Elo and nElo negate, the interval flips, LOS complements.
             const EloEstimate s = estimate(c.mirrored(), conf);
             expect_close(s.elo, -e.elo, 1e-9, "mirrored elo");
             expect_close(s.elo_lower, -e.elo_upper, 1e-9, "mirrored lower");
             expect_close(s.nelo, -e.nelo, 1e-8, "mirrored nelo");
             expect_close(s.los, 1 - e.los, 1e-9, "mirrored los");

             // One lost pair (LL) turned into a won pair (WW): the score and Elo rise.
             if (c.n[0] > 0) {
               PentanomialCounts up = c;
               --up.n[0], ++up.n[4];
               const EloEstimate u = estimate(up, conf);
               RC_ASSERT(u.score > e.score);
               RC_ASSERT(u.elo >= e.elo);
             }
           });
  rc::prop("trinomial estimate equals the model (a game is one sample)", [] {
    const auto w = *count_gen(), d = *count_gen(), l = *count_gen();
    RC_PRE(w + d + l > 0);
    const EloEstimate e = estimate(WdlCounts{w, d, l});
    const model::Estimate m = model::estimate(model::wdl_law(w, d, l));
    expect_close(e.score, m.score, 1e-12, "score");
    expect_close(e.elo_lower, m.lower, 1e-9, "elo_lower");
    expect_close(e.elo_upper, m.upper, 1e-9, "elo_upper");
    expect_close(e.los, m.los, 1e-9, "los");
    expect_close(e.nelo, m.nelo, 1e-8, "nelo");
    expect_close(e.nelo_error, m.nelo_error, 1e-7, "nelo_error");
    expect_close(draw_ratio(WdlCounts{w, d, l}), double(d) / double(w + d + l), 1e-15,
                 "draw ratio");
  });
  rc::prop("elo_from_score is the clamped logistic curve", [] {
    const double s = *rc::gen::inRange(-100, 1101) / 1000.0;
    expect_close(elo_from_score(s), model::elo(s), 1e-12, "elo_from_score");
  });
}

// MODEL stats-sprt-llr
// checks: harness/src/stats/sprt.cpp  (the pentanomial GSPRT's LLR, both Elo models, Wald's bounds)
// contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
// planted: ci/mutants/model-stats-sprt-llr.patch  (a pair's t-value taken as a game's: no sqrt 2)
TEST_CASE("SPRT LLR of generated counts equals the model of docs/match-results.md section 3",
          "[model][stats]") {
  rc::prop("LLR, bounds and verdict equal the model's, for both Elo models", [] {
    const PentanomialCounts c = gen_penta();
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams p = gen_params(em);
    const SprtResult r = sprt(c, p);
    const double want = model::llr(law(c), p.elo0, p.elo1, unit(em));
    expect_llr(r.llr, want, law(c).n, "llr");
    expect_close(r.lower, model::lower_bound(p.alpha, p.beta), 1e-15, "lower bound");
    expect_close(r.upper, model::upper_bound(p.alpha, p.beta), 1e-15, "upper bound");
    if (std::abs(want - r.lower) > 1e-6 && std::abs(want - r.upper) > 1e-6)
      RC_ASSERT(sign_of(r.verdict) == model::decide(want, p.alpha, p.beta));
  });
  rc::prop("swapping the engines gives the negated LLR of the mirrored hypothesis", [] {
    const PentanomialCounts c = gen_penta();
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams p = gen_params(em);
    SprtParams q = p;
    q.elo0 = -p.elo1, q.elo1 = -p.elo0;
    expect_llr(llr(c.mirrored(), q), -llr(c, p), law(c).n, "mirrored llr");
  });
  rc::prop("merged shards give the LLR of the summed counts, whatever the order", [] {
    const PentanomialCounts a = gen_penta(), b = gen_penta();
    const SprtParams p = gen_params(EloModel::Normalized);
    const double want = model::llr(law(a + b), p.elo0, p.elo1, model::Unit::Normalized);
    expect_llr(llr(a + b, p), want, law(a + b).n,
               "llr of a + b on nElo [" + std::to_string(p.elo0) + ", " + std::to_string(p.elo1) +
                   "]");
    expect_llr(llr(b + a, p), want, law(a + b).n, "llr of b + a");
  });
  rc::prop("the trinomial LLR (reference) equals the model with a game as the sample", [] {
    const auto w = *count_gen(), d = *count_gen(), l = *count_gen();
    RC_PRE(w + d + l > 0);
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams p = gen_params(em);
    expect_llr(llr(WdlCounts{w, d, l}, p),
               model::llr(model::wdl_law(w, d, l), p.elo0, p.elo1, unit(em)),
               model::wdl_law(w, d, l).n, "trinomial llr");
  });
  rc::prop("an LL pair turned into a WW pair does not lower the LLR", [] {
    const PentanomialCounts c = gen_penta();
    RC_PRE(c.n[0] > 0);
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams p = gen_params(em);
    PentanomialCounts up = c;
    --up.n[0], ++up.n[4];
    RC_ASSERT(llr(up, p) >= llr(c, p) - 1e-9);
  });
}

// MODEL stats-sprt-verdict-at-bound
// checks: harness/src/stats/sprt.cpp  (the verdict: H1 at LLR >= upper, H0 at LLR <= lower, not a pair before)
// contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
// planted: ci/mutants/model-stats-sprt-verdict-at-bound.patch  (H1 only strictly above the upper bound)
TEST_CASE("SPRT verdicts change exactly at Wald's bounds and not one pair before",
          "[model][stats]") {
  const SprtParams p{0, 25, 0.05, 0.05, EloModel::Normalized};
  // Smallest margins on the LLR itself: at the bound it decides, one ulp inside it continues.
  CHECK(verdict(p.upper_bound(), p) == Verdict::AcceptH1);
  CHECK(verdict(std::nextafter(p.upper_bound(), 0.0), p) == Verdict::Continue);
  CHECK(verdict(p.lower_bound(), p) == Verdict::AcceptH0);
  CHECK(verdict(std::nextafter(p.lower_bound(), 0.0), p) == Verdict::Continue);
  // Found by this model: 26 pairs 7,11,6,1,1 on nElo [0, 30]. The H0 fit (t = 0) once stopped its
  // multiplier next to a pole (a tiny Newton step, a huge sum): LLR -34.57, H0 accepted, where the
  // model (and stkref.sprt) give -2.087, continue.
  const PentanomialCounts found{{7, 11, 6, 1, 1}};
  const SprtParams p30{0, 30, 0.05, 0.05, EloModel::Normalized};
  const double found_llr = model::llr(law(found), 0, 30, model::Unit::Normalized);
  CHECK(found_llr == Approx(-2.0869686281685).margin(1e-9));
  CHECK(sprt(found, p30).llr == Approx(found_llr).margin(1e-9));
  CHECK(sprt(found, p30).verdict == Verdict::Continue);
  CHECK(p.upper_bound() == model::upper_bound(0.05, 0.05));
  CHECK(p.lower_bound() == model::lower_bound(0.05, 0.05));
  rc::prop("on a stream of pairs the code's verdict after each pair is the model's", [] {
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const SprtParams q = em == EloModel::Normalized ? SprtParams{0, 30, 0.05, 0.05, em}
                                                    : SprtParams{0, 25, 0.05, 0.05, em};
    // A stream leaning one way, so that a bound is usually reached within 200 pairs.
    const bool up = *rc::gen::arbitrary<bool>();
    const auto pairs = *rc::gen::container<std::vector<int>>(
        200, up ? rc::gen::element(0, 1, 2, 2, 3, 3, 4, 4, 4)
                : rc::gen::element(0, 0, 0, 1, 1, 2, 2, 3, 4));
    PentanomialCounts c;
    int decided_at = -1;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      ++c.n[std::size_t(pairs[i])];
      const double want = model::llr(law(c), q.elo0, q.elo1, unit(em));
      const int v = model::decide(want, q.alpha, q.beta);
      const SprtResult r = sprt(c, q);
      if (std::abs(want - q.upper_bound()) > 1e-7 && std::abs(want - q.lower_bound()) > 1e-7)
        if (sign_of(r.verdict) != v) {
          std::ostringstream msg;
          msg << std::setprecision(17) << "after pair " << i + 1 << " (ptnml " << c.n[0] << ","
              << c.n[1] << "," << c.n[2] << "," << c.n[3] << "," << c.n[4] << ", "
              << (em == EloModel::Normalized ? "nElo" : "Elo") << " [" << q.elo0 << ", " << q.elo1
              << "]): code LLR " << r.llr << " " << to_string(r.verdict) << ", model LLR " << want;
          RC_FAIL(msg.str());
        }
      if (v != 0) {
        decided_at = int(i);
        break;
      }
    }
    RC_TAG(decided_at >= 0 ? "decided" : "undecided");
  });
}

// MODEL stats-wilson-interval
// checks: harness/src/stats/wilson.h  (the Wilson score interval of a pass rate)
// contract: docs/match-results.md#7-rates-the-wilson-interval-statswilsonh
// planted: ci/mutants/model-stats-wilson-interval.patch  (the centre without the z^2/2n shift)
TEST_CASE("Wilson intervals of generated rates equal the roots of the score-test quadratic",
          "[model][stats]") {
  rc::prop("both ends equal the model's, and the ends are where the score test is exactly z", [] {
    const auto n = *rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(0, 30),
                                   rc::gen::inRange<std::uint64_t>(0, 1000000));
    const auto k = n == 0 ? 0 : *rc::gen::inRange<std::uint64_t>(0, n + 1);
    const double z = *rc::gen::element(1.959963984540054, 1.0, 2.5758293035489);
    const auto [lo, hi] = stk::harness::wilson(k, n, z);
    const auto [mlo, mhi] = model::wilson(k, n, z);
    expect_close(lo, mlo, 1e-12, "lower");
    expect_close(hi, mhi, 1e-12, "upper");
    const RateInterval ri = wilson_interval(k, n, z);
    expect_close(ri.lower, mlo, 1e-12, "sprt-sim lower");
    expect_close(ri.upper, mhi, 1e-12, "sprt-sim upper");
    if (n > 0) {
      expect_close(ri.rate, double(k) / double(n), 1e-15, "rate");
      RC_ASSERT(lo <= double(k) / double(n) + 1e-15);
      RC_ASSERT(hi >= double(k) / double(n) - 1e-15);
    }
  });
}

// MODEL stats-normal-quantile
// checks: harness/src/stats/normal.cpp  (Phi and its inverse, for intervals and LOS)
// contract: docs/match-results.md#2-estimates-statseloh-statsscore_distributionh
// planted: ci/mutants/model-stats-normal-quantile.patch  (the density's exp(-x^2/2) taken as exp(-x^2))
TEST_CASE("normal quantiles of generated probabilities equal a bisection on erfc",
          "[model][stats]") {
  CHECK(normal_quantile(0.975) == Approx(1.959963984540054).epsilon(1e-15));
  rc::prop("quantile(p) equals the model, and cdf equals 0.5 erfc(-x/sqrt 2)", [] {
    // p from the far tails to the middle: 10^-e * mantissa.
    const double mant = *rc::gen::inRange(1000, 10000) / 1000.0;
    const int e = *rc::gen::inRange(1, 250);
    const double p = std::min(0.5, mant * std::pow(10.0, -e));
    const double x = normal_quantile(p), want = model::phi_quantile(p);
    expect_close(x, want, 1e-13, "quantile(p)");
    // The upper half by symmetry: q = 1 - p is exact in double for p >= 2^-53 only up to its
    // rounding, whose effect on x is dp / density.
    const double q = 1 - p;
    if (q == 1) return;  // p below half an ulp of 1: no upper-half probability to ask for
    const double wq = model::phi_quantile(q);
    const double dens = std::exp(-wq * wq / 2) / std::sqrt(2 * M_PI);
    const double tol = 1e-13 + 4e-16 / dens;
    if (std::abs(normal_quantile(q) - wq) > tol * std::max(1.0, std::abs(wq))) {
      std::ostringstream s;
      s << std::setprecision(17) << "quantile(" << q << "): code " << normal_quantile(q)
        << ", model " << wq;
      RC_FAIL(s.str());
    }
    const double y = *rc::gen::inRange(-4000, 4000) / 100.0;
    expect_close(normal_cdf(y), model::phi_cdf(y), 1e-15, "cdf");
  });
}

// MODEL stats-constrained-mle
// checks: harness/src/stats/constrained_mle.cpp  (the constrained maximum-likelihood laws p0, p1)
// contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
// planted: ci/mutants/model-stats-constrained-mle.patch  (the t-value constraint linearized without its (1 + z^2)/2 term)
TEST_CASE(
    "constrained MLE laws of generated counts equal a bisection model and meet the constraint",
    "[model][stats]") {
  rc::prop("the mean-constrained law equals the model and has the mean asked", [] {
    const PentanomialCounts c = gen_penta();
    const double s = *rc::gen::inRange(20, 981) / 1000.0;
    const ScoreDistribution fit = mle_with_mean(distribution_of(c), s);
    const auto want = model::mle_mean(law(c), s);
    double mean = 0, sum = 0;
    for (int k = 0; k < 5; ++k) {
      expect_close(fit.p[k], want[std::size_t(k)], 1e-8, "p[" + std::to_string(k) + "]");
      mean += fit.p[k] * k / 4.0, sum += fit.p[k];
    }
    // The multiplier is a root found to a few ulps. When the constraint pushes the mass onto an
    // outcome never observed (regularized to 0.001, p^ ~ 3e-7), 1 + x phi there is ~ 3e-7 and each
    // ulp of x moves that probability by ~ 3e-10 of itself: the fit holds to 1e-8, not to the last
    // bit. (The LLR does not feel it: sum p^ log p is stationary in x at the root.)
    expect_close(sum, 1.0, 1e-8, "total probability");
    expect_close(mean, s, 1e-8, "mean of the fit");
  });
  rc::prop("the t-value-constrained law equals the model and has the t-value asked", [] {
    const PentanomialCounts c = gen_penta();
    const double t = *rc::gen::inRange(-300, 301) / 1000.0;
    const ScoreDistribution fit = mle_with_t_value(distribution_of(c), 0.5, t);
    const auto want = model::mle_t(law(c), 0.5, t);
    double mean = 0, sum = 0, var = 0;
    for (int k = 0; k < 5; ++k) {
      expect_close(fit.p[k], want[std::size_t(k)], 1e-7, "p[" + std::to_string(k) + "]");
      mean += fit.p[k] * k / 4.0, sum += fit.p[k];
    }
    for (int k = 0; k < 5; ++k) var += fit.p[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
    expect_close(sum, 1.0, 1e-9, "total probability");
    expect_close((mean - 0.5) / std::sqrt(var), t, 1e-7, "t-value of the fit");
  });
}

// MODEL stats-score-distribution
// checks: harness/src/stats/score_distribution.cpp  (regularized frequencies, outcomes, moments)
// contract: docs/match-results.md#2-estimates-statseloh-statsscore_distributionh
// planted: ci/mutants/model-stats-score-distribution.patch  (0.001 added to every count, not only to zeros)
TEST_CASE("score distributions of generated counts equal fishtest's regularized frequencies",
          "[model][stats]") {
  rc::prop("pentanomial and trinomial laws, their moments, equal the model", [] {
    const PentanomialCounts c = gen_penta();
    const ScoreDistribution d = distribution_of(c);
    const model::Law m = law(c);
    RC_ASSERT(d.k == 5);
    expect_close(d.count, m.n, 1e-15, "count");
    for (int k = 0; k < 5; ++k) {
      RC_ASSERT(d.a[std::size_t(k)] == k / 4.0);
      expect_close(d.p[std::size_t(k)], m.p[std::size_t(k)], 1e-15, "p");
    }
    expect_close(d.mean(), m.mean(), 1e-14, "mean");
    expect_close(d.variance(), m.var(), 1e-12, "variance");
    expect_close(d.skewness(), m.skew(), 1e-8, "skewness");
    expect_close(d.excess_kurtosis(), m.exkurt(), 1e-8, "excess kurtosis");
    const auto w = *count_gen(), dr = *count_gen(), l = *count_gen();
    RC_PRE(w + dr + l > 0);
    const ScoreDistribution t = distribution_of(WdlCounts{w, dr, l});
    const model::Law mt = model::wdl_law(w, dr, l);
    RC_ASSERT(t.k == 3);
    for (int k = 0; k < 3; ++k) {
      RC_ASSERT(t.a[std::size_t(k)] == k / 2.0);
      expect_close(t.p[std::size_t(k)], mt.p[std::size_t(k)], 1e-15, "trinomial p");
    }
    expect_close(t.count, mt.n, 1e-15, "trinomial count");
  });
}

// The pair law of docs/match-results.md section 8: A as White at e + b, as Black at e - b, draw
// probability d, the two games independent.
std::array<double, 5> pair_law(double e, double d, double b) {
  const double sw = model::score_of_elo(e + b), sb = model::score_of_elo(e - b);
  const double ww = sw - d / 2, lw = 1 - sw - d / 2, wb = sb - d / 2, lb = 1 - sb - d / 2;
  // Convolution of the two games' half points (0, 1, 2).
  const double g1[3] = {lw, d, ww}, g2[3] = {lb, d, wb};
  std::array<double, 5> p{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p[std::size_t(i + j)] += g1[i] * g2[j];
  return p;
}

// nElo (per game) and logistic Elo of an exact pair law.
double law_nelo(const std::array<double, 5>& p) {
  model::Law l;
  l.a = {0, 0.25, 0.5, 0.75, 1};
  l.p = {p.begin(), p.end()};
  l.n = 1;
  l.games_per_sample = 2;
  return model::estimate(l).nelo;
}
double law_elo(const std::array<double, 5>& p) {
  double m = 0;
  for (int k = 0; k < 5; ++k) m += p[std::size_t(k)] * k / 4.0;
  return model::elo(m);
}

// The number of pairs after which the SPRT first decides on a stream of identical pairs of score
// k, and how (-1 H0, +1 H1); {max_pairs, 0} if it does not within max_pairs.
std::pair<std::uint64_t, int> constant_stream(int k, const SprtParams& p, std::uint64_t max_pairs) {
  std::array<std::uint64_t, 5> n{};
  for (std::uint64_t i = 1; i <= max_pairs; ++i) {
    ++n[std::size_t(k)];
    const int v = model::decide(model::llr(model::penta_law(n), p.elo0, p.elo1, unit(p.model)),
                                p.alpha, p.beta);
    if (v != 0) return {i, v};
  }
  return {max_pairs, 0};
}

// MODEL stats-sprt-simulation
// checks: harness/src/stats/sprt_simulation.cpp  (sprt-sim's pair law at known truth, the runs and their pair counts)
// contract: docs/match-results.md#8-the-sprt-simulation-statssprt_simulationh
// planted: ci/mutants/model-stats-sprt-simulation.patch  (the pair law's WL term kept, its LW term dropped)
TEST_CASE("SPRT simulation laws and runs equal the model of docs/match-results.md section 8",
          "[model][stats]") {
  rc::prop("the pair law is the convolution of the two games, solved to the target strength", [] {
    const double d = *rc::gen::inRange(0, 80) / 100.0;
    const double b = *rc::gen::inRange(0, 100) * 1.0;
    const double e = *rc::gen::inRange(-100, 100) * 1.0;
    const auto want = pair_law(e, d, b);
    RC_PRE(*std::min_element(want.begin(), want.end()) >= 0 &&
           model::score_of_elo(e + b) + d / 2 <= 1 && model::score_of_elo(e - b) >= d / 2 &&
           model::score_of_elo(e + b) >= d / 2 && model::score_of_elo(e - b) + d / 2 <= 1);
    const PentanomialModel m = pentanomial_model(e, d, b);
    double sum = 0;
    for (int k = 0; k < 5; ++k) {
      expect_close(m.p[std::size_t(k)], want[std::size_t(k)], 1e-14, "p");
      sum += m.p[std::size_t(k)];
    }
    expect_close(sum, 1.0, 1e-14, "total probability");
    expect_close(m.nelo(), law_nelo(want), 1e-9, "nelo");
    expect_close(m.elo(), law_elo(want), 1e-9, "elo");
    // model_at over the draw ratios and colour biases sprt-sim accepts, wherever the feasible
    // range (both sides' win and loss probabilities >= 0) leaves 100 Elo of room.
    const double target = *rc::gen::inRange(-30, 31) * 1.0;
    const EloModel em = *rc::gen::element(EloModel::Normalized, EloModel::Logistic);
    const double dr = *rc::gen::inRange(0, 17) * 0.05, bias = *rc::gen::inRange(0, 101) * 1.0;
    const double reach = model::elo(1 - dr / 2) - bias;  // the Elo whose score is 1 - d/2
    RC_PRE(reach >= 100);
    const PentanomialModel at = model_at(target, em, dr, bias);
    expect_close(em == EloModel::Normalized ? law_nelo(at.p) : law_elo(at.p), target, 1e-7,
                 "strength of model_at");
    // draw_pair inverts the cumulative law: u below the first k cumulative mass gives k.
    const double u = *rc::gen::inRange(0, 1000000) / 1e6;
    double cum = 0;
    int k = 0;
    while (k < 4 && !(u < cum + at.p[std::size_t(k)])) cum += at.p[std::size_t(k++)];
    RC_ASSERT(draw_pair(at, u) == k);
  });
  SECTION("a law with one outcome decides on the pair the model's SPRT decides, not one before") {
    for (const SprtParams p : {SprtParams{0, 30, 0.05, 0.05, EloModel::Normalized},
                               SprtParams{-10, 40, 0.1, 0.02, EloModel::Logistic}})
      for (int k : {0, 1, 3, 4})
        for (std::uint64_t max_pairs : {std::uint64_t(2), std::uint64_t(60)}) {
          CAPTURE(k, max_pairs, p.elo1);
          PentanomialModel only;
          only.p[std::size_t(k)] = 1;
          const auto [pairs, v] = constant_stream(k, p, max_pairs);
          const SimulationReport r = simulate_sprt(only, p, 3, 11, max_pairs);
          CHECK(r.runs == 3);
          CHECK(r.pairs_used == std::vector<std::uint64_t>(3, pairs));
          CHECK(r.accepted_h1 == (v == 1 ? 3 : 0));
          CHECK(r.accepted_h0 == (v == -1 ? 3 : 0));
          CHECK(r.undecided == (v == 0 ? 3 : 0));
        }
  }
  rc::prop("run r of a batch is the run seeded seed + r; mean and quantiles are the model's", [] {
    const PentanomialModel m = model_at(0, EloModel::Normalized, *rc::gen::element(0.5, 0.6), 30);
    const SprtParams p{0, 40, 0.05, 0.05, EloModel::Normalized};
    const int runs = *rc::gen::inRange(1, 6);
    const std::uint64_t seed = *rc::gen::inRange<std::uint64_t>(0, 1000);
    const SimulationReport all = simulate_sprt(m, p, runs, seed, 300);
    RC_ASSERT(all.accepted_h0 + all.accepted_h1 + all.undecided == runs);
    for (int r = 0; r < runs; ++r) {
      const SimulationReport one = simulate_sprt(m, p, 1, seed + std::uint64_t(r), 300);
      RC_ASSERT(one.pairs_used.at(0) == all.pairs_used.at(std::size_t(r)));
    }
    double sum = 0;
    for (auto x : all.pairs_used) sum += double(x);
    expect_close(all.mean_pairs(), sum / runs, 1e-15, "mean pairs");
    auto sorted = all.pairs_used;
    std::sort(sorted.begin(), sorted.end());
    for (double q : {0.0, 0.5, 0.9, 1.0})
      RC_ASSERT(all.quantile_pairs(q) ==
                sorted[std::min(sorted.size() - 1, std::size_t(std::floor(q * double(runs))))]);
  });
}

}  // namespace stats_model_test
