#include "epd/epd_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "cli/cli.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness::epd {

namespace {

std::string joined(const std::vector<std::string>& v, const char* sep = " ") {
  return fmt::format("{}", fmt::join(v, sep));
}

std::string target(const PositionResult& p) {
  std::string s;
  if (!p.bm.empty()) s += "bm " + joined(p.bm);
  if (!p.am.empty()) s += (s.empty() ? "am " : "; am ") + joined(p.am);
  return s;
}

std::string best_text(const PositionResult& p) {
  return p.best_san.empty() ? p.best_uci : p.best_san + " (" + p.best_uci + ")";
}

std::string bench_text(const std::optional<std::uint64_t>& b) {
  return b ? std::to_string(*b) : std::string("unknown");
}

// What the parts of one publish share: the run, its baseline (may be null) and their comparison.
struct Judged {
  const RunResults& run;
  const RunResults* baseline;
  const std::optional<Comparison>& cmp;
  const std::map<std::string, const PositionResult*>& base_by_name;
};

// The suite's properties: the inputs as given, then the run's settings, the baseline's and the gate.
void describe_suite(junit::TestSuite& suite, const Judged& j,
                    const std::vector<std::pair<std::string, std::string>>& properties) {
  const RunMeta& m = j.run.meta;
  for (const auto& [k, v] : properties) suite.property(k, v);
  suite.property("suite", m.suite);
  suite.property("epd_file", m.epd_file);
  suite.property("engine", m.engine);
  for (const auto& [k, v] : m.engine_settings) suite.property("engine." + k, v);
  suite.property("budget", m.budget.label());
  suite.property("budget_kind", m.budget.kind == Budget::Kind::Depth
                                    ? "sd (fixed depth: tests tree shape at fixed effort)"
                                    : "sn (fixed nodes: tests accuracy at fixed cost)");
  suite.property("stride", std::to_string(m.stride));
  suite.property("selected", std::to_string(m.selected));
  suite.property("shard", m.shard);
  suite.property("bench_signature", bench_text(m.bench_signature));
  suite.property("positions_run", std::to_string(j.run.positions.size()));
  suite.property("solved", std::to_string(j.run.solved()));
  if (j.baseline) {
    suite.property("baseline_file", m.baseline_file);
    suite.property("baseline_engine", j.baseline->meta.engine);
    suite.property("baseline_bench_signature", bench_text(j.baseline->meta.bench_signature));
    suite.property("baseline_git_revision", j.baseline->meta.git_revision);
    suite.property("regressions", joined(j.cmp->regressions, ","));
    suite.property("new_solves", joined(j.cmp->new_solves, ","));
    suite.property("not_in_baseline", joined(j.cmp->not_in_baseline, ","));
  }
  if (m.min_solved >= 0) suite.property("min_solved", std::to_string(m.min_solved));
  junit::add_build_properties(suite);
}

// One position's testcase: an error when the engine failed, a failure when it lost a solve the
// baseline (`base`, may be null) had.
junit::TestCase position_case(const Judged& j, const PositionResult& p, const PositionResult* base,
                              const std::string& classname) {
  const RunMeta& m = j.run.meta;
  junit::TestCase tc;
  tc.classname = classname;
  tc.name = p.name;
  tc.time_s = p.time_s;
  std::string status = p.solved ? "solved" : "unsolved";
  if (base && p.solved && !base->solved) status = "new solve (unsolved in the baseline)";
  if (base && !p.solved && !base->solved) status = "unsolved (also unsolved in the baseline)";
  if (base && !p.solved && base->solved) status = "REGRESSION (solved in the baseline)";
  if (!p.error.empty()) status = "engine error";
  tc.facts = {{"status", status},
              {"line", std::to_string(p.line)},
              {"fen", p.fen},
              {"target", target(p)},
              {"best", best_text(p)},
              {"score", p.score},
              {"depth", std::to_string(p.depth)},
              {"first_solved_depth",
               p.first_solved_depth ? std::to_string(p.first_solved_depth) : "-"},
              {"nodes", std::to_string(p.nodes)},
              {"pv", joined(p.pv_san)}};
  if (!p.error.empty()) {
    tc.outcome = junit::Outcome::Error;
    tc.message = p.error;
    tc.detail = fmt::format("{} (line {})\nFEN: {}\n{}\n", p.name, p.line, p.fen, p.error);
  } else if (base && base->solved && !p.solved) {
    const RunResults* baseline = j.baseline;
    tc.outcome = junit::Outcome::Failed;
    tc.message = fmt::format("regression: solved in the baseline, now plays {} ({})", best_text(p),
                             target(p));
    tc.detail = fmt::format(
        "{} (line {})\nFEN: {}\ntarget: {}\nnow: {} score {} depth {} nodes {} pv {}\n"
        "baseline {}: {} depth {} (engine {}, bench signature {}, revision {})\n"
        "this run: engine {}, bench signature {}, {}\n",
        p.name, p.line, p.fen, target(p), best_text(p), p.score, p.depth, p.nodes, joined(p.pv_san),
        m.baseline_file, best_text(*base), base->depth, baseline->meta.engine,
        bench_text(baseline->meta.bench_signature), baseline->meta.git_revision, m.engine,
        bench_text(m.bench_signature), m.budget.label());
  }
  return tc;
}

// One position's row of the Markdown table.
std::string table_row(const PositionResult& p) {
  std::ostringstream row;
  row << "| " << p.name << " | " << target(p) << " | " << best_text(p) << " | "
      << (p.error.empty() ? (p.solved ? "yes" : "no") : "ERROR") << " | " << p.depth << " | "
      << (p.first_solved_depth ? std::to_string(p.first_solved_depth) : "-") << " | " << p.score
      << " | " << p.nodes << " | " << fmt::format("{:.3f}", p.time_s) << " | " << joined(p.pv_san)
      << " |\n";
  return row.str();
}

// The positions' testcases (added to `suite`) and the Markdown table.
struct PositionTotals {
  int errors = 0;
  double total_time = 0;
  std::string table;
};

PositionTotals add_position_cases(const Judged& j, junit::TestSuite& suite,
                                  const std::string& classname) {
  PositionTotals t;
  std::ostringstream table;
  table
      << "\n| id | target | best | solved | depth | first solved depth | score | nodes | time s | pv |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const PositionResult& p : j.run.positions) {
    t.total_time += p.time_s;
    const PositionResult* base = nullptr;
    if (auto it = j.base_by_name.find(p.name); it != j.base_by_name.end()) base = it->second;
    if (!p.error.empty()) ++t.errors;
    table << table_row(p);
    suite.cases.push_back(position_case(j, p, base, classname));
  }
  t.table = table.str();
  return t;
}

