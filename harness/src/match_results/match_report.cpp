#include "match_results/match_report.h"

#include <fmt/format.h>

#include "cli/cli.h"
#include "match_results/aa_mirror.h"
#include "match_results/game_diagnostics.h"
#include "match_results/match_analysis.h"
#include "match_results/match_result_file.h"
#include "match_results/shard_homogeneity.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness::match {

namespace {

MatchAnalysis analysis_of(const MatchResult& r) {
  if (r.counts().penta.pairs() == 0)
    throw InputError("match '" + r.definition().config +
                     "': no game pairs played, nothing to judge");
  return analyse(r.counts().penta, r.counts().wdl, r.definition().sprt);
}

}  // namespace

GateOutcome evaluate_gate(const MatchResult& r) {
  const MatchAnalysis a = analysis_of(r);
  const MatchDefinition& d = r.definition();
  const EloEstimate& e = *a.penta_estimate;
  const std::optional<SprtResult>& s = a.sprt_result;
  auto sprt_text = [&] {
    return s->verdict == Verdict::Continue ? std::string("SPRT undecided")
                                           : "SPRT " + std::string(to_string(s->verdict));
  };
  switch (d.gate.mode) {
    case GateMode::Gain: return {s->verdict == Verdict::AcceptH1, sprt_text()};
    case GateMode::NonRegression: {
      auto bar = [&] {
        const bool above = e.elo_lower > *d.gate.min_elo_lower95;
        return GateOutcome{above, fmt::format("Elo lower95 {:.2f} {} {:.2f}", e.elo_lower,
                                              above ? ">" : "<=", *d.gate.min_elo_lower95)};
      };
      if (!s) return bar();
      // A bounded run (the premerge tier) gives both: the SPRT decides when it reaches a bound, and
      // the bar judges a run that ended undecided at its pair budget.
      if (s->verdict != Verdict::Continue || !d.gate.min_elo_lower95)
        return {s->verdict == Verdict::AcceptH1, sprt_text()};
      GateOutcome g = bar();
      g.verdict = "SPRT undecided at the pair budget, " + g.verdict;
      return g;
    }
    case GateMode::AAControl: {
      const bool contains_zero = e.elo_lower <= 0 && 0 <= e.elo_upper;
      const bool h1 = s && s->verdict == Verdict::AcceptH1;
      std::string why = fmt::format("Elo 95% [{:.2f}, {:.2f}] {} 0", e.elo_lower, e.elo_upper,
                                    contains_zero ? "contains" : "excludes");
      if (s) why += ", " + sprt_text();
      if (!fixed_budget(d)) return {contains_zero && !h1, why};
      // At fixed nodes or depth the interval is [0, 0] by construction: every pair must be mirrored.
      const MirrorCheck m = check_mirrored(r);
      return {m.not_mirrored.empty() && contains_zero && !h1,
              m.text() +
                  (m.not_mirrored.empty()
                       ? ""
                       : ": non-determinism or state shared between games or engines") +
                  " (fixed budget); " + why};
    }
  }
  return {false, "unknown gate"};
}

std::uint64_t games_lost_by_fault(const MatchResult& r) {
  std::uint64_t n = 0;
  for (const PairRecord& p : r.pairs())
    for (const GameRecord& g : p.games) n += is_fault(g.termination) ? 1 : 0;
  return n;
}

std::string MatchPublished::verdict_line() const {
  return summary.substr(summary.rfind('\n', summary.size() - 2) + 1);
}

