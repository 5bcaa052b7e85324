// The homogeneity test across shards (docs/match-results.md "Homogeneity across shards") against an
// independent model: Pearson's chi-squared from the textbook formula, the residuals from their
// definition, the chi-squared tail from its closed forms, and the permutation p-value against the
// exact conditional p-value of small tables (every table with the same margins, enumerated). Then
// the test measured at known truth: its false-flag rate and its power on simulated merges.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "stats/homogeneity.h"
#include "stats/homogeneity_simulation.h"

// One namespace per file: the tests build in unity batches.
namespace homogeneity_model_test {

using namespace stk::harness::match;

using Table = std::vector<PentanomialCounts>;

void expect_close(double got, long double want, double tol, const std::string& what) {
  if (std::abs((long double)got - want) <= tol * std::max(1.0L, std::abs(want))) return;
  std::ostringstream s;
  s << std::setprecision(17) << what << ": code " << got << ", model " << double(want);
  RC_FAIL(s.str());
}

std::vector<LabelledShard> labelled(const Table& t) {
  std::vector<LabelledShard> out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push_back({"s" + std::to_string(i), t[i]});
  return out;
}

// --- The model, from the contract ----------------------------------------------------------

long double pairs(const PentanomialCounts& c) {
  long double n = 0;
  for (auto v : c.n) n += v;
  return n;
}

// The column totals (pairs of each class over all shards).
std::vector<long double> columns(const Table& t) {
  std::vector<long double> col(5, 0);
  for (const auto& c : t)
    for (int k = 0; k < 5; ++k) col[k] += c.n[k];
  return col;
}

// sum over cells of (O - E)^2 / E, E = row total * column total / N, over nonempty rows and columns.
long double model_chi2(const Table& t) {
  const auto col = columns(t);
  const long double n = std::accumulate(col.begin(), col.end(), 0.0L);
  long double chi2 = 0;
  for (const auto& c : t) {
    if (pairs(c) == 0) continue;
    for (int k = 0; k < 5; ++k) {
      if (col[k] == 0) continue;
      const long double e = pairs(c) * col[k] / n, d = c.n[k] - e;
      chi2 += d * d / e;
    }
  }
  return chi2;
}

long double model_row_chi2(const Table& t, std::size_t i) {
  const auto col = columns(t);
  const long double n = std::accumulate(col.begin(), col.end(), 0.0L);
  long double chi2 = 0;
  for (int k = 0; k < 5; ++k)
    if (col[k] > 0) {
      const long double e = pairs(t[i]) * col[k] / n, d = t[i].n[k] - e;
      chi2 += d * d / e;
    }
  return chi2;
}

long double mean_score(const PentanomialCounts& c) {
  long double s = 0;
  for (int k = 0; k < 5; ++k) s += k * (long double)c.n[k];
  return s / (4 * pairs(c));
}

// (shard mean - pooled mean) / (pooled sd / sqrt n_shard), sd over all pairs (divisor N).
long double model_residual(const Table& t, std::size_t i) {
  PentanomialCounts all;
  for (const auto& c : t) all += c;
  const long double m = mean_score(all);
  long double v = 0;
  for (int k = 0; k < 5; ++k) v += all.n[k] * (k / 4.0L - m) * (k / 4.0L - m);
  const long double sd = std::sqrt(v / pairs(all));
  return sd == 0 ? 0 : (mean_score(t[i]) - m) / (sd / std::sqrt(pairs(t[i])));
}

// P(chi2_dof >= x) by the closed forms: Q(n, h) = e^-h sum_{j<n} h^j / j! for integer n, and
// Q(n + 1/2, h) = erfc(sqrt h) + sum_{j<n} e^-h h^(j+1/2) / Gamma(j + 3/2), h = x/2.
long double model_survival(long double x, int dof) {
  if (dof <= 0 || x <= 0) return 1;
  const long double h = x / 2;
  long double q = 0;
  if (dof % 2 == 0) {
    for (int j = 0; j < dof / 2; ++j) q += std::exp(-h + j * std::log(h) - std::lgamma(j + 1.0L));
  } else {
    q = std::erfc(std::sqrt(h));
    for (int j = 0; j < dof / 2; ++j)
      q += std::exp(-h + (j + 0.5L) * std::log(h) - std::lgamma(j + 1.5L));
  }
  return q;
}

// The exact conditional p-value: the probability, over every table with these row and column
// totals (multivariate hypergeometric: prod r_i! prod c_k! / (N! prod O_ik!)), of a statistic at
// least the observed one (to 1e-9 relative).
struct Exact {
  std::vector<long double> row, col;
  long double observed = 0, log_const = 0, p = 0;
  Table cells;

