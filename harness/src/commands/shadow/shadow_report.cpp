#include "commands/shadow/shadow_report.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "proc/process.h"
#include "report/summary_files.h"

namespace stk::harness::shadow {

namespace {

using Json = nlohmann::ordered_json;

// One miss (or control hit) as a JSON object: a line of the -misses.jsonl / -control-hits.jsonl files.
Json miss_json(const Miss& m) {
  Json j = Json::object();
  j["mechanism"] = search::mechanism_name(m.mechanism);
  if (m.control) j["control"] = control_name(control_of(m.mechanism));
  j["depth"] = m.depth;
  j["reduction"] = m.reduction;
  j["move_number"] = m.move_number;
  j["predicted_fh"] = nullptr;
  j["alpha"] = m.alpha;
  j["beta"] = m.beta;
  j["real_score"] = m.real_score ? Json(*m.real_score) : Json(nullptr);
  j["shadow_score"] = m.shadow_score;
  j["shadow_depth"] = m.shadow_depth;
  j["shadow_nodes"] = m.shadow_nodes;
  j["fen"] = m.fen;
  j["move"] = m.move == Move::none() ? Json(nullptr) : Json(to_uci(m.move));
  j["root_id"] = m.root_id;
  j["path"] = path_uci(m.path);
  j["ply"] = m.ply;
  j["open_values"] = m.open_values;
  j["verdict"] = m.verdict;
  j["refuted_at_depth"] = bool(m.refuted_at_depth);
  j["artifact_signature"] = has_artifact_signature(m);
  return j;
}

std::string jsonl(const std::vector<Miss>& misses) {
  std::string out;
  for (const Miss& m : misses)
    out += miss_json(m).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  return out;
}

std::string python() {
  const char* env = std::getenv("STK_PYTHON");
  return env && *env ? env : ".venv/bin/python";
}

std::string pct(double x) { return fmt::format("{:.2f}%", 100 * x); }
std::string pct_interval(const Interval& i) {
  return fmt::format("[{:.2f}, {:.2f}]%", 100 * i.lo, 100 * i.hi);
}

junit::TestCase failed_case(junit::TestCase tc, const std::string& message,
                            const std::string& detail = "") {
  tc.outcome = junit::Outcome::Failed;
  tc.message = message;
  tc.detail = detail.empty() ? message : detail;
  std::cerr << "shadow: " << tc.name << ": " << message << "\n";
  return tc;
}

Json excess_json(const Excess& e) {
  return Json{{"audited", e.n1},
              {"misses", e.k1},
              {"rate", e.miss_rate},
              {"wilson_lo", e.miss_wilson.lo},
              {"wilson_hi", e.miss_wilson.hi},
              {"control_audited", e.n2},
              {"control_hits", e.k2},
              {"control_rate", e.control_rate},
              {"control_wilson_lo", e.control_wilson.lo},
              {"control_wilson_hi", e.control_wilson.hi},
              {"excess", e.excess},
              {"excess_lo", e.bootstrap.lo},
              {"excess_hi", e.bootstrap.hi},
              {"excess_newcombe_lo", e.newcombe.lo},
              {"excess_newcombe_hi", e.newcombe.hi}};
}

// The Markdown tables the summary fills beside its JSON.
struct Tables {
  std::string mech, rates, verdicts, gates, top;
};

// The run's settings and totals: the head of the summary JSON.
Json summary_head(const ShadowSettings& s, std::size_t positions, const RunTotals& t,
                  const RunFigures& f) {
  Json json;
  json["config"] = s.config;
  json["epd"] = s.epd_file;
  json["budget"] = s.budget;
  json["stride"] = s.stride;
  json["shard"] = s.shard.label();
  json["isolation"] = s.isolation;
  json["controls"] = s.search.audit.controls;
  json["control_every"] = s.search.audit.control_every;
  json["max_control"] = s.max_control;  // the control gate, drawn on the rates chart
  json["bootstrap"] = {{"method", "cluster bootstrap over root positions, percentile 95%"},
                       {"seed", s.boot.seed},
                       {"resamples", s.boot.resamples}};
  json["positions"] = positions;
  json["real_nodes"] = t.real_nodes;
  json["shadow_nodes"] = t.shadow_nodes;
  json["control_nodes"] = t.control_nodes;
  json["journal_peak"] = t.journal_peak;
  json["nps_audit_off"] = std::round(f.nps_off);
  json["nps_audit_on_real"] = std::round(f.nps_on);
  json["nps_audit_on_all"] = std::round(f.nps_on_all);
  json["invariant_failures"] = t.invariant_failures;
  json["misses"] = t.misses.size();
  json["control_hits"] = t.control_hits.size();
  json["classify_depths"] = s.classify_depths;
  json["artifact_signature"] = {{"misses_depth_ge_3", f.art.misses},
                                {"signature", f.art.signature},
                                {"share", f.art.share()},
                                {"max", s.max_artifact}};
  json["depth_check"] = {{"mismatches", f.mismatches}, {"first", Json::array()}};
  for (const DepthMismatch& d : t.depth_mismatches)
    json["depth_check"]["first"].push_back({{"mechanism", search::mechanism_name(d.mechanism)},
                                            {"control", d.control},
                                            {"depth", d.depth},
                                            {"expected", d.expected},
                                            {"entered", d.entered},
                                            {"why", d.why},
                                            {"fen", d.fen},
                                            {"root_id", d.root_id}});
  return json;
}

// Per mechanism over all depths.
void add_mechanisms(Json& json, std::string& md, const ShadowSettings& s, const RunTotals& t) {
  json["mechanisms"] = Json::array();
  for (int mi = 0; mi < search::kMechanismCount; ++mi) {
    const Mechanism m = Mechanism(mi);
    const Excess e = band_excess(t, s.boot, m, 0, kDepthCells - 1);
    Json j = {{"mechanism", search::mechanism_name(m)}, {"control", control_name(control_of(m))}};
    j.update(excess_json(e));
    std::uint64_t replayed = 0;
    for (const ControlCell& cc : t.counts.controls[int(control_of(m))]) replayed += cc.replayed;
    j["control_replayed"] = replayed;
    json["mechanisms"].push_back(j);
    md += fmt::format(
        "| {} | {} | {} / {} = {} | {} | {} / {} = {} {} | {} | {:+.2f}% [{:+.2f}, {:+.2f}]% | "
        "[{:+.2f}, {:+.2f}]% |\n",
        search::mechanism_name(m), control_name(control_of(m)), e.k1, e.n1, pct(e.miss_rate),
        pct_interval(e.miss_wilson), e.k2, e.n2, pct(e.control_rate),
        pct_interval(e.control_wilson), replayed, 100 * e.excess, 100 * e.bootstrap.lo,
        100 * e.bootstrap.hi, 100 * e.newcombe.lo, 100 * e.newcombe.hi);
  }
}

// Per mechanism x remaining depth cell.
void add_cells(Json& json, std::string& md, const ShadowSettings& s, const RunTotals& t) {
  json["cells"] = Json::array();
  for (int mi = 0; mi < search::kMechanismCount; ++mi)
    for (int d = 0; d < kDepthCells; ++d) {
      const Mechanism m = Mechanism(mi);
      const Cell& c = t.counts.decisions[mi][d];
      if (!c.audited && !c.discarded) continue;
      const ControlCell& cc = t.counts.controls[int(control_of(m))][d];
      const Excess e = band_excess(t, s.boot, m, d, d);
      Json j = {{"mechanism", search::mechanism_name(m)}, {"depth", d}};
      j.update(excess_json(e));
      j["discarded"] = c.discarded;
      j["control"] = control_name(control_of(m));
      j["control_replayed"] = cc.replayed;
      j["control_discarded"] = cc.discarded;
      j["depth_mismatches"] = c.depth_mismatches + cc.depth_mismatches;
      json["cells"].push_back(j);
      md += fmt::format(
          "| {} | {} | {} | {} | {} {} | {} | {} | {} {} | {:+.2f}% [{:+.2f}, {:+.2f}]% | {} |\n",
          search::mechanism_name(m), d, c.audited, c.misses, pct(e.miss_rate),
          pct_interval(e.miss_wilson), cc.audited, cc.hits, pct(e.control_rate),
          pct_interval(e.control_wilson), 100 * e.excess, 100 * e.bootstrap.lo,
          100 * e.bootstrap.hi, c.discarded + cc.discarded);
    }
}

void add_controls_by_depth(Json& json, const RunTotals& t) {
  json["controls_by_depth"] = Json::array();
  for (int ci = 0; ci < kControlCount; ++ci) {
    Json cells = Json::array();
    for (int d = 0; d < kDepthCells; ++d) {
      const ControlCell& cc = t.counts.controls[ci][d];
      if (!cc.audited && !cc.discarded) continue;
      const Interval w = wilson(cc.hits, cc.audited);
      cells.push_back({{"depth", d},
                       {"audited", cc.audited},
                       {"hits", cc.hits},
                       {"replayed", cc.replayed},
                       {"discarded", cc.discarded},
                       {"rate", cc.audited ? double(cc.hits) / double(cc.audited) : 0.0},
                       {"wilson_lo", w.lo},
                       {"wilson_hi", w.hi}});
    }
    json["controls_by_depth"].push_back({{"control", control_name(Control(ci))},
                                         {"candidates", t.counts.candidates[ci]},
                                         {"sampled", t.counts.sampled[ci]},
                                         {"cells", cells}});
  }
}

// Verdicts per mechanism, then misses per root position (most first; sorts t's list).
void add_verdicts_and_roots(Json& json, std::string& md, RunTotals& t, const RunFigures& f) {
  json["verdicts"] = Json::object();
  for (auto [mech, v] : f.verdicts) {
    json["verdicts"][mech] = {{"genuine", v["genuine"]},
                              {"noise", v["noise"]},
                              {"mixed", v["mixed"]},
                              {"unclassified", v["unclassified"]},
                              {"unsampled", v["unsampled"]}};
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", mech, v["genuine"], v["noise"],
                      v["mixed"], v["unclassified"], v["unsampled"]);
  }
  std::sort(t.misses_per_position.begin(), t.misses_per_position.end(),
            [](auto& a, auto& b) { return a.second > b.second; });
  json["misses_per_position"] = Json::object();
  for (auto& [id, n] : t.misses_per_position) json["misses_per_position"][id] = n;
}

// The gate testcases, each also a row of the Markdown gate table.
class Gates {
 public:
  Gates(const ShadowSettings& s, const RunTotals& t, const RunFigures& f, junit::TestSuite& suite,
        std::string& md)
      : s_(s), t_(t), f_(f), suite_(suite), md_(md) {}