MatchPublished publish_match(const MatchResult& r,
                             const std::vector<std::pair<std::string, std::string>>& properties,
                             const std::string& out_dir, std::string stem,
                             const PublishOptions& options) {
  const HomogeneityResult* homogeneity = options.homogeneity;
  const MatchDefinition& d = r.definition();
  if (stem.empty()) stem = d.config;
  const MatchAnalysis a = analysis_of(r);
  const GateOutcome gate = evaluate_gate(r);
  MatchPublished pub;
  const report::ReportPaths paths = report::report_paths(out_dir, "match", stem);
  pub.json_path = paths.json;
  pub.md_path = paths.markdown;
  pub.junit_path = paths.junit;
  const std::string shards = fmt::format("{} of {}", fmt::join(r.shards(), ","), d.shard_count);
  const std::string head = fmt::format(
      "match {}: {} vs {}, tc {}, openings {} (seed {}), shard(s) {}, {} of {} planned pairs\n",
      d.config, d.engines[0].name, d.engines[1].name, d.time_control, d.openings_file,
      d.openings_seed, shards, r.pairs().size(), d.pairs_planned);
  const std::string verdict = fmt::format("{} gate {}: {}", to_string(d.gate.mode),
                                          gate.passed ? "passed" : "FAILED", gate.verdict);
  const TerminationTable ends = termination_table(r);
  const std::string ended = fmt::format("ended: {}\nfaults: {}\n", termination_line(ends),
                                        fault_line(ends, d));
  const std::string spread = homogeneity ? homogeneity_line(*homogeneity) + "\n" : "";
  pub.summary = head + to_text(a) + ended + spread + verdict + "\n";

  // One testcase for the match, with the inputs as properties.
  junit::TestSuite suite;
  suite.name = "match." + stem;
  for (const auto& [k, v] : properties) suite.property(k, v);
  for (int i = 0; i < 2; ++i) {
    const std::string e = i == 0 ? "engine_a" : "engine_b";
    suite.property(e + ".name", d.engines[i].name);
    suite.property(e + ".command", d.engines[i].command);
    for (const auto& [k, v] : d.engines[i].options) suite.property(e + ".option." + k, v);
  }
  suite.property("time_control", d.time_control);
  for (const auto& [k, v] : d.settings) suite.property("setting." + k, v);
  suite.property("openings.file", d.openings_file);
  suite.property("openings.seed", std::to_string(d.openings_seed));
  suite.property("openings.pairs_planned", std::to_string(d.pairs_planned));
  suite.property("shards", shards);
  if (d.sprt)
    suite.property("sprt", fmt::format("{} [{}, {}] alpha {} beta {}", to_string(d.sprt->model),
                                       d.sprt->elo0, d.sprt->elo1, d.sprt->alpha, d.sprt->beta));
  suite.property("gate", to_string(d.gate.mode));
  if (d.gate.min_elo_lower95)
    suite.property("gate.min_elo_lower95", fmt::format("{}", *d.gate.min_elo_lower95));
  for (const auto& [kind, row] : ends)
    suite.property(std::string("terminations.") + to_string(kind), engine_colour_text(row));
  if (homogeneity) {
    suite.property("homogeneity", homogeneity_line(*homogeneity));
    suite.property("homogeneity.flagged", homogeneity->flagged ? "true" : "false");
    suite.property("homogeneity.p_value", fmt::format("{:.6g}", homogeneity->p_value));
    suite.property("homogeneity.seed", std::to_string(homogeneity->options.seed));
  }
  junit::add_build_properties(suite);
  junit::TestCase tc;
  tc.classname = "match." + stem;
  tc.name = std::string("gate-") + to_string(d.gate.mode);
  tc.outcome = gate.passed ? junit::Outcome::Passed : junit::Outcome::Failed;
  tc.message = gate.verdict + ": " + one_line(a) + "; ended: " + termination_line(ends) +
               "; faults: " + fault_line(ends, d);
  (gate.passed ? tc.system_out : tc.detail) = pub.summary;
  suite.cases.push_back(tc);
  std::string fault_verdict;  // "faults passed: ..." with --max-faults
  if (options.max_faults) {
    const std::uint64_t faults = games_lost_by_fault(r);
    suite.property("max_faults", std::to_string(*options.max_faults));
    junit::TestCase f;
    f.classname = "match." + stem;
    f.name = "faults";
    const bool ok = faults <= *options.max_faults;
    f.outcome = ok ? junit::Outcome::Passed : junit::Outcome::Failed;
    f.message = fmt::format("{} of {} games ended by a fault, at most {} allowed: {}", faults,
                            2 * r.pairs().size(), *options.max_faults, fault_line(ends, d));
    (ok ? f.system_out : f.detail) = f.message + "\n" +
                                     (faults ? "reproducers: " + out_dir + "/repro/\n" : "");
    suite.cases.push_back(f);
    fault_verdict = fmt::format("faults {}: {}\n", ok ? "passed" : "FAILED", f.message);
    pub.summary += fault_verdict;
  }

  // Through the one report model: the summary JSON is the merged match itself (the envelope under
  // "report", which match-merge ignores on reading), so the file stays readable by match-merge.
  report::RunReport run("match", stem);
  run.suites.push_back(std::move(suite));
  run.figures = to_json(r);
  if (homogeneity) run.figures["homogeneity"] = homogeneity_json(*homogeneity);
  run.markdown = fmt::format("{}\n```\n{}```\n\n**{}**\n{}{}{}", head, to_text(a), verdict,
                             fault_verdict.empty() ? "" : "\n" + fault_verdict,
                             spread.empty() ? "" : "\n" + spread, diagnostics_markdown(r));
  report::write_run_report(run, paths);
  pub.exit_code = report::exit_status(run);  // the testcase's verdict, not the gate's flag
  return pub;
}

}  // namespace stk::harness::match
