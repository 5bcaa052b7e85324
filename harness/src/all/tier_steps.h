// The ordered list of harness runs that make up each tier.
#pragma once

#include <string>
#include <vector>

namespace stk::harness {

struct StepContext {
  std::string tier;     // "quick" or "full"
  std::string out_dir;  // reports root
  std::string self;     // path of this stk-harness binary
  std::string shared;   // shared data root (suites, schemas)
};

struct Step {
  std::string name;
  std::string command;               // a shell command line
  std::vector<std::string> reports;  // the JUnit files it must write (stk-harness all checks them)
};

std::vector<Step> tier_steps(const StepContext& ctx);

}  // namespace stk::harness