  void add_all() {
    for (const BandGate& g : s_.excess_gates)
      for (int mi = 0; mi < search::kMechanismCount; ++mi)
        if (g.covers(mi)) excess(g, Mechanism(mi));
    for (int mi = 0; mi < search::kMechanismCount; ++mi) control(Mechanism(mi));
    for (int mi : s_.required) sensitivity(Mechanism(mi));
    for (int mi = 0; mi < search::kMechanismCount; ++mi)
      for (bool is_control : {false, true}) depth(Mechanism(mi), is_control);
    for (const BandGate& g : s_.rate_gates)
      for (int mi = 0; mi < search::kMechanismCount; ++mi)
        if (g.covers(mi)) rate(g, mi);
    artifacts();
  }

 private:
  const ShadowSettings& s_;
  const RunTotals& t_;
  const RunFigures& f_;
  junit::TestSuite& suite_;
  std::string& md_;

  Excess all_depths(Mechanism m) const { return band_excess(t_, s_.boot, m, 0, kDepthCells - 1); }

  void add(const junit::TestCase& tc, const std::string& value, const std::string& limit) {
    md_ += fmt::format("| {} | {} | {} | {} | {} |\n", tc.classname, tc.name, value, limit,
                       tc.outcome == junit::Outcome::Failed ? "**FAIL**" : "ok");
    suite_.cases.push_back(tc);
  }

