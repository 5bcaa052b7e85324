// The reproducer bundles of a uci-check run (docs/reproducers.md): one per failed scenario, under
// <out-dir>/repro/uci-check-<config>-<scenario>/. A failure a replay of its commands shows again
// (a crash, an illegal bestmove, no answer) is minimized to the shortest commands that show it;
// any other (a PV past mate, a node limit overshot) is a scenario bundle, whose replay runs the
// scenario again.
#pragma once

#include <string>
#include <vector>

#include "commands/uci-check/check_settings.h"
#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

// Writes them and prints where each is; returns how many were written.
int leave_reproducers(const std::vector<ScenarioResult>& results, const Settings& settings,
                      const std::string& out_dir, const std::string& config);

}  // namespace stk::harness::ucicheck
