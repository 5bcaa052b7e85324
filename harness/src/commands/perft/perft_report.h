// The perft command's report: the suite's properties, then the figures (one entry per count
// check, the totals), the Markdown table and the console summary.
#pragma once

#include "cli/cli_fwd.h"

#include "commands/perft/perft_run.h"
#include "commands/perft/perft_settings.h"
#include "report/run_report.h"
#include "uci_client/uci_process.h"

namespace stk::harness::perft_harness {

// The suite's name and properties: the options as given and what the run resolved them to.
void describe_suite(junit::TestSuite& suite, const CLI::App& app, const PerftSettings& s,
                    const UciProcess* reference);

// Sets the suite's total_nodes and summary (system_out), and the figures and Markdown of `run`,
// whose one suite holds the checks.
void finish_report(report::RunReport& run, RunTotals& totals);

}  // namespace stk::harness::perft_harness