  void excess(const BandGate& g, Mechanism m) {
    const Excess e = band_excess(t_, s_.boot, m, g.lo, g.hi);
    junit::TestCase tc;
    tc.classname = "shadow.excess";
    tc.name = fmt::format("{} depth {}", search::mechanism_name(m), g.text);
    tc.facts = {{"misses", fmt::format("{}/{}", e.k1, e.n1)},
                {"control_hits", fmt::format("{}/{}", e.k2, e.n2)},
                {"excess", fmt::format("{:.5f}", e.excess)},
                {"excess_bootstrap_95",
                 fmt::format("[{:.5f}, {:.5f}]", e.bootstrap.lo, e.bootstrap.hi)},
                {"excess_newcombe_95",
                 fmt::format("[{:.5f}, {:.5f}]", e.newcombe.lo, e.newcombe.hi)}};
    if (excess_gate_fails(e, g.value) && !e.defined())
      tc = failed_case(
          tc,
          fmt::format("{} decisions and no control in this band: the excess is undefined", e.n1));
    else if (excess_gate_fails(e, g.value))
      tc = failed_case(
          tc,
          fmt::format("excess {:.4f} (miss {}/{}, control {}/{}; 95% lower bound {:.4f}) above {}",
                      e.excess, e.k1, e.n1, e.k2, e.n2, e.bootstrap.lo, g.value));
    add(tc, excess_text(e), fmt::format("lower bound <= {}", g.value));
  }

