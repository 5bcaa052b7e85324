#include "commands/compare/compare_measure.h"

#include <filesystem>
#include <iostream>
#include <regex>

#include <fmt/format.h>

#include "bench.h"
#include "cli/cli.h"
#include "commands/compare/output_tail.h"
#include "position.h"
#include "proc/command_words.h"
#include "proc/process.h"
#include "common/counts.h"

namespace stk::harness::compare {

BenchSignature bench_signature(const Side& side) {
  BenchSignature b;
  if (!side.options.empty()) {
    b.note = "n/a: UCI options given, which the bench command cannot apply";
    return b;
  }
  proc::RunOptions limit;
  limit.timeout = std::chrono::seconds(300);
  std::vector<std::string> argv = proc::command_argv(side.engine);
  argv.push_back("bench");
  const proc::RunResult r = proc::run(argv, limit);
  std::smatch m;
  static const std::regex nodes_line(R"(Nodes searched\s*:\s*(\d+))");
  // An overflowing count is no count (std::stoull threw out of the command).
  const auto nodes = r.exit_code == 0 && std::regex_search(r.output, m, nodes_line)
                         ? parse_count(m.str(1))
                         : std::nullopt;
  if (nodes) {
    b.nodes = *nodes;
    return b;
  }
  if (side.is_stk())
    throw InputError(fmt::format("--{} {}: '{} bench' printed no 'Nodes searched : N' ({}):\n{}",
                                 side.role, side.given, side.engine, r.describe(),
                                 tail_lines(r.output, 5)));
  b.note = "n/a: not an stk engine ('bench' printed no 'Nodes searched' line)";
  return b;
}

SpeedRuns speed_runs(const Side& base, const Side& candidate, int runs, std::uint64_t nodes) {
  SpeedRuns out;
  out.nodes_per_position = nodes;
  out.positions = int(bench_positions().size());
  if (runs <= 0) return out;
  auto open = [](const Side& s) {
    try {
      return epd::make_uci_engine(s.engine, 16, s.options);
    } catch (const std::runtime_error& e) {
      throw InputError(fmt::format("--{} {}: {}", s.role, s.given, e.what()));
    }
  };
  auto a = open(base), b = open(candidate);
  const epd::Budget budget{epd::Budget::Kind::Nodes, nodes};
  auto one_run = [&](epd::EngineDriver& engine) {
    std::uint64_t searched = 0;
    double seconds = 0;
    for (const std::string& fen : bench_positions()) {
      Position pos;
      pos.set(fen);
      auto o = engine.search(pos, fen, budget);
      searched += o.nodes;
      seconds += o.time_s;
    }
    return seconds > 0 ? double(searched) / seconds : 0.0;
  };
  for (int i = 0; i < runs; ++i) {
    out.base_nps.push_back(one_run(*a));
    out.candidate_nps.push_back(one_run(*b));
    std::cout << fmt::format("speed run {}/{}: base {:.0f} nodes/s, candidate {:.0f} nodes/s\n",
                             i + 1, runs, out.base_nps.back(), out.candidate_nps.back())
              << std::flush;
  }
  return out;
}

epd::RunResults run_suite(const std::string& harness, const Side& side, const std::string& epd_file,
                          int stride, const epd::Budget& budget, const std::string& out_dir,
                          const std::string& config) {
  // Values as --name=VALUE: one starting with '-' is not read as an option.
  std::vector<std::string> argv = {harness,
                                   "epd",
                                   "--quiet",
                                   "--epd=" + epd_file,
                                   "--stride",
                                   std::to_string(stride),
                                   budget.kind == epd::Budget::Kind::Depth ? "--depth" : "--nodes",
                                   std::to_string(budget.value),
                                   "--engine=" + side.engine,
                                   "--config=" + config,
                                   "--out-dir=" + out_dir};
  for (const auto& [k, v] : side.options) argv.push_back("--option=" + k + "=" + v);
  std::cout << fmt::format("compare: {} at {}: {}\n", side.role, budget.label(),
                           proc::display_command(argv))
            << std::flush;
  const proc::RunResult r = proc::run(argv);
  // Exit 1 without a baseline means an engine error on some position: recorded per position.
  if (r.exit_code != 0 && r.exit_code != 1)
    throw InputError(fmt::format("--{} {}: the epd harness failed ({}):\n{}", side.role, side.given,
                                 r.describe(), tail_lines(r.output, 8)));
  return epd::read_results(out_dir + "/epd/" + config + ".json");
}

}  // namespace stk::harness::compare
