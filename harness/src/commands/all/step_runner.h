// Runs one step of a tier and judges it from its exit status AND the reports it owes.
#pragma once

#include <string>
#include <vector>

#include "commands/all/tier_steps.h"
#include "report/junit.h"

namespace stk::harness {

// The steps --only names, in tier order; throws UsageError naming an unknown name and the known ones.
std::vector<Step> select_steps(const std::vector<Step>& steps,
                               const std::vector<std::string>& only);

// Removes the step's reports, runs its commands (argument vectors, no shell), then reads the
// reports back. Passed
// only when it exits 0 and every report exists and records no failure or error; Failed when it
// exits 1 and a report records a failure; anything else (exit 2, a crash, a missing or
// unparsable report, a report contradicting the exit status) is an Error saying which.
junit::TestCase run_step(const Step& step, const std::string& classname);

}  // namespace stk::harness