  void control(Mechanism m) {
    const Excess e = all_depths(m);
    junit::TestCase tc;
    tc.classname = "shadow.control";
    tc.name = fmt::format("{} control ({})", search::mechanism_name(m),
                          control_name(control_of(m)));
    tc.facts = {{"control_hits", fmt::format("{}/{}", e.k2, e.n2)},
                {"wilson_95",
                 fmt::format("[{:.5f}, {:.5f}]", e.control_wilson.lo, e.control_wilson.hi)}};
    if (control_gate_fails(e, s_.max_control) && e.n2 == 0)
      tc = failed_case(tc,
                       fmt::format("{} decisions audited and no control search completed", e.n1));
    else if (control_gate_fails(e, s_.max_control))
      tc = failed_case(
          tc, fmt::format("control rate {}/{} = {:.4f} (Wilson lower bound {:.4f}) above {}: the "
                          "shadow search is not isolated as claimed (isolation {})",
                          e.k2, e.n2, e.control_rate, e.control_wilson.lo, s_.max_control,
                          s_.isolation));
    add(tc,
        fmt::format("{:.4f}% [{:.4f}, {:.4f}]%", 100 * e.control_rate, 100 * e.control_wilson.lo,
                    100 * e.control_wilson.hi),
        fmt::format("lower bound <= {}", s_.max_control));
  }

  void sensitivity(Mechanism m) {
    const Excess e = all_depths(m);
    junit::TestCase tc;
    tc.classname = "shadow.sensitivity";
    tc.name = fmt::format("{} excess over all depths > 0", search::mechanism_name(m));
    tc.facts = {{"excess", fmt::format("{:.5f}", e.excess)},
                {"excess_bootstrap_95",
                 fmt::format("[{:.5f}, {:.5f}]", e.bootstrap.lo, e.bootstrap.hi)}};
    if (sensitivity_gate_fails(e))
      tc = failed_case(
          tc, fmt::format(
                  "excess {:.4f} (miss {}/{}, control {}/{}; 95% interval [{:.4f}, {:.4f}]) not "
                  "significantly above 0: the miss searches find no more than their controls "
                  "(a shadow at the decision's own depth?)",
                  e.excess, e.k1, e.n1, e.k2, e.n2, e.bootstrap.lo, e.bootstrap.hi));
    add(tc, excess_text(e), "lower bound > 0");
  }

  void depth(Mechanism m, bool is_control) {
    if (is_control && m != Mechanism::Lmr && m != Mechanism::NullMove && m != Mechanism::Lmp &&
        m != Mechanism::StaticNull)
      return;  // futility and SEE share LMP's control population
    std::uint64_t n = 0, bad = 0;
    for (int d = 0; d < kDepthCells; ++d) {
      if (is_control) {
        const ControlCell& c = t_.counts.controls[int(control_of(m))][d];
        n += c.audited + c.discarded, bad += c.depth_mismatches;
      } else {
        const Cell& c = t_.counts.decisions[int(m)][d];
        n += c.audited + c.discarded, bad += c.depth_mismatches;
      }
    }
    junit::TestCase tc;
    tc.classname = "shadow.depth";
    tc.name = is_control ? fmt::format("{} control shadow roots", control_name(control_of(m)))
                         : fmt::format("{} shadow roots", search::mechanism_name(m));
    tc.facts = {{"shadow_searches", std::to_string(n)}, {"mismatches", std::to_string(bad)}};
    if (bad) {
      std::string detail;
      for (const DepthMismatch& d : t_.depth_mismatches)
        if (d.mechanism == m && d.control == is_control)
          detail += fmt::format("{} depth {}: expected {}, entered {} ({}) at {}\n", d.root_id,
                                d.depth, d.expected,
                                d.entered == kNotEntered ? std::string("never")
                                                         : std::to_string(d.entered),
                                d.why, d.fen);
      tc = failed_case(
          tc,
          fmt::format("{} of {} shadow roots entered at another depth than the audit recomputed",
                      bad, n),
          detail);
    }
    add(tc, fmt::format("{} of {}", bad, n), "0 mismatches");
  }