  void rows_from(std::size_t i, std::vector<long double> left) {
    if (i + 1 == row.size()) {
      for (int k = 0; k < 5; ++k) cells[i].n[k] = std::uint64_t(left[k]);
      long double log_p = log_const;
      for (const auto& c : cells)
        for (auto v : c.n) log_p -= std::lgamma(v + 1.0L);
      if (model_chi2(cells) >= observed - 1e-9L * observed) p += std::exp(log_p);
      return;
    }
    cells_of_row(i, 0, row[i], left);
  }
  void cells_of_row(std::size_t i, int k, long double need, std::vector<long double>& left) {
    if (k == 4) {
      if (need > left[4]) return;
      cells[i].n[4] = std::uint64_t(need);
      left[4] -= need;
      rows_from(i + 1, left);
      left[4] += need;
      return;
    }
    for (long double v = 0; v <= std::min(need, left[k]); ++v) {
      cells[i].n[k] = std::uint64_t(v);
      left[k] -= v;
      cells_of_row(i, k + 1, need - v, left);
      left[k] += v;
    }
  }
};

long double exact_p_value(const Table& t) {
  Exact e;
  for (const auto& c : t) e.row.push_back(pairs(c));
  e.col = columns(t);
  const long double n = std::accumulate(e.col.begin(), e.col.end(), 0.0L);
  e.observed = model_chi2(t);
  e.log_const = -std::lgamma(n + 1);
  for (auto r : e.row) e.log_const += std::lgamma(r + 1);
  for (auto c : e.col) e.log_const += std::lgamma(c + 1);
  e.cells.resize(t.size());
  e.rows_from(0, e.col);
  return e.p;
}

// --- Generators ------------------------------------------------------------------------------

rc::Gen<std::uint64_t> count_gen() {
  return rc::gen::oneOf(rc::gen::just<std::uint64_t>(0), rc::gen::inRange<std::uint64_t>(0, 20),
                        rc::gen::inRange<std::uint64_t>(0, 2000));
}

// A shard: often small, sometimes empty (no pairs: excluded).
PentanomialCounts gen_shard() {
  if (*rc::gen::inRange(0, 8) == 0) return {};
  const auto v = *rc::gen::container<std::vector<std::uint64_t>>(5, count_gen());
  return PentanomialCounts{{v[0], v[1], v[2], v[3], v[4]}};
}

Table gen_table(int min_shards, int max_shards) {
  const int s = *rc::gen::inRange(min_shards, max_shards + 1);
  Table t;
  for (int i = 0; i < s; ++i) t.push_back(gen_shard());
  return t;
}

Table nonempty(const Table& t) {
  Table out;
  for (const auto& c : t)
    if (c.pairs() > 0) out.push_back(c);
  return out;
}

// MODEL stats-homogeneity
// checks: harness/src/stats/homogeneity.cpp  (chi-squared homogeneity across match shards)
// contract: docs/match-results.md#homogeneity-across-shards
// planted: ci/mutants/model-stats-homogeneity.patch  (expected counts split evenly over the shards, not in proportion to their pairs)
TEST_CASE("homogeneity across shards of generated tables equals the chi-squared model",
          "[model][stats][homogeneity]") {
  rc::prop("statistic, dof, residuals, contributions and verdict equal the textbook model", [] {
    const Table t = gen_table(0, 8);
    const Table used = nonempty(t);
    const HomogeneityOptions o{*rc::gen::element(0.01, 0.05, 0.2),
                               *rc::gen::inRange<std::uint64_t>(1, 200),
                               *rc::gen::arbitrary<std::uint64_t>()};
    const HomogeneityResult r = homogeneity(labelled(t), o);

    std::vector<std::string> excluded;
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i].pairs() == 0) excluded.push_back("s" + std::to_string(i));
    RC_ASSERT(r.excluded == excluded);
    RC_ASSERT(r.shards.size() == used.size());
    for (std::size_t i = 0, j = 0; i < t.size(); ++i) {
      if (t[i].pairs() == 0) continue;
      RC_ASSERT(r.shards[j].label == "s" + std::to_string(i));
      RC_ASSERT(r.shards[j].pairs == t[i].pairs());
      expect_close(r.shards[j].mean_score, mean_score(t[i]), 1e-12, "mean score");
      ++j;
    }
    RC_ASSERT(r.applicable == (used.size() >= 2));
    if (!r.applicable) {
      RC_ASSERT(!r.flagged);
      RC_ASSERT(r.p_value == 1.0);
      RC_ASSERT(r.statistic == 0.0);
      RC_ASSERT(!r.worst);
      return;
    }
    const auto col = columns(used);
    const int k = int(std::count_if(col.begin(), col.end(), [](long double c) { return c > 0; }));
    RC_ASSERT(r.categories == k);
    RC_ASSERT(r.dof == int(used.size() - 1) * (k - 1));
    expect_close(r.statistic, model_chi2(used), 1e-9, "chi-squared");
    expect_close(r.asymptotic_p_value, model_survival(model_chi2(used), r.dof), 1e-9,
                 "asymptotic p");
    long double largest = 0;
    for (std::size_t i = 0; i < used.size(); ++i) {
      expect_close(r.shards[i].residual, model_residual(used, i), 1e-9, "residual");
      expect_close(r.shards[i].chi2_contribution, model_row_chi2(used, i), 1e-9, "contribution");
      largest = std::max(largest, std::abs(model_residual(used, i)));
    }
    // The worst shard has the largest |residual| (ties to rounding either way).
    if (largest == 0) {
      RC_ASSERT(!r.worst);
    } else {
      RC_ASSERT(r.worst.has_value());
      expect_close(std::abs(r.shards[*r.worst].residual), largest, 1e-9, "worst |residual|");
    }
    // p = (1 + at least as extreme) / (1 + permutations), and the verdict is p < alpha.
    const double hits = r.p_value * double(1 + o.permutations) - 1;
    RC_ASSERT(std::abs(hits - std::round(hits)) < 1e-6);
    RC_ASSERT(hits >= -1e-6);
    RC_ASSERT(hits <= double(o.permutations) + 1e-6);
    RC_ASSERT(r.flagged == (r.p_value < o.alpha));
    const HomogeneityResult again = homogeneity(labelled(t), o);
    RC_ASSERT(again.p_value == r.p_value);
    RC_ASSERT(again.statistic == r.statistic);
  });

  rc::prop("reordering the shards changes neither the statistic nor any shard's residual", [] {
    const Table t = gen_table(2, 8);
    const auto keys = *rc::gen::container<std::vector<int>>(t.size(), rc::gen::arbitrary<int>());
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    std::vector<LabelledShard> a = labelled(t), b;
    for (std::size_t i : order) b.push_back(a[i]);
    const HomogeneityResult ra = homogeneity(a, {0.01, 20, 1}), rb = homogeneity(b, {0.01, 20, 1});
    RC_ASSERT(ra.applicable == rb.applicable);
    expect_close(rb.statistic, ra.statistic, 1e-12, "reordered statistic");
    RC_ASSERT(ra.dof == rb.dof);
    for (const auto& x : ra.shards)
      for (const auto& y : rb.shards)
        if (x.label == y.label) {
          expect_close(y.residual, x.residual, 1e-12, "reordered residual");
          expect_close(y.chi2_contribution, x.chi2_contribution, 1e-12, "reordered part");
        }
  });

  rc::prop("shards in identical proportions give statistic 0 and p = 1, never flagged", [] {
    const auto base = *rc::gen::suchThat(
        rc::gen::container<std::vector<std::uint64_t>>(5, rc::gen::inRange<std::uint64_t>(0, 6)),
        [](const std::vector<std::uint64_t>& v) { return v[0] + v[1] + v[2] + v[3] + v[4] > 0; });
    const int s = *rc::gen::inRange(2, 9);
    Table t;
    for (int i = 0; i < s; ++i) {
      const std::uint64_t m = *rc::gen::inRange<std::uint64_t>(1, 40);
      t.push_back({{base[0] * m, base[1] * m, base[2] * m, base[3] * m, base[4] * m}});
    }
    const HomogeneityResult r = homogeneity(labelled(t), {0.5, 50, 7});
    RC_ASSERT(r.applicable);
    RC_ASSERT(r.statistic == 0.0);
    RC_ASSERT(r.p_value == 1.0);
    RC_ASSERT(r.asymptotic_p_value == 1.0);
    RC_ASSERT(!r.flagged);
    RC_ASSERT(!r.worst);
  });

  rc::prop("a shard split into two equal halves keeps the statistic; its residual / sqrt 2", [] {
    Table t = nonempty(gen_table(1, 6));
    RC_PRE(!t.empty());
    const std::size_t i = *rc::gen::inRange<std::size_t>(0, t.size());
    Table doubled = t, split = t;
    for (auto& v : doubled[i].n) v *= 2;
    split.insert(split.begin() + long(i) + 1, t[i]);
    const HomogeneityResult a = homogeneity(labelled(doubled), {0.01, 10, 1});
    const HomogeneityResult b = homogeneity(labelled(split), {0.01, 10, 1});
    RC_PRE(a.applicable);
    expect_close(b.statistic, a.statistic, 1e-9, "split statistic");
    expect_close(b.shards[i].residual * std::sqrt(2.0), a.shards[i].residual, 1e-9,
                 "half residual");
    expect_close(b.shards[i + 1].residual, b.shards[i].residual, 1e-12, "halves alike");
  });

  rc::prop("the chi-squared tail equals its closed forms", [] {
    const int dof = *rc::gen::inRange(1, 200);
    const double x = *rc::gen::inRange(0, 100000) / 100.0;
    expect_close(chi_squared_survival(x, dof), model_survival(x, dof), 1e-9,
                 "chi-squared survival");
  });

  rc::prop("the permutation p-value is the exact conditional p-value up to Monte Carlo error", [] {
    // Small tables (2 or 3 shards, up to 14 pairs), where every table with the same margins can
    // be enumerated.
    const int s = *rc::gen::inRange(2, 4);
    Table t;
    for (int i = 0; i < s; ++i) {
      const auto v = *rc::gen::suchThat(rc::gen::container<std::vector<std::uint64_t>>(
                                            5, rc::gen::inRange<std::uint64_t>(0, s == 2 ? 3 : 2)),
                                        [](const std::vector<std::uint64_t>& c) {
                                          return c[0] + c[1] + c[2] + c[3] + c[4] > 0;
                                        });
      t.push_back({{v[0], v[1], v[2], v[3], v[4]}});
    }
    const std::uint64_t b = 20000;
    const HomogeneityResult r = homogeneity(labelled(t),
                                            {0.05, b, *rc::gen::arbitrary<std::uint64_t>()});
    const long double p = exact_p_value(t);
    const long double sd = std::sqrt(p * (1 - p) / b);
    if (std::abs((long double)r.p_value - p) > 5 * sd + 2.0L / b) {
      std::ostringstream m;
      m << "permutation p " << r.p_value << ", exact " << double(p);
      RC_FAIL(m.str());
    }
  });
}