// Why a baseline may no longer fit: another search (bench signature) or other settings.
std::vector<std::string> baseline_notes(const RunMeta& m, const RunResults& baseline) {
  std::vector<std::string> notes;
  const auto& bb = baseline.meta.bench_signature;
  if (bb && m.bench_signature && *bb != *m.bench_signature)
    notes.push_back(
        fmt::format("the bench signature changed ({} in the baseline, {} now): the search "
                    "changed; if that is intended, regenerate the baseline with --update-golden",
                    *bb, *m.bench_signature));
  if (baseline.meta.engine != m.engine)
    notes.push_back("the baseline was made by another engine (" + baseline.meta.engine + ")");
  else if (baseline.meta.engine_settings != m.engine_settings)
    notes.push_back("the baseline was made with other engine settings than this run's");
  return notes;
}

// The console lines about the baseline: regressions, new solves, positions it lacks, notes.
std::string baseline_summary(const RunMeta& m, const Comparison& cmp,
                             const std::vector<std::string>& notes) {
  std::string summary =
      fmt::format("\n  against baseline {}: {} regressions{}, {} new solves{}", m.baseline_file,
                  cmp.regressions.size(),
                  cmp.regressions.empty() ? "" : " (" + joined(cmp.regressions, ", ") + ")",
                  cmp.new_solves.size(),
                  cmp.new_solves.empty() ? "" : " (" + joined(cmp.new_solves, ", ") + ")");
  if (!cmp.not_in_baseline.empty())
    summary += fmt::format(", {} not in the baseline", cmp.not_in_baseline.size());
  for (const std::string& note : notes) summary += "\n  note: " + note;
  return summary;
}

// The min-solved gate's testcase (skipped on a shard: it sees part of the suite) and its summary
// line; returns whether the gate failed.
bool add_min_solved_case(const RunMeta& m, int solved, const std::string& classname,
                         junit::TestSuite& suite, std::string& summary) {
  const bool complete = m.shard == "1/1";
  const bool check_min = m.min_solved >= 0 && complete;
  bool failed = false;
  junit::TestCase tc;
  tc.classname = classname + ".gate";  // apart from the positions, whose ids may be anything
  tc.name = "min-solved";
  tc.facts = {{"solved", std::to_string(solved)}, {"min_solved", std::to_string(m.min_solved)}};
  if (!check_min) {
    tc.outcome = junit::Outcome::Skipped;
    tc.message = "a shard sees part of the suite: min-solved is checked on the merged run";
  } else if (solved < m.min_solved) {
    tc.outcome = junit::Outcome::Failed;
    tc.message = fmt::format("{} solved, fewer than the required {}", solved, m.min_solved);
    tc.detail = tc.message;
    failed = true;
  }
  summary += fmt::format("\n  min-solved {}: {}", m.min_solved,
                         !check_min               ? "not checked on a shard"
                         : solved >= m.min_solved ? "met"
                                                  : "MISSED");
  suite.cases.push_back(std::move(tc));
  return failed;
}