  void rate(const BandGate& g, int mi) {
    std::uint64_t n = 0, k = 0;
    for (int d = g.lo; d <= g.hi; ++d)
      n += t_.counts.decisions[mi][d].audited, k += t_.counts.decisions[mi][d].misses;
    const Interval w = wilson(k, n);
    junit::TestCase tc;
    tc.classname = "shadow.rate";
    tc.name = fmt::format("{} depth {}", search::mechanism_name(Mechanism(mi)), g.text);
    tc.facts = {{"audited", std::to_string(n)},
                {"misses", std::to_string(k)},
                {"wilson_lo", fmt::format("{:.4f}", w.lo)},
                {"wilson_hi", fmt::format("{:.4f}", w.hi)}};
    if (n > 0 && w.lo > g.value)
      tc = failed_case(tc, fmt::format("miss rate {}/{} (Wilson lower bound {:.3f}) above {}", k, n,
                                       w.lo, g.value));
    add(tc, fmt::format("{:.4f} [{:.4f}, {:.4f}]", n ? double(k) / n : 0.0, w.lo, w.hi),
        fmt::format("lower bound <= {}", g.value));
  }

  void artifacts() {
    const ArtifactShare& art = f_.art;
    junit::TestCase tc;
    tc.classname = "shadow.artifacts";
    tc.name = "fabricated-bound signature share";
    tc.facts = {{"misses_depth_ge_3", std::to_string(art.misses)},
                {"signature", std::to_string(art.signature)},
                {"share", fmt::format("{:.4f}", art.share())}};
    if (art.share() > s_.max_artifact)
      tc = failed_case(
          tc,
          fmt::format("{} of {} misses at depth >= 3 look fabricated (share {:.3f} > {})",
                      art.signature, art.misses, art.share(), s_.max_artifact),
          fmt::format(
              "{} of {} misses at depth >= 3 look fabricated (share {:.3f} > {})\nA mechanism "
              "that fabricates a bound to signal its caller is active in the shadow search.",
              art.signature, art.misses, art.share(), s_.max_artifact));
    add(tc, fmt::format("{:.3f}", art.share()), fmt::format("<= {}", s_.max_artifact));
  }
};

// Top misses: genuine first, then by distance beyond the window.
void add_top_misses(Json& json, std::string& md, const RunTotals& t) {
  std::vector<const Miss*> top;
  for (const Miss& m : t.misses) top.push_back(&m);
  auto gap = [](const Miss* m) {
    return node_level(m->mechanism) ? m->beta - m->shadow_score : m->shadow_score - m->alpha;
  };
  std::stable_sort(top.begin(), top.end(), [&](const Miss* a, const Miss* b) {
    bool ga = a->verdict == "genuine", gb = b->verdict == "genuine";
    return ga != gb ? ga : gap(a) > gap(b);
  });
  if (top.size() > 20) top.resize(20);
  json["top_misses"] = Json::array();
  for (const Miss* m : top) {
    json["top_misses"].push_back(miss_json(*m));
    md += fmt::format("| {} | {} | {} | {} | [{}, {}] | {} | {} | `{}` | {} |\n", m->root_id,
                      search::mechanism_name(m->mechanism), m->depth,
                      m->move == Move::none() ? "-" : to_uci(m->move), m->alpha, m->beta,
                      m->shadow_score, m->verdict, m->fen, path_uci(m->path));
  }
}

// The rate plot (Python, matplotlib Agg) from the figures, written to a scratch file for it; a
// failure is reported (a skipped testcase), never silent. Returns the note for the page ("" if made).
std::string make_plot(const Json& json, const std::string& dir, const std::string& config,
                      report::RunReport& run, junit::TestSuite& suite) {
  const std::string png = config + "-rates.png";
  std::string plot_note;
  const std::string plot_input = dir + config + "-plot-input.json";
  write_text_file(plot_input, json.dump(-1, ' ', false, Json::error_handler_t::replace));
  // Absolute paths: a relative one starting with '-' would read as an option.
  const proc::RunResult plot = proc::run({python(), "-m", "stkref.shadowplot",
                                          std::filesystem::absolute(plot_input).string(),
                                          std::filesystem::absolute(dir + png).string()});
  const std::string& out = plot.output;
  const int rc = plot.exit_code;
  std::filesystem::remove(plot_input);
  junit::TestCase tc;
  tc.classname = "shadow.plot";
  tc.name = "rate by depth PNG";
  if (rc != 0) {
    plot_note = "plot NOT made (" + python() +
                " -m stkref.shadowplot failed; set STK_PYTHON): " + out;
    tc.outcome = junit::Outcome::Skipped;
    tc.message = "plot could not be made: " + out.substr(0, 200);
    std::cerr << "shadow: " << plot_note << "\n";
  } else {
    run.plots.push_back(png);
  }
  suite.cases.push_back(tc);
  return plot_note;
}

std::string markdown(const ShadowSettings& s, std::size_t positions, const RunTotals& t,
                     const RunFigures& f, const Tables& md_t, const std::string& plot_note) {
  const ArtifactShare& art = f.art;
  std::string md = fmt::format(
      "Silent-miss audit: {} positions of {} (stride {}, shard {}), {}, isolation {}.\n\n",
      positions, s.epd_file, s.stride, s.shard.label(), s.budget, s.isolation);
  md += fmt::format(
      "- invariant (audit on vs off: best, score, PV, real nodes, every iteration): {}\n",
      t.invariant_failures ? fmt::format("**{} positions differ**", t.invariant_failures)
                           : "identical on every position");
  md += fmt::format("- real nodes {}, shadow nodes {} ({:.1f}x; controls {})\n", t.real_nodes,
                    t.shadow_nodes, t.real_nodes ? double(t.shadow_nodes) / t.real_nodes : 0.0,
                    t.control_nodes);
  md += fmt::format(
      "- nodes/s: audit off {:.0f}; audit on {:.0f} real nodes/s ({:.0f} counting shadow nodes); "
      "classification {:.1f}s\n",
      f.nps_off, f.nps_on, f.nps_on_all, f.classify_time);
  md += fmt::format(
      "- controls: LMR and null move on every decision; LMP/futility/SEE and static null on every {}-th "
      "candidate (searched move: {} of {}; searched node, depth <= {}: {} of {})\n",
      s.search.audit.control_every, t.counts.sampled[int(Control::SearchedMove)],
      t.counts.candidates[int(Control::SearchedMove)], kNodeControlMaxDepth,
      t.counts.sampled[int(Control::SearchedNode)],
      t.counts.candidates[int(Control::SearchedNode)]);
  md += fmt::format(
      "- excess intervals: cluster bootstrap over root positions (seed {}, {} resamples, percentile "
      "95%); Newcombe's hybrid score interval (independent decisions) beside it\n",
      s.boot.seed, s.boot.resamples);
  md += fmt::format("- depth check: {} shadow roots entered at another depth than recomputed\n",
                    f.mismatches);
  md += fmt::format(
      "- fabricated-bound signature: {} of {} classified misses at depth >= 3 ({:.3f}, gate <= {})\n\n",
      art.signature, art.misses, art.share(), s.max_artifact);
  md +=
      "## Per mechanism (all depths)\n\n| mechanism | control | misses | Wilson 95% | control hits | controls "
      "replayed node for node | excess [bootstrap 95%] | Newcombe 95% |\n|---|---|---|---|---|---|---|---|\n" +
      md_t.mech;
  md +=
      "\n## Miss and control rates (mechanism x remaining depth)\n\n| mechanism | depth | audited | misses | rate "
      "[Wilson 95%] | controls | hits | control rate [Wilson 95%] | excess [bootstrap 95%] | discarded |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n" +
      md_t.rates;
  md += "\n## Gates\n\n| class | gate | value [95%] | limit | result |\n|---|---|---|---|---|\n" +
        md_t.gates;
  md +=
      fmt::format(
          "\n## Genuine vs noise (open window at d..d+{})\n\n| mechanism | genuine | noise | mixed | "
          "unclassified | unsampled |\n|---|---|---|---|---|---|\n",
          s.classify_depths) +
      md_t.verdicts;
  md += "\n## Misses per root position\n\n";
  for (auto& [id, n] : t.misses_per_position) md += fmt::format("- {}: {}\n", id, n);
  md +=
      "\n## Top misses\n\n| root | mechanism | depth | move | window | shadow | verdict | FEN | path |\n"
      "|---|---|---|---|---|---|---|---|---|\n" +
      md_t.top;
  if (!plot_note.empty()) md += "\n## Plot\n\n" + plot_note + "\n";
  return md;
}

}  // namespace

