#include "commands/compare/compare_report.h"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "report/build_info.h"

namespace stk::harness::compare {

namespace {

using junit::Outcome;

std::string kind_name(Side::Kind k) {
  return k == Side::Kind::Revision   ? "revision"
         : k == Side::Kind::Worktree ? "worktree"
                                     : "engine path";
}

std::string describe(const Side& s) {
  std::string d = s.given;
  if (s.kind == Side::Kind::Revision) d += " (" + s.commit.substr(0, 12) + ")";
  for (const auto& [k, v] : s.options) d += fmt::format(" {}={}", k, v);
  return d;
}

std::string bench_text(const BenchSignature& b) {
  return b.nodes ? std::to_string(*b.nodes) : "n/a";
}

// "changed", "unchanged" or "n/a" (either side without a signature).
std::string bench_change(const CompareResult& r) {
  if (!r.base_bench.nodes || !r.candidate_bench.nodes) return "n/a";
  return *r.base_bench.nodes == *r.candidate_bench.nodes ? "unchanged" : "changed";
}

std::string names(const std::vector<std::string>& v) {
  return v.empty() ? "-" : fmt::format("{}", fmt::join(v, " "));
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

int engine_errors(const epd::RunResults& r) {
  int n = 0;
  for (const auto& p : r.positions) n += !p.error.empty();
  return n;
}

junit::TestCase bench_case(const CompareResult& r, const Gates& g) {
  junit::TestCase tc;
  tc.classname = "compare.bench";
  tc.name = "bench signature";
  tc.facts = {{"base_nodes", bench_text(r.base_bench)},
              {"candidate_nodes", bench_text(r.candidate_bench)},
              {"signature", bench_change(r)}};
  for (const auto* b : {&r.base_bench, &r.candidate_bench})
    if (!b->note.empty())
      tc.facts.emplace_back(b == &r.base_bench ? "base_note" : "candidate_note", b->note);
  if (g.bench_unchanged && bench_change(r) == "changed") {
    tc.outcome = Outcome::Failed;
    tc.message = fmt::format("gate bench-unchanged: bench signature changed: {} -> {} nodes",
                             *r.base_bench.nodes, *r.candidate_bench.nodes);
    tc.detail = tc.message +
                "\nA speed-only change must leave the search's node counts bit-identical.";
  }
  return tc;
}

junit::TestCase tree_case(const SuiteDiff& d, const Gates& g) {
  junit::TestCase tc;
  tc.classname = "compare.tree";
  tc.name = "tree size " + d.budget.label();
  tc.facts = {{"base_nodes", std::to_string(d.base_nodes)},
              {"candidate_nodes", std::to_string(d.candidate_nodes)},
              {"ratio",
               fmt::format("{:.4f}", ratio(double(d.candidate_nodes), double(d.base_nodes)))},
              {"positions_with_other_node_counts", std::to_string(d.node_mismatches)}};
  if (g.bench_unchanged && d.node_mismatches > 0) {
    tc.outcome = Outcome::Failed;
    tc.message = fmt::format(
        "gate bench-unchanged: {} of {} positions searched other node counts at {} ({} -> {} nodes)",
        d.node_mismatches, d.base.positions.size(), d.budget.label(), d.base_nodes,
        d.candidate_nodes);
    std::string lines;
    for (std::size_t i = 0; i < d.base.positions.size(); ++i)
      if (d.base.positions[i].nodes != d.candidate.positions[i].nodes)
        lines += fmt::format("{}: {} -> {}\n", d.base.positions[i].name, d.base.positions[i].nodes,
                             d.candidate.positions[i].nodes);
    tc.detail = tc.message + "\n" + lines;
  }
  return tc;
}

junit::TestCase suite_case(const SuiteDiff& d, const Gates& g) {
  junit::TestCase tc;
  tc.classname = "compare.suite";
  tc.name = "solved set " + d.budget.label();
  tc.facts = {{"positions", std::to_string(d.base.positions.size())},
              {"base_solved", std::to_string(d.base.solved())},
              {"candidate_solved", std::to_string(d.candidate.solved())},
              {"gained", names(d.gained)},
              {"lost", names(d.lost)}};
  const int errors = engine_errors(d.base) + engine_errors(d.candidate);
  if (errors) {
    tc.outcome = Outcome::Failed;
    tc.message = fmt::format("{} engine failures at {} (see the epd reports)", errors,
                             d.budget.label());
  } else if (g.max_regressions && int(d.lost.size()) > *g.max_regressions) {
    tc.outcome = Outcome::Failed;
    tc.message = fmt::format("gate max-regressions {}: {} positions lost at {}", *g.max_regressions,
                             d.lost.size(), d.budget.label());
    tc.detail = tc.message + ": " + names(d.lost) + "\ngained: " + names(d.gained);
  }
  return tc;
}

junit::TestCase speed_case(const CompareResult& r, const Gates& g) {
  junit::TestCase tc;
  tc.classname = "compare.speed";
  tc.name = "nodes per second";
  if (r.speed.base_nps.empty()) {
    tc.outcome = Outcome::Skipped;
    tc.message = "--speed-runs 0";
    return tc;
  }
  const Spread a = spread_of(r.speed.base_nps), b = spread_of(r.speed.candidate_nps),
               q = spread_of(speed_ratios(r.speed));
  tc.facts = {{"runs", std::to_string(r.speed.base_nps.size())},
              {"base_nps_median", fmt::format("{:.0f}", a.median)},
              {"candidate_nps_median", fmt::format("{:.0f}", b.median)},
              {"ratio_median", fmt::format("{:.4f}", q.median)},
              {"ratio_range", fmt::format("{:.4f}..{:.4f}", q.min, q.max)}};
  if (g.min_speed_ratio && q.median < *g.min_speed_ratio) {
    tc.outcome = Outcome::Failed;
    tc.message =
        fmt::format("gate min-speed-ratio {}: median nodes/s ratio {:.4f} (runs {:.4f}..{:.4f})",
                    *g.min_speed_ratio, q.median, q.min, q.max);
  }
  return tc;
}

nlohmann::json side_json(const Side& s, const BenchSignature& b) {
  nlohmann::json j = {{"given", s.given}, {"kind", kind_name(s.kind)}, {"engine", s.engine}};
  if (!s.commit.empty()) j["commit"] = s.commit;
  j["options"] = nlohmann::json::object();
  for (const auto& [k, v] : s.options) j["options"][k] = v;
  j["bench_nodes"] = b.nodes ? nlohmann::json(*b.nodes) : nlohmann::json(nullptr);
  if (!b.note.empty()) j["bench_note"] = b.note;
  return j;
}

const char* outcome_name(Outcome o) {
  return o == Outcome::Passed   ? "passed"
         : o == Outcome::Failed ? "failed"
         : o == Outcome::Error  ? "error"
                                : "skipped";
}

}  // namespace

junit::TestSuite judge(const CompareResult& r, const Gates& g) {
  junit::TestSuite suite;
  suite.name = "compare." + r.config;
  for (const auto& [k, v] : r.properties) suite.property(k, v);
  suite.property("base", describe(r.base));
  suite.property("candidate", describe(r.candidate));
  junit::add_build_properties(suite);
  suite.cases.push_back(bench_case(r, g));
  for (const SuiteDiff& d : r.suites)
    if (d.budget.kind == epd::Budget::Kind::Depth) suite.cases.push_back(tree_case(d, g));
  suite.cases.push_back(speed_case(r, g));
  for (const SuiteDiff& d : r.suites) suite.cases.push_back(suite_case(d, g));
  const nlohmann::json audit_cases = r.audits.is_null()
                                         ? nlohmann::json::array()
                                         : r.audits.value("cases", nlohmann::json::array());
  for (const auto& c : audit_cases) {
    junit::TestCase tc;
    tc.classname = "compare.audits";
    tc.name = c.at("name").get<std::string>();
    for (const auto& [k, v] : c.at("facts").items()) tc.facts.emplace_back(k, v.get<std::string>());
    if (c.contains("skipped"))
      tc.outcome = junit::Outcome::Skipped, tc.message = c["skipped"].get<std::string>();
    suite.cases.push_back(tc);
  }
  suite.time_s = r.build_s + r.measure_s;
  return suite;
}

nlohmann::json to_json(const CompareResult& r, const junit::TestSuite& verdict) {
  nlohmann::json j;
  j["kind"] = "stk-compare";
  j["config"] = r.config;
  j["base"] = side_json(r.base, r.base_bench);
  j["candidate"] = side_json(r.candidate, r.candidate_bench);
  j["bench_signature"] = bench_change(r);
  const Spread a = spread_of(r.speed.base_nps), b = spread_of(r.speed.candidate_nps),
               q = spread_of(speed_ratios(r.speed));
  j["speed"] = {{"runs", r.speed.base_nps.size()},
                {"positions", r.speed.positions},
                {"nodes_per_position", r.speed.nodes_per_position},
                {"order", "base, candidate, base, candidate, ..."},
                {"base_nps", r.speed.base_nps},
                {"candidate_nps", r.speed.candidate_nps},
                {"ratios", speed_ratios(r.speed)},
                {"base_nps_median", a.median},
                {"candidate_nps_median", b.median},
                {"ratio_median", q.median},
                {"ratio_min", q.min},
                {"ratio_max", q.max}};
  j["suite"] = {{"epd", r.epd_file}, {"stride", r.stride}, {"budgets", nlohmann::json::array()}};
  for (const SuiteDiff& d : r.suites)
    j["suite"]["budgets"].push_back({{"budget", d.budget.label()},
                                     {"positions", d.base.positions.size()},
                                     {"base_solved", d.base.solved()},
                                     {"candidate_solved", d.candidate.solved()},
                                     {"gained", d.gained},
                                     {"lost", d.lost},
                                     {"base_nodes", d.base_nodes},
                                     {"candidate_nodes", d.candidate_nodes},
                                     {"positions_with_other_node_counts", d.node_mismatches}});
  j["audits"] = r.audits;
  j["cases"] = nlohmann::json::array();
  for (const auto& tc : verdict.cases)
    j["cases"].push_back({{"classname", tc.classname},
                          {"name", tc.name},
                          {"outcome", outcome_name(tc.outcome)},
                          {"message", tc.message}});
  j["passed"] = verdict.all_passed();
  j["build_s"] = r.build_s;
  j["measure_s"] = r.measure_s;
  return j;
}

std::string console_table(const CompareResult& r) {
  std::ostringstream o;
  auto row = [&](const std::string& what, const std::string& a, const std::string& b,
                 const std::string& c) {
    o << fmt::format("{:<26} {:>22} {:>22}  {}\n", what, a, b, c);
  };
  row("", "base", "candidate", "");
  auto short_name = [](const Side& s) {
    std::string n = s.kind == Side::Kind::EnginePath
                        ? std::filesystem::path(s.given).filename().string()
                        : s.given;
    return (n.size() > 22 ? n.substr(0, 21) + "~" : n);
  };
  row("engine", short_name(r.base), short_name(r.candidate),
      r.base.options.empty() && r.candidate.options.empty() ? "" : "options: see the report");
  row("bench signature", bench_text(r.base_bench), bench_text(r.candidate_bench), bench_change(r));
  if (!r.speed.base_nps.empty()) {
    const Spread a = spread_of(r.speed.base_nps), b = spread_of(r.speed.candidate_nps),
                 q = spread_of(speed_ratios(r.speed));
    row("nodes/s (median)", fmt::format("{:.0f}", a.median), fmt::format("{:.0f}", b.median),
        fmt::format("ratio {:.3f} (runs {:.3f}..{:.3f})", q.median, q.min, q.max));
    row("nodes/s (range)", fmt::format("{:.0f}..{:.0f}", a.min, a.max),
        fmt::format("{:.0f}..{:.0f}", b.min, b.max),
        fmt::format("{} alternating runs each", r.speed.base_nps.size()));
  }
  for (const SuiteDiff& d : r.suites) {
    row("solved " + d.budget.label(),
        fmt::format("{} / {}", d.base.solved(), d.base.positions.size()),
        fmt::format("{} / {}", d.candidate.solved(), d.candidate.positions.size()),
        fmt::format("+{} -{}", d.gained.size(), d.lost.size()));
    row("total nodes " + d.budget.label(), std::to_string(d.base_nodes),
        std::to_string(d.candidate_nodes),
        fmt::format("ratio {:.4f}, {} positions differ",
                    ratio(double(d.candidate_nodes), double(d.base_nodes)), d.node_mismatches));
    if (!d.gained.empty()) o << "  gained " << d.budget.label() << ": " << names(d.gained) << "\n";
    if (!d.lost.empty()) o << "  lost " << d.budget.label() << ": " << names(d.lost) << "\n";
  }
  const nlohmann::json audit_rows = r.audits.is_null()
                                        ? nlohmann::json::array()
                                        : r.audits.value("rows", nlohmann::json::array());
  for (const auto& row_j : audit_rows)
    row(row_j.at("what").get<std::string>(), row_j.at("base").get<std::string>(),
        row_j.at("candidate").get<std::string>(), row_j.at("delta").get<std::string>());
  return o.str();
}

std::string to_markdown(const CompareResult& r, const junit::TestSuite& verdict) {
  std::ostringstream o;
  o << "- base: " << kind_name(r.base.kind) << " " << describe(r.base) << "\n"
    << "- candidate: " << kind_name(r.candidate.kind) << " " << describe(r.candidate) << "\n"
    << fmt::format("- suite: {} (every {}th position)\n", r.epd_file, r.stride)
    << fmt::format("- time: {:.0f} s building, {:.0f} s measuring\n\n", r.build_s, r.measure_s);
  o << "```\n" << console_table(r) << "```\n\n| check | result | message |\n|---|---|---|\n";
  for (const auto& tc : verdict.cases)
    o << fmt::format("| {} / {} | {} | {} |\n", tc.classname, tc.name, outcome_name(tc.outcome),
                     tc.message);
  return o.str();
}

}  // namespace stk::harness::compare
