#include "all/tier_steps.h"

namespace stk::harness {

std::vector<Step> tier_steps(const StepContext& c) {
  const bool full = c.tier == "full";
  const std::string h = "'" + c.self + "'";
  const std::string out = " --out-dir '" + c.out_dir + "'";
  std::vector<Step> steps;
  // 1. perft: the project's golden set always; the shared 126-position suite in the full tier.
  steps.push_back({"perft-golden", h + " perft --config golden-" + c.tier +
                                       (full ? " --depth 6" : " --depth 5") + out});
  if (full)
    steps.push_back({"perft-suite", h + " perft --config perftsuite --depth 6 --epd '" + c.shared +
                                        "/suites/perftsuite.epd'" + out});
  // 8. bench: the search signature (cheap, so both tiers).
  steps.push_back({"bench", h + " bench --config " + c.tier + out});
  return steps;
}

}  // namespace stk::harness
