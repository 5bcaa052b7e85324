// The shadow command's report: the summary figures (key names in docs/harnesses/shadow.md), the
// gate testcases, the top misses, the sidecar files (-misses.jsonl, -control-hits.jsonl), the
// rate plot and the Markdown page, all into one report::RunReport.
#pragma once

#include <cstddef>

#include "commands/shadow/shadow_run.h"
#include "commands/shadow/shadow_settings.h"
#include "report/run_report.h"

namespace stk::harness::shadow {

// Builds the report; `suite` holds the invariant testcases and the run's properties. Writes the
// sidecar files and the plot beside the summary named by `paths`.
report::RunReport build_shadow_report(const ShadowSettings& s, std::size_t positions, RunTotals& t,
                                      const RunFigures& f, junit::TestSuite suite,
                                      const report::ReportPaths& paths);

// The console summary: counts, per-mechanism rates, nodes/s.
void print_shadow_summary(const ShadowSettings& s, std::size_t positions, const RunTotals& t,
                          const RunFigures& f, const report::ReportPaths& paths);

}  // namespace stk::harness::shadow
