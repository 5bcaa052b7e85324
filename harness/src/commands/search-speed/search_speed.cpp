// stk-harness search-speed: our search nodes/s against a reference UCI engine's on the bench
// positions, side by side in one run (both single-threaded, same hash, fixed node budget per
// position). A measurement to record, not a gate: its report holds one passing testcase.
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench.h"
#include "nnue/network.h"
#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "position.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "search/search.h"
#include "uci_client/uci_process.h"
#include "common/counts.h"

namespace stk::harness {

namespace {

// Both engines' nodes and seconds summed over the bench positions.
struct SpeedTotals {
  double our_time = 0, ref_time = 0;
  std::uint64_t our_nodes = 0, ref_nodes = 0;
};

// Single-threaded, --hash MB, then each --option NAME=VALUE (UsageError when one has no '=').
void configure_reference(UciProcess& ref, int hash, const std::vector<std::string>& options) {
  ref.set_option("Threads", "1");
  ref.set_option("Hash", std::to_string(hash));
  for (const auto& o : options) {
    auto eq = o.find('=');
    if (eq == std::string::npos) throw UsageError("--option must be NAME=VALUE, got '" + o + "'");
    ref.set_option(o.substr(0, eq), o.substr(eq + 1));
  }
}

// Searches every bench position with both engines at `nodes` nodes each, fresh state per position.
SpeedTotals search_both(search::Searcher& ours, UciProcess& ref, std::uint64_t nodes) {
  SpeedTotals t;
  for (const std::string& fen : bench_positions()) {
    Position pos;
    pos.set(fen);
    ours.clear();
    search::Limits l;
    l.nodes = nodes;
    auto r = ours.go(pos, l);
    t.our_time += r.time_s;
    t.our_nodes += r.nodes;

    ref.send("ucinewgame");
    ref.send("position fen " + fen);
    ref.sync();
    auto t0 = std::chrono::steady_clock::now();
    ref.send("go nodes " + std::to_string(nodes));
    std::optional<std::uint64_t> searched;  // the last "info ... nodes N" before bestmove
    for (const auto& line :
         ref.read_until([](const std::string& s) { return s.starts_with("bestmove"); },
                        std::chrono::seconds(600))) {
      auto p = line.find(" nodes ");
      if (line.starts_with("info") && p != std::string::npos) {
        const std::string_view rest = std::string_view(line).substr(p + 7);
        if (auto n = parse_count(rest.substr(0, rest.find(' ')))) searched = *n;
      }
    }
    // Without a node count the reference's nodes/s is unknown: no ratio is better than 0 or inf.
    if (!searched)
      throw InputError(fmt::format("reference {}: no 'info ... nodes N' line before bestmove on {}",
                                   ref.name(), fen));
    t.ref_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.ref_nodes += *searched;
  }
  return t;
}

}  // namespace

int run_search_speed(int argc, char** argv) {
  CLI::App app{
      "Our search nodes/s against a reference UCI engine's on the bench positions (both single-threaded,\n"
      "same hash, fixed nodes per position). Without --net: our classical eval vs the reference with\n"
      "--option 'Use NNUE=false'; with --net: our NNUE (that network) vs the reference's default NNUE.\n"
      "A measurement, not a gate. Report: reports/junit/search-speed-CONFIG.xml,\n"
      "reports/search-speed/CONFIG.{json,md}.",
      "stk-harness search-speed"};
  std::string ref_path = "/usr/games/stockfish", net_file, config = "default", out_dir = "reports";
  std::uint64_t nodes = 1000000;
  int hash = 16;
  std::vector<std::string> options;
  app.add_option("--reference", ref_path,
                 "the reference UCI engine: a path or CMD ARGS (docs/uci.md)")
      ->check(engine_command_check())
      ->capture_default_str();
  app.add_option("--nodes", nodes, "nodes per bench position")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_option("--hash", hash, "hash MB, both engines")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--option", options, "NAME=VALUE for the reference (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--net", net_file, "our NNUE network (default: our classical evaluation)");
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  if (auto status = parse_cli_or_report(app, argc, argv,
                                        declare_given_junit(app, "search-speed", "default")))
    return *status;
  try {
    const report::ReportPaths paths = report::report_paths(out_dir, "search-speed", config);
    declare_report(paths, "search-speed." + config);
    const bool nnue = !net_file.empty();
    if (options.empty() && !nnue) options.push_back("Use NNUE=false");
    std::shared_ptr<const nnue::Network> net;
    if (nnue) {
      std::string error;
      net = nnue::Network::load(net_file, false, &error);
      if (!net) throw InputError(error);
    }
    UciProcess ref(ref_path);
    configure_reference(ref, hash, options);
    search::Options so;
    so.hash_mb = std::size_t(hash);
    so.use_nnue = nnue;
    so.network = net;
    search::Searcher ours(so);
    const SpeedTotals t = search_both(ours, ref, nodes);
    const double our_time = t.our_time, ref_time = t.ref_time;
    const std::uint64_t our_nodes = t.our_nodes, ref_nodes = t.ref_nodes;
    const double a = our_nodes / our_time, b = ref_nodes / ref_time;
    const std::string options_text = options.empty() ? "defaults"
                                                     : fmt::format("{}", fmt::join(options, ", "));
    const std::string evaluation = nnue ? "NNUE " + net_file : std::string("classical");
    std::string table = fmt::format("reference: {} ({}), options: {}\nstk evaluation: {}\n",
                                    ref.name(), ref_path, options_text, evaluation);
    table += fmt::format("{:<10} {:>12} {:>9} {:>12}\n", "engine", "nodes", "time s", "nodes/s");
    table += fmt::format("{:<10} {:>12} {:>9.2f} {:>12.0f}\n", "stk", our_nodes, our_time, a);
    table += fmt::format("{:<10} {:>12} {:>9.2f} {:>12.0f}\n", "reference", ref_nodes, ref_time, b);
    table += fmt::format("speed ratio stk/reference (nodes/s): {:.2f}x (above 1.0 means faster)\n",
                         a / b);
    std::cout << table;

    // A measurement: one passing testcase that records it.
    report::RunReport run{"search-speed", config};
    junit::TestSuite& suite = run.suites.emplace_back();
    suite.name = "search-speed." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("reference", ref.name());
    suite.property("reference_options", options_text);
    suite.property("stk_evaluation", evaluation);
    suite.property("nodes_per_position", std::to_string(nodes));
    junit::add_build_properties(suite);
    junit::TestCase tc;
    tc.classname = "search-speed.bench";
    tc.name = "stk vs reference nodes/s";
    tc.time_s = our_time + ref_time;
    tc.facts = {{"stk_nodes_per_second", fmt::format("{:.0f}", a)},
                {"reference_nodes_per_second", fmt::format("{:.0f}", b)},
                {"ratio", fmt::format("{:.3f}", a / b)}};
    tc.system_out = table;
    suite.cases.push_back(tc);
    suite.time_s = tc.time_s;
    run.figures["reference"] = ref.name();
    run.figures["reference_options"] = options;
    run.figures["stk_evaluation"] = evaluation;
    run.figures["nodes_per_position"] = nodes;
    run.figures["stk"] = {{"nodes", our_nodes},
                          {"time_s", our_time},
                          {"nodes_per_second", std::llround(a)}};
    run.figures["reference_run"] = {{"nodes", ref_nodes},
                                    {"time_s", ref_time},
                                    {"nodes_per_second", std::llround(b)}};
    run.figures["speed_ratio"] = a / b;
    run.markdown = "```\n" + table + "```\n";
    report::write_run_report(run, paths);
    std::cout << "report: " << paths.junit << "\n";
    return 0;
  } catch (...) {
    return input_failure("stk-harness search-speed", app.help().c_str());
  }
}

}  // namespace stk::harness
