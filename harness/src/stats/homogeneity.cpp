#include "stats/homogeneity.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "common/splitmix.h"

namespace stk::harness::match {

namespace {

using Row = std::array<std::uint64_t, 5>;
using Expected = std::array<double, 5>;

std::uint64_t row_total(const Row& r) { return r[0] + r[1] + r[2] + r[3] + r[4]; }

// Uniform in 0..n-1 without modulo bias (outputs below 2^64 mod n are rejected), so the shuffles
// are exactly uniform and the stream is the same with every standard library.
std::uint64_t uniform_below(SplitMix& rng, std::uint64_t n) {
  const std::uint64_t reject_below = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = rng.next();
    if (r >= reject_below) return r % n;
  }
}

// Pearson's sum over the used classes of (O - E)^2 / E for one shard. Observed and permuted tables
// go through this one function, so equal tables give bit-equal statistics.
double row_chi2(const Row& observed, const Expected& expected, const Row& columns) {
  double s = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    if (columns[k] == 0) continue;
    const double d = double(observed[k]) - expected[k];
    s += d * d / expected[k];
  }
  return s;
}

double table_chi2(const std::vector<Row>& rows, const std::vector<Expected>& expected,
                  const Row& columns) {
  double s = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) s += row_chi2(rows[i], expected[i], columns);
  return s;
}

// The pooled pair scores dealt at random to shards of the observed sizes, `permutations` times.
// A partial Fisher-Yates shuffle fixes positions N-1 down to n_0; shard s >= 1 gets the block of
// positions it held in the observed order, shard 0 keeps the first n_0 (the rest of the pool).
// The pool is not reset between permutations: a uniform shuffle of any order is uniform.
double permutation_p_value(const std::vector<Row>& rows, const std::vector<Expected>& expected,
                           const Row& columns, std::uint64_t total, double observed,
                           const HomogeneityOptions& o) {
  std::vector<std::uint8_t> pool;
  pool.reserve(total);
  for (std::size_t k = 0; k < 5; ++k) pool.insert(pool.end(), columns[k], std::uint8_t(k));
  std::vector<std::uint64_t> start(rows.size() + 1, 0);  // shard s holds [start[s], start[s+1])
  for (std::size_t s = 0; s < rows.size(); ++s) start[s + 1] = start[s] + row_total(rows[s]);

  // Ties (a permuted table equal to the observed one, or equal up to rounding) count as extreme.
  const double threshold = observed - 1e-9 * observed;
  SplitMix rng(o.seed);
  std::vector<Row> dealt(rows.size());
  std::uint64_t at_least = 0;
  for (std::uint64_t b = 0; b < o.permutations; ++b) {
    for (std::uint64_t i = total - 1; i >= start[1]; --i)
      std::swap(pool[i], pool[uniform_below(rng, i + 1)]);
    dealt[0] = columns;
    for (std::size_t s = 1; s < rows.size(); ++s) {
      dealt[s] = Row{};
      for (std::uint64_t p = start[s]; p < start[s + 1]; ++p) ++dealt[s][pool[p]];
      for (std::size_t k = 0; k < 5; ++k) dealt[0][k] -= dealt[s][k];
    }
    if (table_chi2(dealt, expected, columns) >= threshold) ++at_least;
  }
  return double(1 + at_least) / double(1 + o.permutations);
}

// P(a, x), the regularized lower incomplete gamma function, by its series (converges fast for x < a + 1).
double lower_gamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * std::numeric_limits<double>::epsilon()) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by its continued fraction, modified Lentz (converges fast for x >= a + 1).
double upper_gamma_fraction(double a, double x) {
  constexpr double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1) < std::numeric_limits<double>::epsilon()) break;
  }
  return h * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

}  // namespace

double chi_squared_survival(double x, int dof) {
  if (dof <= 0 || !(x > 0)) return 1;
  const double a = dof / 2.0, h = x / 2;
  return h < a + 1 ? 1 - lower_gamma_series(a, h) : upper_gamma_fraction(a, h);
}

HomogeneityResult homogeneity(const std::vector<LabelledShard>& shards,
                              const HomogeneityOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1))
    throw std::invalid_argument("homogeneity: alpha must be in (0, 1)");
  if (options.permutations < 1)
    throw std::invalid_argument("homogeneity: at least one permutation is needed");

  HomogeneityResult r;
  r.options = options;
  std::vector<Row> rows;
  for (const LabelledShard& s : shards) {
    if (s.counts.pairs() == 0) {
      r.excluded.push_back(s.label);
      continue;
    }
    rows.push_back(s.counts.n);
    r.pooled += s.counts;
    r.shards.push_back(ShardResidual{s.label, s.counts.pairs(), 0, 0, 0});
  }
  const Row& columns = r.pooled.n;
  const std::uint64_t total = r.pooled.pairs();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double sum = 0;
    for (std::size_t k = 0; k < 5; ++k) sum += double(k) * double(rows[i][k]);
    r.shards[i].mean_score = sum / (4.0 * double(r.shards[i].pairs));
  }
  r.applicable = rows.size() >= 2;
  if (!r.applicable) return r;

  double sum = 0, squares = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    r.categories += columns[k] > 0;
    sum += double(columns[k]) * (k / 4.0);
  }
  r.pooled_mean = sum / double(total);
  for (std::size_t k = 0; k < 5; ++k)
    squares += double(columns[k]) * (k / 4.0 - r.pooled_mean) * (k / 4.0 - r.pooled_mean);
  r.pooled_sd = std::sqrt(squares / double(total));

  std::vector<Expected> expected(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t k = 0; k < 5; ++k)
      expected[i][k] = double(r.shards[i].pairs) * double(columns[k]) / double(total);
    ShardResidual& s = r.shards[i];
    s.chi2_contribution = row_chi2(rows[i], expected[i], columns);
    if (r.pooled_sd > 0)
      s.residual = (s.mean_score - r.pooled_mean) / (r.pooled_sd / std::sqrt(double(s.pairs)));
    if (std::abs(s.residual) > (r.worst ? std::abs(r.shards[*r.worst].residual) : 0.0)) r.worst = i;
  }
  r.statistic = table_chi2(rows, expected, columns);
  r.dof = int(rows.size() - 1) * (r.categories - 1);
  r.asymptotic_p_value = chi_squared_survival(r.statistic, r.dof);
  r.p_value = permutation_p_value(rows, expected, columns, total, r.statistic, options);
  r.flagged = r.p_value < options.alpha;
  return r;
}

}  // namespace stk::harness::match
