// The minimizer's contract (docs/reproducers.md "Minimizing") as properties on generated failure
// predicates: what it keeps still fails, removing any one kept item makes the failure go away,
// a failure caused by one set of items is cut down to exactly that set, and no candidate is tried
// twice or past the budget.
#include <algorithm>
#include <numeric>
#include <set>

#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "repro/ddmin.h"

using stk::harness::repro::ddmin;
using Items = std::vector<std::size_t>;

namespace {

bool contains_all(const Items& kept, const std::set<std::size_t>& needed) {
  return std::all_of(needed.begin(), needed.end(), [&](std::size_t i) {
    return std::find(kept.begin(), kept.end(), i) != kept.end();
  });
}

Items without_one(const Items& kept, std::size_t drop) {
  Items out = kept;
  out.erase(out.begin() + long(drop));
  return out;
}

}  // namespace

// MODEL repro-ddmin
// checks: harness/src/repro/ddmin.cpp  (delta debugging over a command list)
// contract: docs/reproducers.md#minimizing
// planted: ci/mutants/model-repro-ddmin.patch  (complements never tried: only halves shrink)
TEST_CASE("model: ddmin keeps a failing 1-minimal subsequence made of exactly the culprits",
          "[model][repro]") {
  rc::prop("a failure caused by a set of items shrinks to exactly that set", [] {
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, 400);
    const auto culprits = *rc::gen::container<std::set<std::size_t>>(
        *rc::gen::inRange<std::size_t>(1, 5), rc::gen::inRange<std::size_t>(0, n));
    std::vector<Items> tried;
    const auto r = ddmin(n, [&](const Items& kept) {
      tried.push_back(kept);
      return contains_all(kept, culprits);
    });
    RC_ASSERT(r.minimal);
    RC_ASSERT(r.kept == Items(culprits.begin(), culprits.end()));
    RC_ASSERT(tried.size() == r.trials.size());
    std::sort(tried.begin(), tried.end());
    RC_ASSERT(std::adjacent_find(tried.begin(), tried.end()) == tried.end());
  });
  rc::prop("any failure (items weighed against a threshold) ends 1-minimal and failing", [] {
    const auto weights = *rc::gen::nonEmpty(
        rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 10)));
    const int total = std::accumulate(weights.begin(), weights.end(), 0);
    const int threshold = *rc::gen::inRange(0, total + 1);
    // Fails while the kept items weigh at least the threshold and their count is odd (a
    // predicate that is not monotone: ddmin owes 1-minimality, not the smallest set).
    const bool odd_rule = *rc::gen::arbitrary<bool>();
    auto fails = [&](const Items& kept) {
      int w = 0;
      for (std::size_t i : kept) w += weights[i];
      return w >= threshold && (!odd_rule || kept.size() % 2 == 1 || kept.size() == weights.size());
    };
    const auto r = ddmin(weights.size(), fails);
    RC_ASSERT(std::is_sorted(r.kept.begin(), r.kept.end()));
    RC_ASSERT(r.kept.size() == weights.size() || fails(r.kept));
    if (!r.kept.empty() && r.kept.size() < weights.size())
      for (std::size_t drop = 0; drop < r.kept.size(); ++drop)
        RC_ASSERT(!fails(without_one(r.kept, drop)) || !r.minimal);
  });
  rc::prop("the trial budget is never exceeded, and the result still fails", [] {
    const std::size_t n = *rc::gen::inRange<std::size_t>(2, 300);
    const std::size_t culprit = *rc::gen::inRange<std::size_t>(0, n);
    const std::size_t budget = *rc::gen::inRange<std::size_t>(0, 12);
    const auto r = ddmin(
        n, [&](const Items& kept) { return contains_all(kept, {culprit}); }, budget);
    RC_ASSERT(r.trials.size() <= budget);
    RC_ASSERT(contains_all(r.kept, {culprit}));
  });
}
