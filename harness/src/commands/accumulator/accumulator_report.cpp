#include "commands/accumulator/accumulator_report.h"

#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli_app.h"
#include "nnue/network.h"

namespace stk::harness::accumulator {

namespace {

// A fact as JSON: a count as a number (the review page reads the node counts), anything else as text.
report::Json fact_json(const std::string& v) {
  if (!v.empty() && v.size() < 20 && v.find_first_not_of("0123456789") == std::string::npos)
    return std::stoull(v);
  return v;
}

const char* outcome_name(junit::Outcome o) {
  return o == junit::Outcome::Passed    ? "passed"
         : o == junit::Outcome::Failed  ? "failed"
         : o == junit::Outcome::Skipped ? "skipped"
                                        : "error";
}

}  // namespace

void describe_suite(junit::TestSuite& suite, const CLI::App& app, const AccumulatorSettings& s,
                    const CheckedNets& nets) {
  const nnue::Network& net = *nets.net;
  suite.name = "accumulator." + s.config;
  for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
  suite.property("seed", std::to_string(s.walks.seed));
  suite.property("games", std::to_string(s.walks.games));
  suite.property("plies", std::to_string(s.walks.walk.plies));
  suite.property("positions", std::to_string(s.positions));
  suite.property("search_depth", std::to_string(s.search_depth));
  suite.property("net", net.source());
  suite.property("net_hidden", std::to_string(net.hidden()));
  suite.property("net_fnv1a64", fmt::format("{:016x}", net.checksum()));
  suite.property("net_seed", s.net_given ? "n/a" : std::to_string(s.net_seed));
  suite.property("extreme_net", nets.extreme->source());
  suite.property("simd", nnue::kHasAvx2 ? "avx2" : "scalar");
  suite.property("plant", s.plant);
  junit::add_build_properties(suite);
}

void finish_report(report::RunReport& run, const AccumulatorSettings& s, const CheckedNets& nets,
                   const RunTotals& totals) {
  junit::TestSuite& suite = run.suites.front();
  const nnue::Network& net = *nets.net;
  int failed = suite.count(junit::Outcome::Failed);
  suite.system_out = fmt::format(
      "accumulator: {} checks, {} failed; {} walk steps checked ({} on the extreme net), {} positions "
      "sampled in {:.2f} s\n",
      suite.cases.size(), failed, totals.walk_steps, totals.extreme_walk_steps,
      totals.sampled_positions, totals.sample_time);

  run.figures["harness"] = "accumulator";
  run.figures["config"] = s.config;
  run.figures["seed"] = s.walks.seed;
  run.figures["plant"] = s.plant;
  run.figures["net"] = net.source();
  run.figures["net_fnv1a64"] = fmt::format("{:016x}", net.checksum());
  report::Json checks = report::Json::array();
  std::string md = fmt::format(
      "net `{}` (hidden {}), seed {}, plant {}\n\n| check | result | facts |\n|---|---|---|\n",
      net.source(), net.hidden(), s.walks.seed, s.plant);
  for (const junit::TestCase& tc : suite.cases) {
    report::Json c = {{"check", tc.classname + "/" + tc.name},
                      {"result", outcome_name(tc.outcome)}};
    std::string facts_md;
    for (auto& [k, v] : tc.facts) {
      c[k] = fact_json(v);
      facts_md += (facts_md.empty() ? "" : ", ") + k + " " + v;
    }
    if (!tc.message.empty()) c["message"] = tc.message;
    checks.push_back(std::move(c));
    md += fmt::format("| {} / {} | {}{} | {} |\n", tc.classname, tc.name, outcome_name(tc.outcome),
                      tc.message.empty() ? "" : ": " + tc.message, facts_md);
    if (tc.outcome == junit::Outcome::Failed)
      std::cerr << "FAILED " << tc.classname << " / " << tc.name << ": " << tc.message << "\n  "
                << tc.detail << "\n";
  }
  run.figures["checks"] = std::move(checks);
  run.figures["failed"] = failed;
  run.markdown = md + "\n" + suite.system_out;
}

}  // namespace stk::harness::accumulator
