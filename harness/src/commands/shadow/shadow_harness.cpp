// stk-harness shadow: the silent-miss audit over an EPD suite. Each position is searched once by
// the engine's own search (Worker<NoPolicy>) and once with the shadow audit; the two must agree
// exactly (invariant gate). Every miss rate is reported beside its control rate (the same kind of
// search repeated where the real search's answer is known) and gated on the excess; the control
// rate, the depth every shadow root was entered with, and the fabricated-bound signature are
// gated too. Misses are classified by open-window re-searches.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "positions/epd_suite.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "report/summary_files.h"
#include "commands/shadow/shadow_audit.h"
#include "commands/shadow/shadow_gates.h"

namespace stk::harness {

namespace {

using namespace shadow;
using Json = nlohmann::ordered_json;

constexpr std::uint64_t kDefaultControlEvery = 1;

// Everything one run saw, summed and per root position (the bootstrap's clusters).
struct RunTotals {
  Counts counts{};
  std::vector<Counts> per_position;
  std::vector<Miss> misses, control_hits;
  std::vector<DepthMismatch> depth_mismatches;
  std::uint64_t real_nodes = 0, plain_nodes = 0, shadow_nodes = 0, control_nodes = 0;
  std::size_t journal_peak = 0;
  double audit_time = 0, plain_time = 0;
  int invariant_failures = 0;
  std::vector<std::pair<std::string, std::size_t>> misses_per_position;
};

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
  for (const Miss& m : misses) out += miss_json(m).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  return out;
}

std::string python() {
  const char* env = std::getenv("STK_PYTHON");
  return env && *env ? env : ".venv/bin/python";
}

std::string pct(double x) { return fmt::format("{:.2f}%", 100 * x); }
std::string excess_text(const Excess& e) {
  return fmt::format("{:+.3f}% [{:+.3f}, {:+.3f}]%", 100 * e.excess, 100 * e.bootstrap.lo, 100 * e.bootstrap.hi);
}
std::string pct_interval(const Interval& i) { return fmt::format("[{:.2f}, {:.2f}]%", 100 * i.lo, 100 * i.hi); }

junit::TestCase failed_case(junit::TestCase tc, const std::string& message, const std::string& detail = "") {
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

// Classification sample, depth-aware (LESSONS: uniform subsampling starves the rare deep cells):
// up to `max` misses, the same quota per mechanism x depth cell, evenly spaced within a cell.
// Misses left out get the verdict "unsampled".
void classify_sample(std::vector<Miss>& misses, std::size_t max, int depths, std::uint64_t nodes) {
  std::map<std::pair<int, int>, std::vector<std::size_t>> cells;
  for (std::size_t i = 0; i < misses.size(); ++i) cells[{int(misses[i].mechanism), misses[i].depth}].push_back(i);
  const std::size_t quota = cells.empty() ? 0 : std::max<std::size_t>(1, max / cells.size());
  std::vector<std::size_t> chosen;
  for (auto& [key, idx] : cells) {
    if (idx.size() <= quota) chosen.insert(chosen.end(), idx.begin(), idx.end());
    else for (std::size_t k = 0; k < quota; ++k) chosen.push_back(idx[k * idx.size() / quota]);
  }
  std::vector<Miss> sample;
  for (std::size_t i : chosen) sample.push_back(misses[i]);
  classify(sample, depths, nodes);
  for (Miss& m : misses) m.verdict = "unsampled";
  for (std::size_t k = 0; k < chosen.size(); ++k) misses[chosen[k]] = std::move(sample[k]);
}

}  // namespace

int run_shadow(int argc, char** argv) {
  CLI::App app{"The silent-miss audit over an EPD suite: each position searched by the engine's own search and\n"
               "again with the shadow audit (the two must agree exactly); every miss rate beside its control rate\n"
               "(the same kind of search repeated where the real search's answer is known), gated on the excess.\n"
               "Report: reports/junit/shadow-CONFIG.xml, reports/shadow/CONFIG.{json,md} with -misses.jsonl,\n"
               "-control-hits.jsonl and -rates.png ($STK_PYTHON, else .venv/bin/python, draws it: stkref.shadowplot).",
               "stk-harness shadow"};
  SearchSettings s;
  s.audit.shadow_node_cap = 5'000'000;
  s.audit.control_every = kDefaultControlEvery;
  std::string epd_file, config, out_dir = "reports", shard_text = "1/1", isolation_text = "exact";
  int stride = 1, classify_depths = 4;
  std::uint64_t classify_nodes = 2'000'000, classify_max = 3000;
  double max_artifact = kDefaultMaxArtifactShare, max_control = kDefaultMaxControl;
  std::vector<std::string> rate_texts, excess_texts, required_texts;
  BootstrapSettings boot;
  boot.seed = 1;
  boot.resamples = 2000;
  bool quiet = false, no_controls = false;
  app.add_option("--epd", epd_file, "positions (EPD, e.g. $STK_SHARED/suites/ECM.epd; bm/am are not used); required");
  CLI::Option* depth_opt = app.add_option("--depth", s.depth, "real search per position: sd N (give --depth or --nodes)")
                               ->check(CLI::Range(1, 64));
  CLI::Option* nodes_opt = app.add_option("--nodes", s.nodes, "real search per position: sn N (shadow nodes not counted)")
                               ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
  app.add_option("--stride", stride, "every S-th position (index % S == 0)")->capture_default_str()->check(CLI::Range(1, 1 << 20));
  app.add_option("--shard", shard_text, "K/N: the selected positions i with i % N == K-1")->capture_default_str();
  app.add_option("--isolation", isolation_text,
                 "what a shadow search starts from: legacy | heuristics | table | exact (see docs/harnesses/shadow.md,\n"
                 "\"Isolation\"), or components joined by '+': heuristics, table, stack, mate, iir (exact = all five)")
      ->capture_default_str();
  app.add_option("--control-every", s.audit.control_every,
                 "control of LMP/futility/SEE and of the static null move: every N-th candidate search")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 20));
  app.add_flag("--no-controls", no_controls, "no control searches (the excess and control gates then fail)");
  app.add_option("--max-excess", excess_texts,
                 "[MECH:]BAND=X gate: miss rate minus control rate of a mechanism (all if no MECH:) in a remaining-\n"
                 "depth band (LO-HI, LO+ or D) fails when the lower bound of its 95% cluster-bootstrap interval\n"
                 "exceeds X; repeatable; replaces the defaults 1-3=0.3 4-6=0.3 7+=0.3")
      ->allow_extra_args(false);
  app.add_option("--max-control", max_control,
                 "gate: per mechanism, the control rate over all depths fails when its Wilson 95% lower bound\n"
                 "exceeds X, or when it has decisions and no control")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  app.add_option("--require-excess", required_texts,
                 "gate: mechanism M's excess over all depths must be significantly > 0; repeatable; default lmr;\n"
                 "'none' for none")
      ->allow_extra_args(false);
  app.add_option("--max-rate", rate_texts,
                 "[MECH:]BAND=RATE gate on the raw miss rate's Wilson lower bound (none by default: raw rates\n"
                 "include the re-search noise the control measures)")
      ->allow_extra_args(false);
  app.add_option("--max-artifact-share", max_artifact,
                 "gate: share of classified misses at depth >= 3 with the fabricated-bound signature")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  app.add_option("--bootstrap-seed", boot.seed, "cluster bootstrap over root positions: seed")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--bootstrap-resamples", boot.resamples, "cluster bootstrap: resamples")
      ->capture_default_str()->check(CLI::Range(100, 1'000'000));
  app.add_option("--classify-depths", classify_depths, "open-window re-searches of each miss at d..d+K")
      ->capture_default_str()->check(CLI::Range(0, 16));
  app.add_option("--classify-nodes", classify_nodes, "node cap per miss re-search")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_option("--classify-max", classify_max, "misses classified, same quota per mechanism x depth cell")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 40));
  app.add_option("--shadow-nodes", s.audit.shadow_node_cap, "node cap per shadow search; a capped one is discarded")
      ->capture_default_str()->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_option("--hash", s.hash_mb, "hash table MB")->capture_default_str()->check(CLI::Range(1, 4096));
  app.add_option("--config", config, "report name (default <epd stem>-sd<N> or -sn<N>)");
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_flag("--quiet", quiet, "no line per position");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    if (!config.empty()) declare_report(report::junit_path(out_dir, "shadow", config), "shadow." + config);
    if (epd_file.empty()) throw UsageError("--epd FILE is required");
    if (bool(*depth_opt) == bool(*nodes_opt)) throw UsageError("give exactly one of --depth N and --nodes N");
    s.audit.controls = !no_controls;
    if (auto level = parse_isolation(isolation_text)) s.audit.isolation = *level;
    else throw UsageError("--isolation must be legacy, heuristics, table, exact or components joined by '+' "
                          "(heuristics, table, stack, mate, iir), got '" + isolation_text + "'");
    const Shard shard = parse_shard(shard_text);
    std::vector<BandGate> rate_gates, excess_gates;
    for (const std::string& g : rate_texts) {
      rate_gates.push_back(parse_band_gate("--max-rate", g));
      if (rate_gates.back().value < 0) throw UsageError("--max-rate: bad rate in '" + g + "'");
    }
    for (const std::string& g : excess_texts) excess_gates.push_back(parse_band_gate("--max-excess", g));
    if (excess_gates.empty())
      for (const char* g : kDefaultMaxExcess) excess_gates.push_back(parse_band_gate("--max-excess", g));
    std::vector<int> required;
    for (const std::string& m : required_texts)
      if (m != "none") required.push_back(parse_mechanism("--require-excess", m));
    if (required_texts.empty()) required.push_back(int(Mechanism::Lmr));
    const std::string budget = s.depth ? fmt::format("sd{}", s.depth) : fmt::format("sn{}", s.nodes);
    if (config.empty()) {
      config = std::filesystem::path(epd_file).stem().string() + "-" + budget;
      declare_report(report::junit_path(out_dir, "shadow", config), "shadow." + config);
    }
    const report::ReportPaths paths = report::report_paths(out_dir, "shadow", config);
    const std::string isolation = isolation_name(s.audit.isolation);

    const auto all = epd::read_epd_file(epd_file);
    std::vector<const epd::EpdPosition*> todo;
    std::size_t selected = 0;
    for (const auto& p : all)
      if (p.index % stride == 0 && shard.takes(selected++)) todo.push_back(&p);

    junit::TestSuite suite;
    suite.name = "shadow." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("budget", budget);
    suite.property("positions", std::to_string(todo.size()));
    suite.property("shard", shard.label());
    suite.property("isolation", isolation);
    suite.property("control_every", std::to_string(s.audit.control_every));
    suite.property("bootstrap", fmt::format("cluster bootstrap over root positions, seed {}, {} resamples, "
                                            "percentile 95%", boot.seed, boot.resamples));
    junit::add_build_properties(suite);

    RunTotals t;
    for (std::size_t i = 0; i < todo.size(); ++i) {
      const auto& p = *todo[i];
      double t_plain = 0;
      search::Result ref = plain_search(p.full_fen(), s, &t_plain);
      PositionAudit a = audit_position<Variant{}>(p.full_fen(), p.name(), s);
      std::string diff = compare_results(ref, a.result);
      junit::TestCase tc;
      tc.classname = "shadow.invariant";
      tc.name = p.name();
      tc.time_s = t_plain + a.time_s;
      tc.facts = {{"best", to_uci(a.result.best)}, {"score", std::to_string(a.result.score)},
                  {"real_nodes", std::to_string(a.result.nodes)}, {"shadow_nodes", std::to_string(a.shadow_nodes)},
                  {"misses", std::to_string(a.misses.size())}, {"control_hits", std::to_string(a.control_hits.size())}};
      if (!diff.empty()) {
        ++t.invariant_failures;
        tc = failed_case(tc, "audit changed the real search", p.fen + "\naudit off vs on: " + diff);
      }
      suite.cases.push_back(tc);
      t.counts.add(a.counts);
      t.per_position.push_back(a.counts);
      t.real_nodes += a.result.nodes;
      t.plain_nodes += ref.nodes;
      t.shadow_nodes += a.shadow_nodes;
      t.control_nodes += a.control_nodes;
      t.journal_peak = std::max(t.journal_peak, a.journal_peak);
      t.audit_time += a.time_s;
      t.plain_time += t_plain;
      t.misses_per_position.emplace_back(p.name(), a.misses.size());
      if (!quiet)
        std::cout << fmt::format("[{}/{}] {:<10} best {:<6} nodes {:>9} shadow {:>10} misses {:>5} control hits {:>4} "
                                 "{:.2f}s{}\n",
                                 i + 1, todo.size(), p.name(), to_uci(a.result.best), a.result.nodes, a.shadow_nodes,
                                 a.misses.size(), a.control_hits.size(), a.time_s,
                                 diff.empty() ? "" : "  INVARIANT BROKEN")
                  << std::flush;
      for (auto& m : a.misses) t.misses.push_back(std::move(m));
      for (auto& m : a.control_hits) t.control_hits.push_back(std::move(m));
      for (auto& m : a.depth_mismatches) t.depth_mismatches.push_back(std::move(m));
    }

    auto t0 = std::chrono::steady_clock::now();
    classify_sample(t.misses, classify_max, classify_depths, classify_nodes);
    const double classify_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const double nps_off = t.plain_time > 0 ? t.plain_nodes / t.plain_time : 0;
    const double nps_on = t.audit_time > 0 ? t.real_nodes / t.audit_time : 0;
    const double nps_on_all = t.audit_time > 0 ? (t.real_nodes + t.shadow_nodes) / t.audit_time : 0;
    std::map<std::string, std::map<std::string, int>> verdicts;  // mech -> verdict -> count
    for (const Miss& m : t.misses) ++verdicts[search::mechanism_name(m.mechanism)][m.verdict];
    const ArtifactShare art = artifact_share(t.misses, 3);
    std::uint64_t mismatches = 0;
    for (int mi = 0; mi < search::kMechanismCount; ++mi)
      for (const Cell& c : t.counts.decisions[mi]) mismatches += c.depth_mismatches;
    for (int ci = 0; ci < kControlCount; ++ci)
      for (const ControlCell& c : t.counts.controls[ci]) mismatches += c.depth_mismatches;
    auto band_excess = [&](Mechanism m, int lo, int hi) {
      return excess_of(band_clusters(t.per_position, m, lo, hi), boot);
    };

    // --- the summary JSON (key names documented in docs/harnesses/shadow.md, "Outputs") ---
    Json json;
    json["config"] = config;
    json["epd"] = epd_file;
    json["budget"] = budget;
    json["stride"] = stride;
    json["shard"] = shard.label();
    json["isolation"] = isolation;
    json["controls"] = s.audit.controls;
    json["control_every"] = s.audit.control_every;
    json["bootstrap"] = {{"method", "cluster bootstrap over root positions, percentile 95%"},
                         {"seed", boot.seed},
                         {"resamples", boot.resamples}};
    json["positions"] = todo.size();
    json["real_nodes"] = t.real_nodes;
    json["shadow_nodes"] = t.shadow_nodes;
    json["control_nodes"] = t.control_nodes;
    json["journal_peak"] = t.journal_peak;
    json["nps_audit_off"] = std::round(nps_off);
    json["nps_audit_on_real"] = std::round(nps_on);
    json["nps_audit_on_all"] = std::round(nps_on_all);
    json["invariant_failures"] = t.invariant_failures;
    json["misses"] = t.misses.size();
    json["control_hits"] = t.control_hits.size();
    json["classify_depths"] = classify_depths;
    json["artifact_signature"] = {{"misses_depth_ge_3", art.misses},
                                  {"signature", art.signature},
                                  {"share", art.share()},
                                  {"max", max_artifact}};
    json["depth_check"] = {{"mismatches", mismatches}, {"first", Json::array()}};
    for (const DepthMismatch& d : t.depth_mismatches)
      json["depth_check"]["first"].push_back({{"mechanism", search::mechanism_name(d.mechanism)},
                                              {"control", d.control},
                                              {"depth", d.depth},
                                              {"expected", d.expected},
                                              {"entered", d.entered},
                                              {"why", d.why},
                                              {"fen", d.fen},
                                              {"root_id", d.root_id}});

    // Per mechanism over all depths, then per cell.
    std::string md_mech, md_rates;
    json["mechanisms"] = Json::array();
    for (int mi = 0; mi < search::kMechanismCount; ++mi) {
      const Mechanism m = Mechanism(mi);
      const Excess e = band_excess(m, 0, kDepthCells - 1);
      Json j = {{"mechanism", search::mechanism_name(m)}, {"control", control_name(control_of(m))}};
      j.update(excess_json(e));
      std::uint64_t replayed = 0;
      for (const ControlCell& cc : t.counts.controls[int(control_of(m))]) replayed += cc.replayed;
      j["control_replayed"] = replayed;
      json["mechanisms"].push_back(j);
      md_mech += fmt::format("| {} | {} | {} / {} = {} | {} | {} / {} = {} {} | {} | {:+.2f}% [{:+.2f}, {:+.2f}]% | "
                             "[{:+.2f}, {:+.2f}]% |\n",
                             search::mechanism_name(m), control_name(control_of(m)), e.k1, e.n1, pct(e.miss_rate),
                             pct_interval(e.miss_wilson), e.k2, e.n2, pct(e.control_rate), pct_interval(e.control_wilson),
                             replayed,
                             100 * e.excess, 100 * e.bootstrap.lo, 100 * e.bootstrap.hi, 100 * e.newcombe.lo,
                             100 * e.newcombe.hi);
    }
    json["cells"] = Json::array();
    for (int mi = 0; mi < search::kMechanismCount; ++mi)
      for (int d = 0; d < kDepthCells; ++d) {
        const Mechanism m = Mechanism(mi);
        const Cell& c = t.counts.decisions[mi][d];
        if (!c.audited && !c.discarded) continue;
        const ControlCell& cc = t.counts.controls[int(control_of(m))][d];
        const Excess e = band_excess(m, d, d);
        Json j = {{"mechanism", search::mechanism_name(m)}, {"depth", d}};
        j.update(excess_json(e));
        j["discarded"] = c.discarded;
        j["control"] = control_name(control_of(m));
        j["control_replayed"] = cc.replayed;
        j["control_discarded"] = cc.discarded;
        j["depth_mismatches"] = c.depth_mismatches + cc.depth_mismatches;
        json["cells"].push_back(j);
        md_rates += fmt::format("| {} | {} | {} | {} | {} {} | {} | {} | {} {} | {:+.2f}% [{:+.2f}, {:+.2f}]% | {} |\n",
                                search::mechanism_name(m), d, c.audited, c.misses, pct(e.miss_rate),
                                pct_interval(e.miss_wilson), cc.audited, cc.hits, pct(e.control_rate),
                                pct_interval(e.control_wilson), 100 * e.excess, 100 * e.bootstrap.lo,
                                100 * e.bootstrap.hi, c.discarded + cc.discarded);
      }
    json["controls_by_depth"] = Json::array();
    for (int ci = 0; ci < kControlCount; ++ci) {
      Json cells = Json::array();
      for (int d = 0; d < kDepthCells; ++d) {
        const ControlCell& cc = t.counts.controls[ci][d];
        if (!cc.audited && !cc.discarded) continue;
        const Interval w = wilson(cc.hits, cc.audited);
        cells.push_back({{"depth", d}, {"audited", cc.audited}, {"hits", cc.hits}, {"replayed", cc.replayed},
                         {"discarded", cc.discarded},
                         {"rate", cc.audited ? double(cc.hits) / double(cc.audited) : 0.0}, {"wilson_lo", w.lo},
                         {"wilson_hi", w.hi}});
      }
      json["controls_by_depth"].push_back({{"control", control_name(Control(ci))},
                                           {"candidates", t.counts.candidates[ci]},
                                           {"sampled", t.counts.sampled[ci]},
                                           {"cells", cells}});
    }
    std::string md_verdicts;
    json["verdicts"] = Json::object();
    for (auto& [mech, v] : verdicts) {
      json["verdicts"][mech] = {{"genuine", v["genuine"]}, {"noise", v["noise"]}, {"mixed", v["mixed"]},
                                {"unclassified", v["unclassified"]}, {"unsampled", v["unsampled"]}};
      md_verdicts += fmt::format("| {} | {} | {} | {} | {} | {} |\n", mech, v["genuine"], v["noise"], v["mixed"],
                                 v["unclassified"], v["unsampled"]);
    }
    std::sort(t.misses_per_position.begin(), t.misses_per_position.end(),
              [](auto& a, auto& b) { return a.second > b.second; });
    json["misses_per_position"] = Json::object();
    for (auto& [id, n] : t.misses_per_position) json["misses_per_position"][id] = n;

    // --- gates ---
    std::string md_gates;
    auto gate_row = [&](const junit::TestCase& tc, const std::string& value, const std::string& limit) {
      md_gates += fmt::format("| {} | {} | {} | {} | {} |\n", tc.classname, tc.name, value, limit,
                              tc.outcome == junit::Outcome::Failed ? "**FAIL**" : "ok");
    };
    for (const BandGate& g : excess_gates)
      for (int mi = 0; mi < search::kMechanismCount; ++mi) {
        if (!g.covers(mi)) continue;
        const Mechanism m = Mechanism(mi);
        const Excess e = band_excess(m, g.lo, g.hi);
        junit::TestCase tc;
        tc.classname = "shadow.excess";
        tc.name = fmt::format("{} depth {}", search::mechanism_name(m), g.text);
        tc.facts = {{"misses", fmt::format("{}/{}", e.k1, e.n1)}, {"control_hits", fmt::format("{}/{}", e.k2, e.n2)},
                    {"excess", fmt::format("{:.5f}", e.excess)},
                    {"excess_bootstrap_95", fmt::format("[{:.5f}, {:.5f}]", e.bootstrap.lo, e.bootstrap.hi)},
                    {"excess_newcombe_95", fmt::format("[{:.5f}, {:.5f}]", e.newcombe.lo, e.newcombe.hi)}};
        if (excess_gate_fails(e, g.value) && !e.defined())
          tc = failed_case(tc, fmt::format("{} decisions and no control in this band: the excess is undefined", e.n1));
        else if (excess_gate_fails(e, g.value))
          tc = failed_case(tc, fmt::format("excess {:.4f} (miss {}/{}, control {}/{}; 95% lower bound {:.4f}) above {}",
                                           e.excess, e.k1, e.n1, e.k2, e.n2, e.bootstrap.lo, g.value));
        gate_row(tc, e.n1 == 0 ? std::string("no decisions") : excess_text(e),
                 fmt::format("lower bound <= {}", g.value));
        suite.cases.push_back(tc);
      }
    for (int mi = 0; mi < search::kMechanismCount; ++mi) {
      const Mechanism m = Mechanism(mi);
      const Excess e = band_excess(m, 0, kDepthCells - 1);
      junit::TestCase tc;
      tc.classname = "shadow.control";
      tc.name = fmt::format("{} control ({})", search::mechanism_name(m), control_name(control_of(m)));
      tc.facts = {{"control_hits", fmt::format("{}/{}", e.k2, e.n2)},
                  {"wilson_95", fmt::format("[{:.5f}, {:.5f}]", e.control_wilson.lo, e.control_wilson.hi)}};
      if (control_gate_fails(e, max_control) && e.n2 == 0)
        tc = failed_case(tc, fmt::format("{} decisions audited and no control search completed", e.n1));
      else if (control_gate_fails(e, max_control))
        tc = failed_case(tc, fmt::format("control rate {}/{} = {:.4f} (Wilson lower bound {:.4f}) above {}: the "
                                         "shadow search is not isolated as claimed (isolation {})",
                                         e.k2, e.n2, e.control_rate, e.control_wilson.lo, max_control, isolation));
      gate_row(tc, fmt::format("{:.4f}% [{:.4f}, {:.4f}]%", 100 * e.control_rate, 100 * e.control_wilson.lo,
                               100 * e.control_wilson.hi),
               fmt::format("lower bound <= {}", max_control));
      suite.cases.push_back(tc);
    }
    for (int mi : required) {
      const Mechanism m = Mechanism(mi);
      const Excess e = band_excess(m, 0, kDepthCells - 1);
      junit::TestCase tc;
      tc.classname = "shadow.sensitivity";
      tc.name = fmt::format("{} excess over all depths > 0", search::mechanism_name(m));
      tc.facts = {{"excess", fmt::format("{:.5f}", e.excess)},
                  {"excess_bootstrap_95", fmt::format("[{:.5f}, {:.5f}]", e.bootstrap.lo, e.bootstrap.hi)}};
      if (sensitivity_gate_fails(e))
        tc = failed_case(tc, fmt::format("excess {:.4f} (miss {}/{}, control {}/{}; 95% interval [{:.4f}, {:.4f}]) not "
                                         "significantly above 0: the miss searches find no more than their controls "
                                         "(a shadow at the decision's own depth?)",
                                         e.excess, e.k1, e.n1, e.k2, e.n2, e.bootstrap.lo, e.bootstrap.hi));
      gate_row(tc, excess_text(e), "lower bound > 0");
      suite.cases.push_back(tc);
    }
    for (int mi = 0; mi < search::kMechanismCount; ++mi)
      for (bool control : {false, true}) {
        const Mechanism m = Mechanism(mi);
        if (control && m != Mechanism::Lmr && m != Mechanism::NullMove && m != Mechanism::Lmp &&
            m != Mechanism::StaticNull)
          continue;  // futility and SEE share LMP's control population
        std::uint64_t n = 0, bad = 0;
        for (int d = 0; d < kDepthCells; ++d) {
          if (control) {
            const ControlCell& c = t.counts.controls[int(control_of(m))][d];
            n += c.audited + c.discarded, bad += c.depth_mismatches;
          } else {
            const Cell& c = t.counts.decisions[mi][d];
            n += c.audited + c.discarded, bad += c.depth_mismatches;
          }
        }
        junit::TestCase tc;
        tc.classname = "shadow.depth";
        tc.name = control ? fmt::format("{} control shadow roots", control_name(control_of(m)))
                          : fmt::format("{} shadow roots", search::mechanism_name(m));
        tc.facts = {{"shadow_searches", std::to_string(n)}, {"mismatches", std::to_string(bad)}};
        if (bad) {
          std::string detail;
          for (const DepthMismatch& d : t.depth_mismatches)
            if (d.mechanism == m && d.control == control)
              detail += fmt::format("{} depth {}: expected {}, entered {} ({}) at {}\n", d.root_id, d.depth, d.expected,
                                    d.entered == kNotEntered ? std::string("never") : std::to_string(d.entered), d.why,
                                    d.fen);
          tc = failed_case(tc, fmt::format("{} of {} shadow roots entered at another depth than the audit recomputed",
                                           bad, n), detail);
        }
        gate_row(tc, fmt::format("{} of {}", bad, n), "0 mismatches");
        suite.cases.push_back(tc);
      }
    for (const BandGate& g : rate_gates)
      for (int mi = 0; mi < search::kMechanismCount; ++mi) {
        if (!g.covers(mi)) continue;
        std::uint64_t n = 0, k = 0;
        for (int d = g.lo; d <= g.hi; ++d)
          n += t.counts.decisions[mi][d].audited, k += t.counts.decisions[mi][d].misses;
        const Interval w = wilson(k, n);
        junit::TestCase tc;
        tc.classname = "shadow.rate";
        tc.name = fmt::format("{} depth {}", search::mechanism_name(Mechanism(mi)), g.text);
        tc.facts = {{"audited", std::to_string(n)}, {"misses", std::to_string(k)},
                    {"wilson_lo", fmt::format("{:.4f}", w.lo)}, {"wilson_hi", fmt::format("{:.4f}", w.hi)}};
        if (n > 0 && w.lo > g.value)
          tc = failed_case(tc,
                           fmt::format("miss rate {}/{} (Wilson lower bound {:.3f}) above {}", k, n, w.lo, g.value));
        gate_row(tc, fmt::format("{:.4f} [{:.4f}, {:.4f}]", n ? double(k) / n : 0.0, w.lo, w.hi),
                 fmt::format("lower bound <= {}", g.value));
        suite.cases.push_back(tc);
      }
    {
      junit::TestCase tc;
      tc.classname = "shadow.artifacts";
      tc.name = "fabricated-bound signature share";
      tc.facts = {{"misses_depth_ge_3", std::to_string(art.misses)}, {"signature", std::to_string(art.signature)},
                  {"share", fmt::format("{:.4f}", art.share())}};
      if (art.share() > max_artifact)
        tc = failed_case(tc,
                         fmt::format("{} of {} misses at depth >= 3 look fabricated (share {:.3f} > {})", art.signature,
                                     art.misses, art.share(), max_artifact),
                         fmt::format("{} of {} misses at depth >= 3 look fabricated (share {:.3f} > {})\nA mechanism "
                                     "that fabricates a bound to signal its caller is active in the shadow search.",
                                     art.signature, art.misses, art.share(), max_artifact));
      gate_row(tc, fmt::format("{:.3f}", art.share()), fmt::format("<= {}", max_artifact));
      suite.cases.push_back(tc);
    }

    // Top misses: genuine first, then by distance beyond the window.
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
    std::string md_top;
    for (const Miss* m : top) {
      json["top_misses"].push_back(miss_json(*m));
      md_top += fmt::format("| {} | {} | {} | {} | [{}, {}] | {} | {} | `{}` | {} |\n", m->root_id,
                            search::mechanism_name(m->mechanism), m->depth,
                            m->move == Move::none() ? "-" : to_uci(m->move), m->alpha, m->beta, m->shadow_score,
                            m->verdict, m->fen, path_uci(m->path));
    }

    // Beside the summary: every miss and control hit, one JSON object a line.
    const std::string dir = std::filesystem::path(paths.json).parent_path().string() + "/";
    write_text_file(dir + config + "-misses.jsonl", jsonl(t.misses));
    write_text_file(dir + config + "-control-hits.jsonl", jsonl(t.control_hits));

    // Plot (Python, matplotlib Agg) from the figures, written to a scratch file for it; a failure is
    // reported (a skipped testcase), never silent.
    report::RunReport run{"shadow", config};
    const std::string png = config + "-rates.png";
    std::string plot_note;
    {
      const std::string plot_input = dir + config + "-plot-input.json";
      write_text_file(plot_input, json.dump(-1, ' ', false, Json::error_handler_t::replace));
      std::string cmd = "'" + python() + "' -m stkref.shadowplot '" + plot_input + "' '" + dir + png + "' 2>&1";
      FILE* pipe = popen(cmd.c_str(), "r");
      std::string out;
      if (pipe) {
        char buf[512];
        while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
      }
      int rc = pipe ? pclose(pipe) : -1;
      std::filesystem::remove(plot_input);
      junit::TestCase tc;
      tc.classname = "shadow.plot";
      tc.name = "rate by depth PNG";
      if (rc != 0) {
        plot_note = "plot NOT made (" + python() + " -m stkref.shadowplot failed; set STK_PYTHON): " + out;
        tc.outcome = junit::Outcome::Skipped;
        tc.message = "plot could not be made: " + out.substr(0, 200);
        std::cerr << "shadow: " << plot_note << "\n";
      } else {
        run.plots.push_back(png);
      }
      suite.cases.push_back(tc);
    }

    std::string md = fmt::format("Silent-miss audit: {} positions of {} (stride {}, shard {}), {}, isolation {}.\n\n",
                                 todo.size(), epd_file, stride, shard.label(), budget, isolation);
    md += fmt::format("- invariant (audit on vs off: best, score, PV, real nodes, every iteration): {}\n",
                      t.invariant_failures ? fmt::format("**{} positions differ**", t.invariant_failures)
                                           : "identical on every position");
    md += fmt::format("- real nodes {}, shadow nodes {} ({:.1f}x; controls {})\n", t.real_nodes, t.shadow_nodes,
                      t.real_nodes ? double(t.shadow_nodes) / t.real_nodes : 0.0, t.control_nodes);
    md += fmt::format("- nodes/s: audit off {:.0f}; audit on {:.0f} real nodes/s ({:.0f} counting shadow nodes); "
                      "classification {:.1f}s\n",
                      nps_off, nps_on, nps_on_all, classify_time);
    md += fmt::format("- controls: LMR and null move on every decision; LMP/futility/SEE and static null on every {}-th "
                      "candidate (searched move: {} of {}; searched node, depth <= {}: {} of {})\n",
                      s.audit.control_every, t.counts.sampled[int(Control::SearchedMove)],
                      t.counts.candidates[int(Control::SearchedMove)], kNodeControlMaxDepth,
                      t.counts.sampled[int(Control::SearchedNode)], t.counts.candidates[int(Control::SearchedNode)]);
    md += fmt::format("- excess intervals: cluster bootstrap over root positions (seed {}, {} resamples, percentile "
                      "95%); Newcombe's hybrid score interval (independent decisions) beside it\n",
                      boot.seed, boot.resamples);
    md += fmt::format("- depth check: {} shadow roots entered at another depth than recomputed\n", mismatches);
    md += fmt::format("- fabricated-bound signature: {} of {} classified misses at depth >= 3 ({:.3f}, gate <= {})\n\n",
                      art.signature, art.misses, art.share(), max_artifact);
    md += "## Per mechanism (all depths)\n\n| mechanism | control | misses | Wilson 95% | control hits | controls "
          "replayed node for node | excess [bootstrap 95%] | Newcombe 95% |\n|---|---|---|---|---|---|---|---|\n" +
          md_mech;
    md += "\n## Miss and control rates (mechanism x remaining depth)\n\n| mechanism | depth | audited | misses | rate "
          "[Wilson 95%] | controls | hits | control rate [Wilson 95%] | excess [bootstrap 95%] | discarded |\n"
          "|---|---|---|---|---|---|---|---|---|---|\n" +
          md_rates;
    md += "\n## Gates\n\n| class | gate | value [95%] | limit | result |\n|---|---|---|---|---|\n" + md_gates;
    md += fmt::format("\n## Genuine vs noise (open window at d..d+{})\n\n| mechanism | genuine | noise | mixed | "
                      "unclassified | unsampled |\n|---|---|---|---|---|---|\n",
                      classify_depths) +
          md_verdicts;
    md += "\n## Misses per root position\n\n";
    for (auto& [id, n] : t.misses_per_position) md += fmt::format("- {}: {}\n", id, n);
    md += "\n## Top misses\n\n| root | mechanism | depth | move | window | shadow | verdict | FEN | path |\n"
          "|---|---|---|---|---|---|---|---|---|\n" +
          md_top;
    if (!plot_note.empty()) md += "\n## Plot\n\n" + plot_note + "\n";

    suite.time_s = t.audit_time + t.plain_time + classify_time;
    suite.system_out = fmt::format("nodes/s audit off {:.0f}, audit on {:.0f} (real), {:.0f} (real+shadow)\n", nps_off,
                                   nps_on, nps_on_all);
    run.suites.push_back(std::move(suite));
    run.figures = std::move(json);
    run.markdown = std::move(md);
    report::write_run_report(run, paths);

    std::cout << fmt::format("shadow {} (isolation {}): {} positions, {} misses ({} genuine), {} control hits, "
                             "invariant {}, depth mismatches {}, artifact share {:.3f}\n",
                             config, isolation, todo.size(), t.misses.size(),
                             std::count_if(t.misses.begin(), t.misses.end(),
                                           [](const Miss& m) { return m.verdict == "genuine"; }),
                             t.control_hits.size(), t.invariant_failures ? "BROKEN" : "ok", mismatches, art.share());
    for (int mi = 0; mi < search::kMechanismCount; ++mi) {
      const Excess e = band_excess(Mechanism(mi), 0, kDepthCells - 1);
      std::cout << fmt::format("  {:<11} miss {:>7}/{:<9} {:>7}  control {:>6}/{:<8} {:>7}  excess {:+.3f}% [{:+.3f}, "
                               "{:+.3f}]%\n",
                               search::mechanism_name(Mechanism(mi)), e.k1, e.n1, pct(e.miss_rate), e.k2, e.n2,
                               pct(e.control_rate), 100 * e.excess, 100 * e.bootstrap.lo, 100 * e.bootstrap.hi);
    }
    std::cout << fmt::format("nodes/s: audit off {:.0f}, audit on {:.0f} real ({:.0f} with shadow nodes; shadow/real "
                             "nodes {:.1f}x)\n",
                             nps_off, nps_on, nps_on_all, t.real_nodes ? double(t.shadow_nodes) / t.real_nodes : 0.0);
    std::cout << "report: " << paths.junit << "\n";
    return run.passed() ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness shadow", app.help().c_str());
  }
}

}  // namespace stk::harness
