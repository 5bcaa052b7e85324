// The ordered list of harness runs that make up each tier.
#pragma once

#include <string>
#include <vector>

namespace stk::harness {

struct StepContext {
  std::string tier;           // "quick", "full" or "premerge"
  std::string out_dir;        // reports root
  std::string self;           // path of this stk-harness binary
  std::string shared;         // shared data root (suites, schemas)
  std::string base{};         // premerge: the base revision as given (--base)
  std::string base_commit{};  // premerge: its full commit
  int max_regressions =
      25;  // premerge: the compare gate, ECM positions lost at each budget (of 220)
};

struct Step {
  std::string name;
  std::string command;               // a shell command line
  std::vector<std::string> reports;  // the JUnit files it must write (stk-harness all checks them)
};

std::vector<Step> tier_steps(const StepContext& ctx);
// The premerge tier (all/premerge_steps.cpp): compare base vs the working tree's build, then a
// non-regression match between them.
std::vector<Step> premerge_steps(const StepContext& ctx);

}  // namespace stk::harness
