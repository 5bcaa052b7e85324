// The shadow audit's gates over mechanism x remaining-depth bands: the raw miss rate
// (--max-rate, optional), the excess of the miss rate over its control (--max-excess), the
// control rate itself (--max-control), and the sensitivity gate (--require-excess: an audit whose
// miss searches equal their controls, e.g. one searching at the reduced depth, has no excess).
#pragma once

#include <string>
#include <vector>

#include "commands/shadow/shadow_counts.h"
#include "commands/shadow/shadow_stats.h"

namespace stk::harness::shadow {

// "[MECH:]BAND=VALUE" with BAND "LO-HI", "LO+" or "D" (remaining depth at the deciding node).
struct BandGate {
  std::string text;
  int mech = -1;  // -1: every mechanism
  int lo = 0, hi = kDepthCells - 1;
  double value = 1;
  bool covers(int m) const { return mech < 0 || mech == m; }
};
// Throws UsageError naming `option` on a malformed gate.
BandGate parse_band_gate(const std::string& option, const std::string& text);
// A mechanism name as the reports write it ("lmr", "null_move", ...); throws UsageError.
int parse_mechanism(const std::string& option, const std::string& name);

constexpr const char* kDefaultMaxExcess[] = {"1-3=0.3", "4-6=0.3", "7+=0.3"};
constexpr double kDefaultMaxControl = 0.01;

// The verdicts (true: the gate fails), shared by the harness and its tests.
// Excess gate: the excess's bootstrap lower bound above `max`, or decisions without a control.
bool excess_gate_fails(const Excess& e, double max);
// Control gate: the control rate's Wilson lower bound above `max`, or decisions without a control.
bool control_gate_fails(const Excess& e, double max);
// Sensitivity gate: the excess not significantly above 0 (bootstrap lower bound <= 0).
bool sensitivity_gate_fails(const Excess& e);

// Per-root-position counts of one mechanism over a depth band (decisions and their control).
std::vector<ClusterCounts> band_clusters(const std::vector<Counts>& per_position, Mechanism m,
                                         int lo, int hi);

}  // namespace stk::harness::shadow