report::RunReport build_shadow_report(const ShadowSettings& s, std::size_t positions, RunTotals& t,
                                      const RunFigures& f, junit::TestSuite suite,
                                      const report::ReportPaths& paths) {
  Tables md;
  Json json = summary_head(s, positions, t, f);
  add_mechanisms(json, md.mech, s, t);
  add_cells(json, md.rates, s, t);
  add_controls_by_depth(json, t);
  add_verdicts_and_roots(json, md.verdicts, t, f);
  Gates(s, t, f, suite, md.gates).add_all();
  add_top_misses(json, md.top, t);

  // Beside the summary: every miss and control hit, one JSON object a line.
  const std::string dir = std::filesystem::path(paths.json).parent_path().string() + "/";
  write_text_file(dir + s.config + "-misses.jsonl", jsonl(t.misses));
  write_text_file(dir + s.config + "-control-hits.jsonl", jsonl(t.control_hits));

  report::RunReport run{"shadow", s.config};
  const std::string plot_note = make_plot(json, dir, s.config, run, suite);
  run.markdown = markdown(s, positions, t, f, md, plot_note);
  suite.time_s = t.audit_time + t.plain_time + f.classify_time;
  suite.system_out =
      fmt::format("nodes/s audit off {:.0f}, audit on {:.0f} (real), {:.0f} (real+shadow)\n",
                  f.nps_off, f.nps_on, f.nps_on_all);
  run.suites.push_back(std::move(suite));
  run.figures = std::move(json);
  return run;
}

