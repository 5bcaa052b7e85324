// stk-harness perft-speed: our perft speed as a ratio of a reference engine's "go perft" speed,
// measured side by side in one run (alternating, --repeat runs each). The ratio is a measurement
// to record, not a gate, since timings depend on the machine and its load; the node counts of the
// two engines must agree (that is a gate).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "perft.h"
#include "position.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "uci_client/uci_process.h"
#include "common/counts.h"

namespace stk::harness {

namespace {

struct Case {
  const char* name;
  const char* fen;
  int depth;
};
const Case kCases[] = {
    {"startpos", Position::kStartFen, 6},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
};

// Median and range of the per-repeat ratios: the median is the figure, the range its spread. The
// median of an even number of runs is the mean of the two middle ones (as compare's).
report::Json spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {{"median", median}, {"min", v.front()}, {"max", v.back()}};
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// "Nodes searched: N" of a "go perft" answer; 0 when absent.
std::uint64_t reference_nodes(const std::vector<std::string>& lines) {
  for (const std::string& l : lines)
    if (l.starts_with("Nodes searched")) {
      auto colon = l.find(':');
      if (colon == std::string::npos) return 0;
      return parse_count_field(std::string_view(l).substr(colon + 1)).value_or(0);
    }
  return 0;
}

// One position timed: both engines' node counts and seconds per repeat.
struct CaseTiming {
  std::vector<double> ours, theirs, ratios;
  std::uint64_t nodes = 0, ref_count = 0;
};

// Times `repeat` runs of each engine on one position, alternating; adds each repeat's seconds
// to sum_ours / sum_ref (the whole run's ratio per repeat).
CaseTiming time_case(UciProcess& ref, const Case& c, int depth, int repeat,
                     std::vector<double>& sum_ours, std::vector<double>& sum_ref) {
  CaseTiming t;
  auto& [ours, theirs, ratios, nodes, ref_count] = t;
  for (int i = 0; i < repeat; ++i) {
    Position pos;
    pos.set(c.fen);
    auto t0 = std::chrono::steady_clock::now();
    nodes = perft(pos, depth);
    ours.push_back(seconds_since(t0));
    ref.send(std::string("position fen ") + c.fen);
    ref.sync();
    t0 = std::chrono::steady_clock::now();
    ref.send("go perft " + std::to_string(depth));
    ref_count = reference_nodes(
        ref.read_until([](const std::string& l) { return l.starts_with("Nodes searched"); },
                       std::chrono::seconds(600)));
    theirs.push_back(seconds_since(t0));
    ratios.push_back(theirs.back() /
                     ours.back());  // equal nodes: nodes/s ratio = time ratio inverted
    sum_ours[std::size_t(i)] += ours.back();
    sum_ref[std::size_t(i)] += theirs.back();
  }
  return t;
}

// One position reported: a console line, a Markdown row, an entry of `positions`, and a testcase
// that fails when the node counts differ.
void report_case(const Case& c, int depth, const CaseTiming& t, std::ostringstream& md,
                 report::Json& positions, junit::TestSuite& suite) {
  const auto& [ours, theirs, ratios, nodes, ref_count] = t;
  const report::Json ratio = spread(ratios);
  const double a = spread(ours)["median"], b = spread(theirs)["median"];
  std::cout << fmt::format("{:<10} {:>5} {:>12} {:>10.3f} {:>10.3f} {:>9.2f}x\n", c.name, depth,
                           nodes, a, b, double(ratio["median"]));
  md << fmt::format("| {} | {} | {} | {:.3f} | {:.3f} | {:.2f} ({:.2f}..{:.2f}) |\n", c.name, depth,
                    nodes, a, b, double(ratio["median"]), double(ratio["min"]),
                    double(ratio["max"]));
  positions.push_back({{"name", c.name},
                       {"fen", c.fen},
                       {"depth", depth},
                       {"nodes", nodes},
                       {"reference_nodes", ref_count},
                       {"stk_seconds", spread(ours)},
                       {"reference_seconds", spread(theirs)},
                       {"nps_ratio", ratio}});
  junit::TestCase tc;
  tc.classname = "perft-speed.nodes";
  tc.name = fmt::format("{} d{}", c.name, depth);
  tc.time_s = std::accumulate(ours.begin(), ours.end(), 0.0) +
              std::accumulate(theirs.begin(), theirs.end(), 0.0);
  tc.facts = {{"nodes", std::to_string(nodes)},
              {"reference_nodes", std::to_string(ref_count)},
              {"nps_ratio_median", fmt::format("{:.3f}", double(ratio["median"]))}};
  if (ref_count != nodes) {
    tc.outcome = junit::Outcome::Failed;
    tc.message = fmt::format("stk counts {} nodes, the reference {}", nodes, ref_count);
    tc.detail = fmt::format("{}\nFEN: {}\ndepth {}: {}", c.name, c.fen, depth, tc.message);
    std::cerr << "perft-speed: " << tc.name << ": " << tc.message << "\n";
  }
  suite.cases.push_back(std::move(tc));
}

}  // namespace

int run_perft_speed(int argc, char** argv) {
  CLI::App app{
      "Perft speed of stk against a reference engine's 'go perft', timed alternately in one run: the\n"
      "nodes/s ratio stk/reference (median and range over --repeat runs) is recorded, not gated; both\n"
      "engines' node counts must agree.\n"
      "Report: reports/junit/perft-speed-CONFIG.xml, reports/perft-speed/CONFIG.{json,md}.",
      "stk-harness perft-speed"};
  std::string ref_path = "/usr/games/stockfish", config = "default", out_dir = "reports";
  int repeat = 3, max_depth = 0;
  app.add_option("--reference", ref_path,
                 "UCI engine answering 'go perft': a path or CMD ARGS (docs/uci.md)")
      ->check(engine_command_check())
      ->capture_default_str();
  app.add_option("--repeat", repeat, "timed runs per position and engine")
      ->check(CLI::Range(1, 50))
      ->capture_default_str();
  app.add_option("--max-depth", max_depth,
                 "cap every position's depth at N (0: startpos 6, kiwipete 5)")
      ->check(CLI::Range(0, 8));
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  auto declare_given = [&] {
    const std::string cfg = given_value(app, "--config", "default");
    declare_report(report::junit_path(given_value(app, "--out-dir", "reports"), "perft-speed", cfg),
                   "perft-speed." + cfg);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const report::ReportPaths paths = report::report_paths(out_dir, "perft-speed", config);
    declare_report(paths, "perft-speed." + config);
    UciProcess ref = [&] {
      try {
        return UciProcess(ref_path);
      } catch (const std::runtime_error& e) {
        throw InputError(e.what());
      }
    }();

    report::RunReport speed{"perft-speed", config};
    junit::TestSuite& suite = speed.suites.emplace_back();
    suite.name = "perft-speed." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("reference_engine", ref.name() + " (" + ref_path + ")");
    suite.property("repeat", std::to_string(repeat));
    junit::add_build_properties(suite);

    std::cout << fmt::format("reference: {} ({})\n{:<10} {:>5} {:>12} {:>10} {:>10} {:>10}\n",
                             ref.name(), ref_path, "position", "depth", "nodes", "stk s", "ref s",
                             "nps ratio");
    std::ostringstream md;
    md << fmt::format("reference engine: {} (`{}`), {} runs each, alternating\n\n", ref.name(),
                      ref_path, repeat)
       << "| position | depth | nodes | stk s (median) | reference s (median) | nodes/s ratio stk/reference (min..max) |\n"
       << "|---|---|---|---|---|---|\n";
    report::Json positions = report::Json::array();
    std::vector<double> sum_ours(std::size_t(repeat), 0.0), sum_ref(std::size_t(repeat), 0.0);
    const auto t_all = std::chrono::steady_clock::now();
    for (const Case& c : kCases) {
      const int depth = max_depth ? std::min(max_depth, c.depth) : c.depth;
      const CaseTiming t = time_case(ref, c, depth, repeat, sum_ours, sum_ref);
      report_case(c, depth, t, md, positions, suite);
    }
    std::vector<double> total_ratio;
    for (std::size_t i = 0; i < sum_ours.size(); ++i)
      total_ratio.push_back(sum_ref[i] / sum_ours[i]);
    const report::Json total = spread(total_ratio);
    suite.time_s = seconds_since(t_all);
    speed.figures["reference_engine"] = ref.name();
    speed.figures["repeat"] = repeat;
    speed.figures["positions"] = std::move(positions);
    speed.figures["nps_ratio"] = total;
    const std::string line = fmt::format(
        "perft nodes/s ratio stk/reference: {:.2f} (range {:.2f}..{:.2f}; above 1.0 means "
        "stk is faster)\n",
        double(total["median"]), double(total["min"]), double(total["max"]));
    std::cout << line;
    speed.markdown = md.str() + "\n" + line;
    report::write_run_report(speed, paths);
    std::cout << "report: " << paths.junit << "\n";
    return report::exit_status(speed);
  } catch (...) {
    return input_failure("stk-harness perft-speed", app.help().c_str());
  }
}

}  // namespace stk::harness
