// What changed: every headline figure of this run against an earlier run in the history (the
// previous one, or the base revision's), with the way it moved and whether it moved by more than
// its noise (docs/review.md#what-changed).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/history/history.h"
#include "commands/review/review_inputs.h"

namespace stk::harness::review {

struct Change {
  Figure figure;                  // this run's
  std::optional<double> earlier;  // the earlier run's value; nullopt: the figure is new
  double delta = 0.0;             // figure.value - *earlier
  std::optional<double> noise;    // how far it moves by itself; nullopt: unknown (too few runs)
  bool beyond_noise = false;      // |delta| exceeds the noise (exact figures: any change)
  int direction = 0;              // +1 better, -1 worse, 0 neither way (or unchanged)
};

struct Comparison {
  std::string against;              // "previous run" or "base revision <rev>"
  std::optional<long long> run_id;  // the earlier run; nullopt: none in the history
  RunFacts run;
  std::vector<Change> changes;  // one per figure of this run, in figure order

  // Changes beyond noise, worse first, then better, then either way; figure order within each.
  std::vector<const Change*> notable() const;
  int worse() const;
};

// Timing noise: twice the sample standard deviation of the figure over the earlier runs (the last
// kNoiseRuns before the compared one, itself included); unknown below kMinNoiseRuns values.
inline constexpr int kNoiseRuns = 10;
inline constexpr int kMinNoiseRuns = 3;

// Compares `figures` with the latest run in `rows` other than `exclude_run` (this run, when the
// history already holds it) or, given `base_revision`, the latest run of that revision (a hash or its 12-digit prefix;
// a dirty tree's run is of its revision too).
// A timing is compared only with runs of this machine (`here`: CPU model and cores): another
// machine's nodes/s says nothing about this change, so its noise is unknown and it is not listed.
Comparison compare_with_history(const std::vector<Figure>& figures,
                                const std::vector<HistoryRow>& rows,
                                std::optional<long long> exclude_run, const RunFacts& here,
                                const std::string& base_revision = "");

}  // namespace stk::harness::review
