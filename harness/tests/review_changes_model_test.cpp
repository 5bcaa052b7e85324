// Independent model of "what changed" (docs/review.md#what-changed): generated histories and
// figures of both noise kinds and directions, the comparison against a model of the documented
// rule (previous run = the latest other run; exact figures: any change; timings: beyond twice the
// sample standard deviation of the last 10 values of this machine up to the compared run, unknown
// below 3 or when the compared run is of another machine).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commands/review/review_changes.h"

namespace review_changes_model_test {

using namespace stk::harness::review;

struct Expect {
  bool compared = false, beyond = false;
  int direction = 0;
};

struct ModelRun {
  std::map<std::string, double> figures;
  bool here = true;  // run on this machine
};

Expect model(const std::vector<ModelRun>& runs, const Figure& f) {
  Expect e;
  if (runs.empty() || !runs.back().figures.count(f.key)) return e;
  e.compared = true;
  const double was = runs.back().figures.at(f.key), delta = f.value - was;
  const bool moved = std::abs(delta) > 1e-9 * std::max({1.0, std::abs(f.value), std::abs(was)});
  if (f.noise == Noise::exact) {
    e.beyond = moved;
  } else if (runs.back().here) {  // timings only against this machine's runs
    std::vector<double> xs;
    for (auto it = runs.rbegin(); it != runs.rend() && xs.size() < 10; ++it)
      if (it->here && it->figures.count(f.key)) xs.push_back(it->figures.at(f.key));
    if (xs.size() >= 3) {
      double mean = 0, ss = 0;
      for (double x : xs) mean += x / double(xs.size());
      for (double x : xs) ss += (x - mean) * (x - mean);
      e.beyond = std::abs(delta) > 2 * std::sqrt(ss / double(xs.size() - 1));
    }
  }
  if (moved && f.better != Better::either)
    e.direction = (delta > 0) == (f.better == Better::higher) ? 1 : -1;
  return e;
}

// MODEL review-changes
// checks: harness/src/commands/review/review_changes.cpp  (which figures changed beyond their noise since the previous run, and which way)
// contract: docs/review.md#what-changed
// planted: ci/mutants/model-review-changes.patch  (timing noise of one standard deviation, not two)
TEST_CASE("what changed equals a model of the documented noise rule", "[model][review]") {
  rc::prop("generated histories", [] {
    const std::vector<std::string> keys = {"a.x.t", "a.x.e", "b.y.t"};
    const int n = *rc::gen::inRange(0, 14);
    std::vector<HistoryRow> rows;
    std::vector<ModelRun> runs;
    const auto value = rc::gen::map(rc::gen::inRange(-40, 40), [](int v) { return 100.0 + v; });
    const RunFacts here{"rev", "d", "quick", "cpu", 2};
    for (int r = 0; r < n; ++r) {
      ModelRun run;
      for (const std::string& k : keys)
        if (*rc::gen::inRange(0, 5) > 0) run.figures[k] = *value;
      run.here = *rc::gen::inRange(0, 4) > 0;  // now and then another machine (or core count)
      RunFacts facts = here;
      if (!run.here) {
        if (*rc::gen::arbitrary<bool>()) facts.cpu_model = "other";
        else facts.cores = 16;
      }
      for (const auto& [k, v] : run.figures) rows.push_back({r + 1, facts, k, v});
      runs.push_back(run);
    }
    // This run is sometimes already in the history (stk-harness all appends it first).
    const bool recorded = n > 0 && *rc::gen::arbitrary<bool>();
    std::vector<Figure> now;
    for (const std::string& k : keys) {
      Figure f;
      f.key = k;
      f.value = *value;
      f.noise = k.ends_with(".t") ? Noise::timing : Noise::exact;
      f.better = *rc::gen::element(Better::either, Better::higher, Better::lower);
      now.push_back(f);
    }
    const Comparison c = compare_with_history(now, rows,
                                              recorded ? std::optional<long long>(n) : std::nullopt,
                                              here);
    if (recorded) runs.pop_back();
    while (!runs.empty() && runs.back().figures.empty()) runs.pop_back();  // no rows: no run
    RC_ASSERT(c.changes.size() == now.size());
    for (std::size_t i = 0; i < now.size(); ++i) {
      const Expect e = model(runs, now[i]);
      RC_ASSERT(c.changes[i].earlier.has_value() == e.compared);
      RC_ASSERT(c.changes[i].beyond_noise == e.beyond);
      RC_ASSERT(c.changes[i].direction == e.direction);
    }
  });
}

}  // namespace review_changes_model_test
