// The harnesses' shared statistics against hand-computed and published values.
#include <catch2/catch.hpp>

#include "stats/wilson.h"

namespace stats = stk::harness;  // qualified: a unity batch may name another wilson

TEST_CASE("Wilson score interval: published and hand-computed values", "[stats]") {
  using Catch::Detail::Approx;
  // Newcombe (1998), Statistics in Medicine 17:857-872, worked examples of the Wilson score
  // method without continuity correction.
  struct Case {
    std::uint64_t k, n;
    double lo, hi;
  };
  for (Case c : {Case{81, 263, 0.2553, 0.3662}, Case{15, 148, 0.0624, 0.1605},
                 Case{0, 20, 0.0, 0.1611}, Case{1, 29, 0.0061, 0.1718}}) {
    INFO(c.k << "/" << c.n);
    auto [lo, hi] = stats::wilson(c.k, c.n);
    CHECK(lo == Approx(c.lo).margin(5e-5));
    CHECK(hi == Approx(c.hi).margin(5e-5));
  }
  // By hand: symmetric around 1/2; at k = 0 the upper bound is z^2 / (n + z^2), at k = n the
  // lower bound is n / (n + z^2).
  auto [lo, hi] = stats::wilson(50, 100);
  CHECK(lo == Approx(0.40383).margin(1e-5));
  CHECK(hi == Approx(0.59617).margin(1e-5));
  CHECK(stats::wilson(0, 200).first == 0.0);
  CHECK(stats::wilson(0, 200).second == Approx(1.96 * 1.96 / (200 + 1.96 * 1.96)));
  CHECK(stats::wilson(10, 10).first == Approx(10 / (10 + 1.96 * 1.96)));
  CHECK(stats::wilson(10, 10).second == 1.0);
  CHECK(stats::wilson(0, 0) == std::pair<double, double>{0.0, 1.0});
  // The interval always holds the observed rate and narrows as n grows.
  for (std::uint64_t n : {1, 7, 100, 100000})
    for (std::uint64_t k = 0; k <= n; k += 1 + n / 13) {
      auto [l, h] = stats::wilson(k, n);
      CHECK(l <= double(k) / double(n));
      CHECK(h >= double(k) / double(n));
    }
  CHECK(stats::wilson(300, 1000).second - stats::wilson(300, 1000).first <
        stats::wilson(30, 100).second - stats::wilson(30, 100).first);
}