// The Markdown page's head: budget, engine and its settings, suite, bench signature.
std::string markdown_head(const RunMeta& m) {
  std::ostringstream md;
  md << "- budget: " << m.budget.label() << "\n- engine: " << m.engine;
  for (const auto& [k, v] : m.engine_settings) md << ", " << k << "=" << v;
  md << "\n- suite: `" << m.epd_file << "`, stride " << m.stride << ", " << m.selected
     << " selected, shard " << m.shard << "\n- bench signature: " << bench_text(m.bench_signature)
     << "\n";
  return md.str();
}

// The Markdown lines after the head: the counts, the baseline, the notes, the gate; then the table.
std::string markdown_verdict(const Judged& j, int solved, int n, const PositionTotals& t,
                             const std::vector<std::string>& notes, bool gate_failed) {
  const RunMeta& m = j.run.meta;
  std::ostringstream md;
  md << "- solved: **" << solved << " / " << n << "**, engine errors: " << t.errors << "\n";
  if (j.cmp)
    md << "- baseline `" << m.baseline_file << "` (engine " << j.baseline->meta.engine
       << ", bench signature " << bench_text(j.baseline->meta.bench_signature) << "): regressions "
       << j.cmp->regressions.size()
       << (j.cmp->regressions.empty() ? "" : " (" + joined(j.cmp->regressions, ", ") + ")")
       << ", new solves " << j.cmp->new_solves.size()
       << (j.cmp->new_solves.empty() ? "" : " (" + joined(j.cmp->new_solves, ", ") + ")") << "\n";
  for (const std::string& note : notes) md << "- note: " << note << "\n";
  if (m.min_solved >= 0) md << "- min-solved: " << m.min_solved << "\n";
  md << "- gate: " << (gate_failed ? "**FAILED**" : "passed") << "\n" << t.table;
  return md.str();
}

}  // namespace

void declare_junit_report(const std::string& out_dir, const std::string& stem) {
  declare_report(report::junit_path(out_dir, "epd", stem), "epd." + stem);
}

Published publish(const RunResults& run, const RunResults* baseline,
                  const std::vector<std::pair<std::string, std::string>>& properties,
                  const std::string& out_dir, const std::string& stem) {
  const RunMeta& m = run.meta;
  std::optional<Comparison> cmp;
  std::map<std::string, const PositionResult*> base_by_name;
  if (baseline) {
    cmp = compare(run, *baseline, m.baseline_file);
    for (const PositionResult& b : baseline->positions) base_by_name[b.name] = &b;
  }
  const Judged j{run, baseline, cmp, base_by_name};

  report::RunReport epd_report{"epd", stem};
  junit::TestSuite& suite = epd_report.suites.emplace_back();
  suite.name = "epd." + stem;
  describe_suite(suite, j, properties);

  const std::string classname = "epd." + m.suite;
  const PositionTotals t = add_position_cases(j, suite, classname);

  int solved = run.solved();
  int n = int(run.positions.size());
  std::string summary = fmt::format("epd {}: {} solved of {} ({}, {}), {} engine errors", stem,
                                    solved, n, m.suite, m.budget.label(), t.errors);
  bool gate_failed = t.errors > 0;
  std::vector<std::string> notes;
  if (cmp) {
    notes = baseline_notes(m, *baseline);
    summary += baseline_summary(m, *cmp, notes);
    gate_failed |= !cmp->regressions.empty();
  }
  if (m.min_solved >= 0) gate_failed |= add_min_solved_case(m, solved, classname, suite, summary);
  suite.time_s = t.total_time;
  suite.system_out = summary + "\n";

  epd_report.figures = to_json(run, cmp, false);
  epd_report.markdown = markdown_head(m) + markdown_verdict(j, solved, n, t, notes, gate_failed);
  const report::ReportPaths paths = report::report_paths(out_dir, "epd", stem);
  report::write_run_report(epd_report, paths);
  Published out;
  out.exit_code = report::exit_status(epd_report);
  out.summary = summary;
  out.junit_path = paths.junit;
  out.json_path = paths.json;
  out.md_path = paths.markdown;
  return out;
}

}  // namespace stk::harness::epd
