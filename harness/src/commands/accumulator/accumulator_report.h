// The accumulator command's report: the suite's properties, then the figures (one entry per
// check with its facts), the Markdown table and the console summary.
#pragma once

#include "cli/cli_fwd.h"

#include "commands/accumulator/accumulator_run.h"
#include "commands/accumulator/accumulator_settings.h"
#include "report/run_report.h"

namespace stk::harness::accumulator {

// The suite's name and properties: the options as given and the nets they resolved to.
void describe_suite(junit::TestSuite& suite, const CLI::App& app, const AccumulatorSettings& s,
                    const CheckedNets& nets);

// Sets the suite's summary (system_out), the figures and the Markdown body of `run`, whose one
// suite holds the checks; prints each failed check to stderr.
void finish_report(report::RunReport& run, const AccumulatorSettings& s, const CheckedNets& nets,
                   const RunTotals& totals);

}  // namespace stk::harness::accumulator
