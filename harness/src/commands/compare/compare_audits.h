// compare --audits: each side's own stk-harness runs the shadow audit and the fail-high collection
// (judged by stktrain.calibration against that side's own built-in model); the miss rate of each
// mechanism and the firing rate of each predictor decision are put side by side as deltas.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "commands/compare/compare_side.h"

namespace stk::harness::compare {

struct AuditSettings {
  std::string epd_file;
  int stride = 20;  // every S-th suite position
  int depth = 7;    // shadow depth; the collection runs at depth+1 with full depth = depth
};

// {"base": {...}, "candidate": {...}, "rows": [{what, base, candidate, delta}], "cases": [{name,
// facts}]}. Throws InputError naming the side and the command when a run fails or its output is
// not understood.
// Why a side's predictor firing rates cannot be measured, "" when they can: its own stk-harness
// has no fhcollect, or its tree no built-in fail-high model (a revision older than the predictor).
std::string firing_unavailable_reason(const Side& s);

nlohmann::json run_audits(const Side& base, const Side& candidate, const AuditSettings& settings,
                          const std::string& runs_dir);

}  // namespace stk::harness::compare