TEST_CASE(
    "homogeneity: fewer than two shards with pairs is not applicable and bad options are refused",
    "[stats][homogeneity]") {
  const PentanomialCounts some{{1, 2, 3, 4, 5}};
  for (const auto& shards : {std::vector<LabelledShard>{}, std::vector<LabelledShard>{{"a", some}},
                             std::vector<LabelledShard>{{"a", {}}, {"b", some}, {"c", {}}}}) {
    const HomogeneityResult r = homogeneity(shards);
    CHECK_FALSE(r.applicable);
    CHECK_FALSE(r.flagged);
    CHECK(r.p_value == 1.0);
    CHECK_FALSE(r.worst);
  }
  const HomogeneityResult r = homogeneity({{"a", {}}, {"b", some}, {"c", {}}});
  CHECK(r.excluded == std::vector<std::string>{"a", "c"});
  REQUIRE(r.shards.size() == 1);
  CHECK(r.shards[0].pairs == 15);
  CHECK(r.shards[0].mean_score == Approx(40.0 / 60));
  CHECK_THROWS_AS(homogeneity({}, {0, 10, 1}), std::invalid_argument);
  CHECK_THROWS_AS(homogeneity({}, {1, 10, 1}), std::invalid_argument);
  CHECK_THROWS_AS(homogeneity({}, {0.05, 0, 1}), std::invalid_argument);
}

