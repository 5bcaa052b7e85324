#include "epd/epd_report.h"

#include <algorithm>
#include <map>
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
  const bool complete = m.shard == "1/1";
  const bool check_min = m.min_solved >= 0 && complete;
  auto bench_text = [](const std::optional<std::uint64_t>& b) {
    return b ? std::to_string(*b) : std::string("unknown");
  };

  report::RunReport epd_report{"epd", stem};
  junit::TestSuite& suite = epd_report.suites.emplace_back();
  suite.name = "epd." + stem;
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
  suite.property("positions_run", std::to_string(run.positions.size()));
  suite.property("solved", std::to_string(run.solved()));
  if (baseline) {
    suite.property("baseline_file", m.baseline_file);
    suite.property("baseline_engine", baseline->meta.engine);
    suite.property("baseline_bench_signature", bench_text(baseline->meta.bench_signature));
    suite.property("baseline_git_revision", baseline->meta.git_revision);
    suite.property("regressions", joined(cmp->regressions, ","));
    suite.property("new_solves", joined(cmp->new_solves, ","));
    suite.property("not_in_baseline", joined(cmp->not_in_baseline, ","));
  }
  if (m.min_solved >= 0) suite.property("min_solved", std::to_string(m.min_solved));
  junit::add_build_properties(suite);

  int errors = 0;
  double total_time = 0;
  std::ostringstream md;
  md << "- budget: " << m.budget.label() << "\n- engine: " << m.engine;
  for (const auto& [k, v] : m.engine_settings) md << ", " << k << "=" << v;
  md << "\n- suite: `" << m.epd_file << "`, stride " << m.stride << ", " << m.selected
     << " selected, shard " << m.shard << "\n- bench signature: " << bench_text(m.bench_signature)
     << "\n";

  std::ostringstream table;
  table << "\n| id | target | best | solved | depth | first solved depth | score | nodes | time s | pv |\n"
        << "|---|---|---|---|---|---|---|---|---|---|\n";
  const std::string classname = "epd." + m.suite;
  for (const PositionResult& p : run.positions) {
    junit::TestCase tc;
    tc.classname = classname;
    tc.name = p.name;
    tc.time_s = p.time_s;
    total_time += p.time_s;
    const PositionResult* base = nullptr;
    if (auto it = base_by_name.find(p.name); it != base_by_name.end()) base = it->second;
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
                {"first_solved_depth", p.first_solved_depth ? std::to_string(p.first_solved_depth) : "-"},
                {"nodes", std::to_string(p.nodes)},
                {"pv", joined(p.pv_san)}};
    if (!p.error.empty()) {
      ++errors;
      tc.outcome = junit::Outcome::Error;
      tc.message = p.error;
      tc.detail = fmt::format("{} (line {})\nFEN: {}\n{}\n", p.name, p.line, p.fen, p.error);
    } else if (base && base->solved && !p.solved) {
      tc.outcome = junit::Outcome::Failed;
      tc.message = fmt::format("regression: solved in the baseline, now plays {} ({})", best_text(p),
                               target(p));
      tc.detail = fmt::format(
          "{} (line {})\nFEN: {}\ntarget: {}\nnow: {} score {} depth {} nodes {} pv {}\n"
          "baseline {}: {} depth {} (engine {}, bench signature {}, revision {})\n"
          "this run: engine {}, bench signature {}, {}\n",
          p.name, p.line, p.fen, target(p), best_text(p), p.score, p.depth, p.nodes,
          joined(p.pv_san), m.baseline_file, best_text(*base), base->depth, baseline->meta.engine,
          bench_text(baseline->meta.bench_signature), baseline->meta.git_revision, m.engine,
          bench_text(m.bench_signature), m.budget.label());
    }
    table << "| " << p.name << " | " << target(p) << " | " << best_text(p) << " | "
          << (p.error.empty() ? (p.solved ? "yes" : "no") : "ERROR") << " | " << p.depth << " | "
          << (p.first_solved_depth ? std::to_string(p.first_solved_depth) : "-") << " | "
          << p.score << " | " << p.nodes << " | " << fmt::format("{:.3f}", p.time_s) << " | "
          << joined(p.pv_san) << " |\n";
    suite.cases.push_back(std::move(tc));
  }

  int solved = run.solved();
  int n = int(run.positions.size());
  std::string summary = fmt::format("epd {}: {} solved of {} ({}, {}), {} engine errors", stem,
                                    solved, n, m.suite, m.budget.label(), errors);
  bool gate_failed = errors > 0;
  std::vector<std::string> notes;
  if (cmp) {
    summary += fmt::format("\n  against baseline {}: {} regressions{}, {} new solves{}",
                           m.baseline_file, cmp->regressions.size(),
                           cmp->regressions.empty() ? "" : " (" + joined(cmp->regressions, ", ") + ")",
                           cmp->new_solves.size(),
                           cmp->new_solves.empty() ? "" : " (" + joined(cmp->new_solves, ", ") + ")");
    if (!cmp->not_in_baseline.empty())
      summary += fmt::format(", {} not in the baseline", cmp->not_in_baseline.size());
    gate_failed |= !cmp->regressions.empty();
    // Why a baseline may no longer fit: another search (bench signature) or other settings.
    const auto& bb = baseline->meta.bench_signature;
    if (bb && m.bench_signature && *bb != *m.bench_signature)
      notes.push_back(fmt::format("the bench signature changed ({} in the baseline, {} now): the search "
                                  "changed; if that is intended, regenerate the baseline with --update-golden",
                                  *bb, *m.bench_signature));
    if (baseline->meta.engine != m.engine)
      notes.push_back("the baseline was made by another engine (" + baseline->meta.engine + ")");
    else if (baseline->meta.engine_settings != m.engine_settings)
      notes.push_back("the baseline was made with other engine settings than this run's");
    for (const std::string& note : notes) summary += "\n  note: " + note;
  }
  if (m.min_solved >= 0) {
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
      gate_failed = true;
    }
    summary += fmt::format("\n  min-solved {}: {}", m.min_solved,
                           !check_min ? "not checked on a shard" : solved >= m.min_solved ? "met" : "MISSED");
    suite.cases.push_back(std::move(tc));
  }
  suite.time_s = total_time;
  suite.system_out = summary + "\n";

  md << "- solved: **" << solved << " / " << n << "**, engine errors: " << errors << "\n";
  if (cmp)
    md << "- baseline `" << m.baseline_file << "` (engine " << baseline->meta.engine
       << ", bench signature " << bench_text(baseline->meta.bench_signature)
       << "): regressions " << cmp->regressions.size()
       << (cmp->regressions.empty() ? "" : " (" + joined(cmp->regressions, ", ") + ")")
       << ", new solves " << cmp->new_solves.size()
       << (cmp->new_solves.empty() ? "" : " (" + joined(cmp->new_solves, ", ") + ")") << "\n";
  for (const std::string& note : notes) md << "- note: " << note << "\n";
  if (m.min_solved >= 0) md << "- min-solved: " << m.min_solved << "\n";
  md << "- gate: " << (gate_failed ? "**FAILED**" : "passed") << "\n" << table.str();

  epd_report.figures = to_json(run, cmp, false);
  epd_report.markdown = md.str();
  const report::ReportPaths paths = report::report_paths(out_dir, "epd", stem);
  report::write_run_report(epd_report, paths);
  Published out;
  out.exit_code = gate_failed ? 1 : 0;
  out.summary = summary;
  out.junit_path = paths.junit;
  out.json_path = paths.json;
  out.md_path = paths.markdown;
  return out;
}

}  // namespace stk::harness::epd