void print_shadow_summary(const ShadowSettings& s, std::size_t positions, const RunTotals& t,
                          const RunFigures& f, const report::ReportPaths& paths) {
  std::cout << fmt::format(
      "shadow {} (isolation {}): {} positions, {} misses ({} genuine), {} control hits, "
      "invariant {}, depth mismatches {}, artifact share {:.3f}\n",
      s.config, s.isolation, positions, t.misses.size(),
      std::count_if(t.misses.begin(), t.misses.end(),
                    [](const Miss& m) { return m.verdict == "genuine"; }),
      t.control_hits.size(), t.invariant_failures ? "BROKEN" : "ok", f.mismatches, f.art.share());
  for (int mi = 0; mi < search::kMechanismCount; ++mi) {
    const Excess e = band_excess(t, s.boot, Mechanism(mi), 0, kDepthCells - 1);
    std::cout << fmt::format(
        "  {:<11} miss {:>7}/{:<9} {:>7}  control {:>6}/{:<8} {:>7}  excess {:+.3f}% [{:+.3f}, "
        "{:+.3f}]%\n",
        search::mechanism_name(Mechanism(mi)), e.k1, e.n1, pct(e.miss_rate), e.k2, e.n2,
        pct(e.control_rate), 100 * e.excess, 100 * e.bootstrap.lo, 100 * e.bootstrap.hi);
  }
  std::cout << fmt::format(
      "nodes/s: audit off {:.0f}, audit on {:.0f} real ({:.0f} with shadow nodes; shadow/real "
      "nodes {:.1f}x)\n",
      f.nps_off, f.nps_on, f.nps_on_all,
      t.real_nodes ? double(t.shadow_nodes) / t.real_nodes : 0.0);
  std::cout << "report: " << paths.junit << "\n";
}

}  // namespace stk::harness::shadow