TEST_CASE("homogeneity: false-flag rate is nominal and one bad shard is flagged and named",
          "[stats][homogeneity]") {
  // 8 shards of 60 pairs; honest shards from a realistic law, the bad one shifted toward losses
  // (e.g. an engine losing on time on one machine).
  HomogeneitySimulation sim;
  sim.shards = 8, sim.pairs_per_shard = 60, sim.merges = 400;
  sim.permutations =
      500;  // the p-value's Monte Carlo error (about 0.01 at 0.05) is immaterial here
  sim.seed = 20261204;
  sim.honest.p = {0.02, 0.18, 0.50, 0.25, 0.05};
  sim.alpha = 0.05;
  sim.confidence = 0.999;
  const auto t0 = std::chrono::steady_clock::now();
  const HomogeneitySimulationReport honest = simulate_homogeneity(sim);
  sim.bad = PentanomialModel{{0.15, 0.35, 0.35, 0.12, 0.03}};
  const HomogeneitySimulationReport bad = simulate_homogeneity(sim);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO("honest: " << honest.flagged << "/" << honest.merges << " flagged, 99.9% ["
                  << honest.flag_rate.lower << ", " << honest.flag_rate.upper
                  << "]; bad: " << bad.flagged << " flagged, " << bad.bad_named_worst << " named, "
                  << seconds << " s");
  CHECK(honest.flag_rate.lower <= 0.05);
  CHECK(0.05 <= honest.flag_rate.upper);
  CHECK(honest.bad_named_worst == 0);
  CHECK(bad.flag_rate.rate >= 0.9);
  CHECK(bad.named_rate.rate >= 0.9);
  // Same seed, same counts.
  sim.merges = 20;
  const HomogeneitySimulationReport once = simulate_homogeneity(sim),
                                    twice = simulate_homogeneity(sim);
  CHECK(once.flagged == twice.flagged);
  CHECK(once.bad_named_worst == twice.bad_named_worst);
}

}  // namespace homogeneity_model_test
