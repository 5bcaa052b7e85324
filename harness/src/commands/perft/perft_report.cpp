#include "commands/perft/perft_report.h"

#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli_app.h"

namespace stk::harness::perft_harness {

void describe_suite(junit::TestSuite& suite, const CLI::App& app, const PerftSettings& s,
                    const UciProcess* reference) {
  suite.name = "perft." + s.config;
  for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
  suite.property("epd_files", fmt::format("{}", fmt::join(s.files, ",")));
  suite.property("max_depth", std::to_string(s.max_depth));
  suite.property("max_nodes",
                 s.max_nodes == std::uint64_t(-1) ? "unlimited" : std::to_string(s.max_nodes));
  suite.property("shard", s.shard.label());
  if (reference)
    suite.property("reference_engine", reference->name() + " (" + reference->path() + ")");
  suite.property("timeout_s", fmt::format("{}", s.timeout_s));
  suite.property("isolation", "each check in a child process (fork)");
  junit::add_build_properties(suite);
}

void finish_report(report::RunReport& run, RunTotals& totals) {
  junit::TestSuite& suite = run.suites.front();
  report::Json cases = report::Json::array();
  std::ostringstream md;
  md << "| position | depth | expected | actual | result |\n|---|---|---|---|---|\n";
  for (const CountRow& r : totals.rows) {
    if (!r.actual) {
      cases.push_back({{"id", r.id},
                       {"fen", r.fen},
                       {"depth", r.depth},
                       {"expected", r.expected},
                       {"actual", nullptr},
                       {"crashed", r.crashed},
                       {"passed", false}});
      md << "| " << r.id << " | " << r.depth << " | " << r.expected << " | - | **" << r.crashed
         << "** |\n";
      continue;
    }
    const std::uint64_t actual = *r.actual;
    cases.push_back({{"id", r.id},
                     {"fen", r.fen},
                     {"depth", r.depth},
                     {"expected", r.expected},
                     {"actual", actual},
                     {"passed", actual == r.expected}});
    md << "| " << r.id << " | " << r.depth << " | " << r.expected << " | " << actual << " | "
       << (actual == r.expected ? "ok" : "**MISMATCH**") << " |\n";
  }
  const std::uint64_t total_nodes = totals.total_nodes;
  double nps = totals.total_time > 0 ? double(total_nodes) / totals.total_time : 0;
  suite.property("total_nodes", std::to_string(total_nodes));
  suite.system_out = fmt::format("perft: {} checks, {} failed, {} nodes, {:.0f} nodes/s\n",
                                 suite.cases.size(), totals.failures, total_nodes, nps);
  run.figures["cases"] = std::move(cases);
  run.figures["checks"] = suite.cases.size();
  run.figures["failed"] = totals.failures;
  run.figures["total_nodes"] = total_nodes;
  run.figures["nodes_per_second"] = std::uint64_t(nps);
  md << "\n" << suite.system_out;
  run.markdown = md.str();
}

}  // namespace stk::harness::perft_harness
