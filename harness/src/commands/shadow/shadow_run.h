// The shadow command's run: every selected position searched plainly and with the audit (the
// invariant testcases), the misses classified, and what the report derives from the totals.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "commands/shadow/shadow_audit.h"
#include "commands/shadow/shadow_settings.h"
#include "commands/shadow/shadow_stats.h"
#include "positions/epd_suite.h"
#include "report/junit.h"

namespace stk::harness::shadow {

// Everything one run saw, summed and per root position (the bootstrap's clusters).
struct RunTotals {
  Counts counts{};
  std::vector<Counts> per_position;
  std::vector<Miss> misses, control_hits;
  std::vector<DepthMismatch> depth_mismatches;
  std::uint64_t real_nodes = 0, plain_nodes = 0, shadow_nodes = 0, control_nodes = 0;
  std::size_t journal_peak = 0;
  double audit_time = 0, plain_time = 0;
  int invariant_failures = 0;
  std::vector<std::pair<std::string, std::size_t>> misses_per_position;
};

// Figures computed once from the totals, used by the summary, the gates and the console.
struct RunFigures {
  double nps_off = 0, nps_on = 0, nps_on_all = 0;
  double classify_time = 0;
  std::map<std::string, std::map<std::string, int>> verdicts;  // mech -> verdict -> count
  ArtifactShare art;
  std::uint64_t mismatches = 0;  // shadow roots entered at another depth than recomputed
};

// The positions the settings select: every stride-th, then this shard's share.
std::vector<const epd::EpdPosition*> select_positions(const std::vector<epd::EpdPosition>& all,
                                                      const ShadowSettings& s);

// Searches each position plainly and with the audit; one invariant testcase per position is
// added to `suite`; a line per position unless quiet.
RunTotals audit_positions(const std::vector<const epd::EpdPosition*>& todo, const ShadowSettings& s,
                          junit::TestSuite& suite);

// Classifies a depth-aware sample of the misses (open-window re-searches) and derives the figures.
RunFigures classify_and_measure(RunTotals& t, const ShadowSettings& s);

// The miss-minus-control excess of mechanism m over remaining depths lo..hi.
Excess band_excess(const RunTotals& t, const BootstrapSettings& boot, Mechanism m, int lo, int hi);

}  // namespace stk::harness::shadow
