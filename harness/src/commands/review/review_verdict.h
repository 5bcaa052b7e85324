// The verdict a reviewer reads first: one line per tier step (its outcome and the figure it turns
// on) and the overall verdict above them, failures and errors first (docs/review.md#verdict).
#pragma once

#include <string>
#include <vector>

#include "commands/review/review_inputs.h"

namespace stk::harness::review {

struct StepLine {
  std::string name;      // the tier step ("perft-golden"), else the run ("perft.golden-quick")
  std::string outcome;   // "passed", "failure", "error", "skipped" or "problem" (unreadable input)
  std::string decisive;  // the figure the outcome turns on, in words
  const RunRow* run = nullptr;      // its JUnit file's row, when found (the last a step names)
  std::vector<const RunRow*> runs;  // every JUnit file the step names
};

struct Verdict {
  std::string overall;          // "failed", "error" or "passed"
  std::vector<StepLine> steps;  // failures, errors and problems first, then in tier order
  int count(const std::string& outcome) const;
};

// From the tier's own JUnit file (all-<tier>.xml: one testcase per step naming its reports) when
// there is one, else one line per JUnit file.
Verdict verdict_of(const ReviewData& data);

// The figure a run's verdict turns on, in words ("0 of 96 counts differ from golden").
std::string decisive_figure(const RunRow& run);

// A run's outcome from its JUnit counts and input problems: "error", "failure", "problem",
// "skipped" (every testcase skipped) or "passed".
std::string run_outcome(const RunRow& run);

// The run's figure "<harness>.<config>.<name>", or nullptr.
const Figure* find_figure(const RunRow& run, const std::string& name);

}  // namespace stk::harness::review
