// stk-harness bench: the search signature. The node count of the fixed bench (engine/src/bench.cpp)
// must equal golden/bench.txt; a deliberate change is recorded with --update-golden, which
// prints the old and new values (CI never passes it).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench.h"
#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

constexpr long long kMaxSignatureDepth = 64;

struct Signature {
  int depth = 0;
  std::uint64_t nodes = 0;
};

Signature read_signature(const std::string& path) {
  Signature s;
  auto lines = read_lines(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::istringstream in(lines[i]);
    std::string key;
    if (!(in >> key) || key[0] == '#') continue;
    long long v = -1;
    std::string extra;
    const std::string where = path + ":" + std::to_string(i + 1) + ": ";
    if (!(in >> v) || v < 0 || (in >> extra) || (key != "depth" && key != "nodes"))
      throw InputError(where + "expected 'depth N' or 'nodes N', got '" + lines[i] + "'");
    // The depths --depth accepts (a larger one would never finish; an int cast would wrap it).
    if (key == "depth" && (v < 1 || v > kMaxSignatureDepth))
      throw InputError(where + "depth " + std::to_string(v) + " outside [1, " +
                       std::to_string(kMaxSignatureDepth) + "]");
    if (key == "nodes" && v < 1) throw InputError(where + "nodes must be at least 1, got 0");
    if (key == "depth") s.depth = int(v);
    else s.nodes = std::uint64_t(v);
  }
  if (s.depth <= 0 || s.nodes == 0)
    throw InputError(path + ": needs both 'depth N' and 'nodes N' lines");
  return s;
}

}  // namespace

int run_bench_harness(int argc, char** argv) {
  CLI::App app{
      "The search signature: the node count of the fixed bench (engine/src/bench.cpp) must equal\n"
      "golden/bench.txt. Report: reports/junit/bench-CONFIG.xml, reports/bench/CONFIG.{json,md}.",
      "stk-harness bench"};
  std::string golden = "golden/bench.txt", config = "default", out_dir = "reports";
  int depth_option = 0;
  bool update = false;
  app.add_option("--golden", golden, "signature file ('depth D' and 'nodes N' lines)")
      ->capture_default_str();
  app.add_option("--depth", depth_option, "bench depth (default: the golden file's depth)")
      ->check(CLI::Range(1, int(kMaxSignatureDepth)));
  app.add_flag("--update-golden", update,
               "record this run's signature in --golden (CI never passes it)");
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  const auto declare_owed = declare_given_junit(app, "bench", "default");
  auto declare = [&] {  // --update-golden writes no report
    if (app.count("--update-golden") == 0) declare_owed();
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare)) return *status;
  try {
    const report::ReportPaths paths = report::report_paths(out_dir, "bench", config);
    if (!update) declare_report(paths, "bench." + config);  // --update-golden writes no report
    Signature expected;
    if (!update || ::access(golden.c_str(), F_OK) == 0) expected = read_signature(golden);
    const int depth = depth_option     ? depth_option
                      : expected.depth ? expected.depth
                                       : kBenchDefaultDepth;

    BenchResult r = run_bench(depth);
    double nps = r.time_s > 0 ? double(r.nodes) / r.time_s : 0;
    std::cout << fmt::format("bench depth {}: {} nodes, {:.0f} nodes/s\n", depth, r.nodes, nps);

    if (update) {
      if (expected.nodes == r.nodes && expected.depth == depth) {
        std::cout << golden << ": unchanged\n";
      } else {
        write_text_file(
            golden,
            fmt::format(
                "# stk bench signature: total nodes of `stk bench {}` (engine/src/bench.cpp)\n"
                "depth {}\nnodes {}\n",
                depth, depth, r.nodes));
        std::cout << fmt::format("{}: updated\n- depth {}\n- nodes {}\n+ depth {}\n+ nodes {}\n",
                                 golden, expected.depth, expected.nodes, depth, r.nodes);
      }
      return 0;
    }

    report::RunReport run{"bench", config};
    junit::TestSuite& suite = run.suites.emplace_back();
    suite.name = "bench." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("golden_file", golden);
    suite.property("depth", std::to_string(depth));
    junit::add_build_properties(suite);
    junit::TestCase tc;
    tc.classname = "bench.signature";
    tc.name = fmt::format("bench depth {}", depth);
    tc.time_s = r.time_s;
    tc.facts = {{"expected_nodes", std::to_string(expected.nodes)},
                {"actual_nodes", std::to_string(r.nodes)},
                {"nodes_per_second", fmt::format("{:.0f}", nps)}};
    bool ok = depth == expected.depth && r.nodes == expected.nodes;
    if (!ok) {
      tc.outcome = junit::Outcome::Failed;
      tc.message = depth != expected.depth
                       ? fmt::format("golden signature is for depth {}, ran depth {}",
                                     expected.depth, depth)
                       : fmt::format("bench signature changed: expected {} nodes, got {}",
                                     expected.nodes, r.nodes);
      tc.detail =
          tc.message +
          "\nA search or evaluation change alters the signature. If the change is deliberate, run\n"
          "  stk-harness bench --update-golden\nand commit golden/bench.txt saying why.";
      std::cerr << "bench: " << tc.message << "\n";
    }
    std::string per_position;
    for (std::size_t i = 0; i < r.nodes_per_position.size(); ++i)
      per_position += fmt::format("position {:2}: {}\n", i + 1, r.nodes_per_position[i]);
    tc.system_out = per_position;
    suite.cases.push_back(tc);
    suite.time_s = r.time_s;
    run.figures["depth"] = depth;
    run.figures["expected_nodes"] = expected.nodes;
    run.figures["nodes"] = r.nodes;
    run.figures["passed"] = ok;
    run.figures["nodes_per_second"] = std::llround(nps);
    run.markdown = fmt::format(
        "| depth | expected | actual | result |\n|---|---|---|---|\n| {} | {} | {} | {} |\n\n"
        "{:.0f} nodes/s\n",
        depth, expected.nodes, r.nodes, ok ? "ok" : "**CHANGED**", nps);
    report::write_run_report(run, paths);
    std::cout << "report: " << paths.junit << "\n";
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness bench", app.help().c_str());
  }
}

}  // namespace stk::harness
