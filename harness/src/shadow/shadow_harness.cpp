// stk-harness shadow: the silent-miss audit over an EPD suite. Each position is searched once by
// the engine's own search (Worker<NoPolicy>) and once with the shadow audit; the two must agree
// exactly (invariant gate). Misses are classified by open-window re-searches, rates gated per
// mechanism x depth band on the Wilson lower bound, and the fabricated-bound signature gated.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "commands.h"
#include "common/cli.h"
#include "common/stats.h"
#include "epd/epd_suite.h"
#include "report/junit.h"
#include "report/summary_files.h"
#include "shadow/shadow_audit.h"

namespace stk::harness {

namespace {

using namespace shadow;

constexpr const char* kUsage =
    "usage: stk-harness shadow --epd FILE (--depth N | --nodes N) [--stride S] [--shard K/N]\n"
    "                          [--max-rate [MECH:]BAND=RATE]... [--max-artifact-share X]\n"
    "                          [--classify-depths K] [--classify-nodes N] [--shadow-nodes N]\n"
    "                          [--hash MB] [--config NAME] [--out-dir DIR] [--quiet]\n"
    "  --epd FILE          positions (EPD, e.g. $STK_SHARED/suites/ECM.epd; bm/am are not used)\n"
    "  --depth N / --nodes N   real search per position: sd N or sn N (shadow nodes not counted)\n"
    "  --stride S          every S-th position (index % S == 0), default 1\n"
    "  --shard K/N         the selected positions i with i % N == K-1\n"
    "  --max-rate R        gate: miss rate of a mechanism (all if no MECH:) in a remaining-depth band\n"
    "                      (LO-HI or LO+) fails when its Wilson 95% lower bound exceeds RATE;\n"
    "                      repeatable; replaces the defaults 1-3=0.6 4-6=0.5 7+=0.5\n"
    "  --max-artifact-share X  gate: share of classified misses at depth >= 3 with the\n"
    "                      fabricated-bound signature (default 0.3)\n"
    "  --classify-depths K open-window re-searches of each miss at d..d+K (default 4)\n"
    "  --classify-nodes N  node cap per miss re-search (default 2000000)\n"
    "  --classify-max N    misses classified, same quota per mechanism x depth cell (default 3000)\n"
    "  --shadow-nodes N    node cap per shadow search; a capped one is discarded (default 5000000)\n"
    "  $STK_PYTHON (else .venv/bin/python) draws the rate-by-depth PNG (stkref.shadowplot).\n";

struct RateGate {
  std::string text;
  int mech = -1;  // -1: every mechanism
  int lo = 0, hi = kDepthCells - 1;
  double rate = 1;
};

RateGate parse_gate(const std::string& t) {
  RateGate g;
  g.text = t;
  auto eq = t.find('=');
  if (eq == std::string::npos) throw UsageError("--max-rate needs [MECH:]BAND=RATE, got '" + t + "'");
  std::string band = t.substr(0, eq);
  auto colon = band.find(':');
  if (colon != std::string::npos) {
    std::string m = band.substr(0, colon);
    band = band.substr(colon + 1);
    for (int i = 0; i < search::kMechanismCount; ++i)
      if (m == search::mechanism_name(Mechanism(i))) g.mech = i;
    if (g.mech < 0) throw UsageError("--max-rate: unknown mechanism '" + m + "'");
  }
  try {
    auto dash = band.find('-');
    if (!band.empty() && band.back() == '+') {
      g.lo = std::stoi(band.substr(0, band.size() - 1));
    } else if (dash != std::string::npos) {
      g.lo = std::stoi(band.substr(0, dash));
      g.hi = std::stoi(band.substr(dash + 1));
    } else {
      g.lo = g.hi = std::stoi(band);
    }
    g.rate = std::stod(t.substr(eq + 1));
  } catch (const std::exception&) {
    throw UsageError("--max-rate: cannot read '" + t + "'");
  }
  g.hi = std::min(g.hi, kDepthCells - 1);
  if (g.lo < 0 || g.lo > g.hi || g.rate < 0 || g.rate > 1) throw UsageError("--max-rate: bad band or rate in '" + t + "'");
  return g;
}

std::string opt_int(const std::optional<int>& v) { return v ? std::to_string(*v) : "null"; }

std::string miss_json(const Miss& m) {
  std::string vals;
  for (int v : m.open_values) vals += (vals.empty() ? "" : ",") + std::to_string(v);
  return fmt::format(
      "{{\"mechanism\":\"{}\",\"depth\":{},\"reduction\":{},\"move_number\":{},\"predicted_fh\":null,"
      "\"alpha\":{},\"beta\":{},\"real_score\":{},\"shadow_score\":{},\"shadow_depth\":{},\"shadow_nodes\":{},"
      "\"fen\":{},\"move\":{},\"root_id\":{},\"path\":{},\"ply\":{},\"open_values\":[{}],\"verdict\":\"{}\","
      "\"refuted_at_depth\":{},\"artifact_signature\":{}}}",
      search::mechanism_name(m.mechanism), m.depth, m.reduction, m.move_number, m.alpha, m.beta,
      opt_int(m.real_score), m.shadow_score, m.shadow_depth, m.shadow_nodes, json_str(m.fen),
      m.move == Move::none() ? "null" : json_str(to_uci(m.move)), json_str(m.root_id), json_str(path_uci(m.path)),
      m.ply, vals, m.verdict, m.refuted_at_depth ? "true" : "false", has_artifact_signature(m) ? "true" : "false");
}

std::string python() {
  const char* env = std::getenv("STK_PYTHON");
  return env && *env ? env : ".venv/bin/python";
}

}  // namespace

int run_shadow(int argc, char** argv) {
  try {
    Args args(argc, argv,
              {"epd", "depth", "nodes", "stride", "shard", "max-rate", "max-artifact-share", "classify-depths", "classify-max",
               "classify-nodes", "shadow-nodes", "hash", "config", "out-dir"},
              {"help", "quiet"});
    if (args.has("help")) return std::cout << kUsage, 0;
    const std::string out_dir = args.get("out-dir", "reports");
    auto junit_path_of = [&](const std::string& config) { return out_dir + "/junit/shadow-" + config + ".xml"; };
    // The report is owed as soon as its name is known: now with --config, else once the budget is.
    if (args.has("config")) declare_report(junit_path_of(args.get("config")), "shadow." + args.get("config"));
    if (!args.has("epd")) throw UsageError("--epd FILE is required");
    if (args.has("depth") == args.has("nodes")) throw UsageError("give exactly one of --depth N and --nodes N");
    SearchSettings s;
    s.depth = int(args.get_int("depth", 0, 1, 64));
    s.nodes = std::uint64_t(args.get_int("nodes", 0, 1, 1LL << 40));
    s.hash_mb = std::size_t(args.get_int("hash", 16, 1, 4096));
    s.shadow_node_cap = std::uint64_t(args.get_int("shadow-nodes", 5'000'000, 1000, 1LL << 40));
    const int stride = int(args.get_int("stride", 1, 1, 1 << 20));
    const Shard shard = parse_shard(args.get("shard", "1/1"));
    const int classify_depths = int(args.get_int("classify-depths", 4, 0, 16));
    const std::uint64_t classify_nodes = std::uint64_t(args.get_int("classify-nodes", 2'000'000, 1000, 1LL << 40));
    const std::size_t classify_max = std::size_t(args.get_int("classify-max", 3000, 0, 1LL << 40));
    double max_artifact = kDefaultMaxArtifactShare;
    if (args.has("max-artifact-share")) max_artifact = std::stod(args.get("max-artifact-share"));
    std::vector<RateGate> gates;
    for (const std::string& g : args.all("max-rate")) gates.push_back(parse_gate(g));
    if (gates.empty())
      for (const char* g : {"1-3=0.6", "4-6=0.5", "7+=0.5"}) gates.push_back(parse_gate(g));
    const std::string budget = s.depth ? fmt::format("sd{}", s.depth) : fmt::format("sn{}", s.nodes);
    const std::string epd_file = args.get("epd");
    const std::string config =
        args.get("config", std::filesystem::path(epd_file).stem().string() + "-" + budget);
    if (!args.has("config")) declare_report(junit_path_of(config), "shadow." + config);
    const bool quiet = args.has("quiet");

    const auto all = epd::read_epd_file(epd_file);
    std::vector<const epd::EpdPosition*> todo;
    std::size_t selected = 0;
    for (const auto& p : all)
      if (p.index % stride == 0 && shard.takes(selected++)) todo.push_back(&p);

    junit::TestSuite suite;
    suite.name = "shadow." + config;
    for (auto& [k, v] : args.echo()) suite.property("input." + k, v);
    suite.property("budget", budget);
    suite.property("positions", std::to_string(todo.size()));
    suite.property("shard", shard.label());
    junit::add_build_properties(suite);

    Counts counts{};
    std::vector<Miss> misses;
    std::uint64_t real_nodes = 0, plain_nodes = 0, shadow_nodes = 0;
    double audit_time = 0, plain_time = 0;
    int invariant_failures = 0;
    std::vector<std::pair<std::string, std::size_t>> per_position;
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
                  {"misses", std::to_string(a.misses.size())}};
      if (!diff.empty()) {
        ++invariant_failures;
        tc.outcome = junit::Outcome::Failed;
        tc.message = "audit changed the real search";
        tc.detail = p.fen + "\naudit off vs on: " + diff;
        std::cerr << "shadow: invariant broken at " << p.name() << ": " << diff << "\n";
      }
      suite.cases.push_back(tc);
      add(counts, a.counts);
      real_nodes += a.result.nodes;
      plain_nodes += ref.nodes;
      shadow_nodes += a.shadow_nodes;
      audit_time += a.time_s;
      plain_time += t_plain;
      per_position.emplace_back(p.name(), a.misses.size());
      if (!quiet)
        std::cout << fmt::format("[{}/{}] {:<10} best {:<6} nodes {:>9} shadow {:>10} misses {:>5} {:.2f}s{}\n", i + 1,
                                 todo.size(), p.name(), to_uci(a.result.best), a.result.nodes, a.shadow_nodes,
                                 a.misses.size(), a.time_s, diff.empty() ? "" : "  INVARIANT BROKEN")
                  << std::flush;
      for (auto& m : a.misses) misses.push_back(std::move(m));
    }

    // Classification sample, depth-aware (LESSONS: uniform subsampling starves the rare deep
    // cells): up to --classify-max misses, the same quota per mechanism x depth cell, evenly
    // spaced within a cell. Misses left out get the verdict "unsampled".
    auto t0 = std::chrono::steady_clock::now();
    {
      std::map<std::pair<int, int>, std::vector<std::size_t>> cells;
      for (std::size_t i = 0; i < misses.size(); ++i) cells[{int(misses[i].mechanism), misses[i].depth}].push_back(i);
      std::size_t quota = cells.empty() ? 0 : std::max<std::size_t>(1, classify_max / cells.size());
      std::vector<std::size_t> chosen;
      for (auto& [key, idx] : cells) {
        if (idx.size() <= quota) chosen.insert(chosen.end(), idx.begin(), idx.end());
        else for (std::size_t k = 0; k < quota; ++k) chosen.push_back(idx[k * idx.size() / quota]);
      }
      std::vector<Miss> sample;
      for (std::size_t i : chosen) sample.push_back(misses[i]);
      classify(sample, classify_depths, classify_nodes);
      for (Miss& m : misses) m.verdict = "unsampled";
      for (std::size_t k = 0; k < chosen.size(); ++k) misses[chosen[k]] = std::move(sample[k]);
    }
    const double classify_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Tables.
    const double nps_off = plain_time > 0 ? plain_nodes / plain_time : 0;
    const double nps_on = audit_time > 0 ? real_nodes / audit_time : 0;
    const double nps_on_all = audit_time > 0 ? (real_nodes + shadow_nodes) / audit_time : 0;
    std::map<std::string, std::map<std::string, int>> verdicts;  // mech -> verdict -> count
    for (const Miss& m : misses) ++verdicts[search::mechanism_name(m.mechanism)][m.verdict];
    const ArtifactShare art = artifact_share(misses, 3);

    std::string json = "{\n";
    json += fmt::format("  \"config\": {},\n  \"epd\": {},\n  \"budget\": \"{}\",\n  \"stride\": {},\n  \"shard\": \"{}\",\n",
                        json_str(config), json_str(epd_file), budget, stride, shard.label());
    json += fmt::format("  \"positions\": {},\n  \"real_nodes\": {},\n  \"shadow_nodes\": {},\n", todo.size(), real_nodes,
                        shadow_nodes);
    json += fmt::format("  \"nps_audit_off\": {:.0f},\n  \"nps_audit_on_real\": {:.0f},\n  \"nps_audit_on_all\": {:.0f},\n",
                        nps_off, nps_on, nps_on_all);
    json += fmt::format("  \"invariant_failures\": {},\n  \"misses\": {},\n  \"classify_depths\": {},\n", invariant_failures,
                        misses.size(), classify_depths);
    json += fmt::format("  \"artifact_signature\": {{\"misses_depth_ge_3\": {}, \"signature\": {}, \"share\": {:.4f}, \"max\": {}}},\n",
                        art.misses, art.signature, art.share(), max_artifact);
    json += "  \"cells\": [";
    std::string md_rates;
    bool first = true;
    for (int mi = 0; mi < search::kMechanismCount; ++mi)
      for (int d = 0; d < kDepthCells; ++d) {
        const Cell& c = counts[mi][d];
        if (!c.audited && !c.discarded) continue;
        auto [lo, hi] = wilson(c.misses, c.audited);
        json += fmt::format("{}\n    {{\"mechanism\": \"{}\", \"depth\": {}, \"audited\": {}, \"misses\": {}, \"discarded\": {}, "
                            "\"rate\": {:.6f}, \"wilson_lo\": {:.6f}, \"wilson_hi\": {:.6f}}}",
                            first ? "" : ",", search::mechanism_name(Mechanism(mi)), d, c.audited, c.misses, c.discarded,
                            c.audited ? double(c.misses) / c.audited : 0.0, lo, hi);
        first = false;
        md_rates += fmt::format("| {} | {} | {} | {} | {:.3f} | [{:.3f}, {:.3f}] | {} |\n", search::mechanism_name(Mechanism(mi)),
                                d, c.audited, c.misses, c.audited ? double(c.misses) / c.audited : 0.0, lo, hi, c.discarded);
      }
    json += "\n  ],\n  \"verdicts\": {";
    first = true;
    std::string md_verdicts;
    for (auto& [mech, v] : verdicts) {
      json += fmt::format("{}\n    \"{}\": {{\"genuine\": {}, \"noise\": {}, \"mixed\": {}, \"unclassified\": {}, \"unsampled\": {}}}",
                          first ? "" : ",", mech, v["genuine"], v["noise"], v["mixed"], v["unclassified"], v["unsampled"]);
      md_verdicts += fmt::format("| {} | {} | {} | {} | {} | {} |\n", mech, v["genuine"], v["noise"], v["mixed"],
                                 v["unclassified"], v["unsampled"]);
      first = false;
    }
    json += "\n  },\n  \"misses_per_position\": {";
    std::sort(per_position.begin(), per_position.end(), [](auto& a, auto& b) { return a.second > b.second; });
    first = true;
    for (auto& [id, n] : per_position) json += fmt::format("{}{}: {}", first ? "" : ", ", json_str(id), n), first = false;
    json += "},\n";

    // Gates.
    std::string md_gates;
    for (const RateGate& g : gates)
      for (int mi = 0; mi < search::kMechanismCount; ++mi) {
        if (g.mech >= 0 && g.mech != mi) continue;
        Cell c;
        for (int d = g.lo; d <= g.hi; ++d) c.audited += counts[mi][d].audited, c.misses += counts[mi][d].misses;
        auto [lo, hi] = wilson(c.misses, c.audited);
        junit::TestCase tc;
        tc.classname = "shadow.rate";
        tc.name = fmt::format("{} depth {}", search::mechanism_name(Mechanism(mi)), g.text);
        tc.facts = {{"audited", std::to_string(c.audited)}, {"misses", std::to_string(c.misses)},
                    {"wilson_lo", fmt::format("{:.4f}", lo)}, {"wilson_hi", fmt::format("{:.4f}", hi)}};
        const bool fail = c.audited > 0 && lo > g.rate;
        if (fail) {
          tc.outcome = junit::Outcome::Failed;
          tc.message = fmt::format("miss rate {}/{} (Wilson lower bound {:.3f}) above {}", c.misses, c.audited, lo, g.rate);
          tc.detail = tc.message;
          std::cerr << "shadow: " << tc.name << ": " << tc.message << "\n";
        }
        md_gates += fmt::format("| {} | {} | {} | {:.3f} | [{:.3f}, {:.3f}] | <= {} | {} |\n", tc.name, c.audited, c.misses,
                                c.audited ? double(c.misses) / c.audited : 0.0, lo, hi, g.rate, fail ? "**FAIL**" : "ok");
        suite.cases.push_back(tc);
      }
    {
      junit::TestCase tc;
      tc.classname = "shadow.artifacts";
      tc.name = "fabricated-bound signature share";
      tc.facts = {{"misses_depth_ge_3", std::to_string(art.misses)}, {"signature", std::to_string(art.signature)},
                  {"share", fmt::format("{:.4f}", art.share())}};
      if (art.share() > max_artifact) {
        tc.outcome = junit::Outcome::Failed;
        tc.message = fmt::format("{} of {} misses at depth >= 3 look fabricated (share {:.3f} > {})", art.signature,
                                 art.misses, art.share(), max_artifact);
        tc.detail = tc.message + "\nA mechanism that fabricates a bound to signal its caller is active in the shadow search.";
        std::cerr << "shadow: " << tc.message << "\n";
      }
      suite.cases.push_back(tc);
    }

    // Top misses: genuine first, then by distance beyond the window.
    std::vector<const Miss*> top;
    for (const Miss& m : misses) top.push_back(&m);
    auto gap = [](const Miss* m) {
      const bool node_level = m->mechanism == Mechanism::NullMove || m->mechanism == Mechanism::StaticNull;
      return node_level ? m->beta - m->shadow_score : m->shadow_score - m->alpha;
    };
    std::stable_sort(top.begin(), top.end(), [&](const Miss* a, const Miss* b) {
      bool ga = a->verdict == "genuine", gb = b->verdict == "genuine";
      return ga != gb ? ga : gap(a) > gap(b);
    });
    if (top.size() > 20) top.resize(20);
    json += "  \"top_misses\": [";
    std::string md_top;
    first = true;
    for (const Miss* m : top) {
      json += (first ? "\n    " : ",\n    ") + miss_json(*m);
      first = false;
      md_top += fmt::format("| {} | {} | {} | {} | [{}, {}] | {} | {} | `{}` | {} |\n", m->root_id, search::mechanism_name(m->mechanism),
                            m->depth, m->move == Move::none() ? "-" : to_uci(m->move), m->alpha, m->beta, m->shadow_score,
                            m->verdict, m->fen, path_uci(m->path));
    }
    json += "\n  ]\n}\n";

    const std::string dir = out_dir + "/shadow/";
    std::string jsonl;
    for (const Miss& m : misses) jsonl += miss_json(m) + "\n";
    write_text_file(dir + config + "-misses.jsonl", jsonl);
    write_text_file(dir + config + ".json", json);

    // Plot (Python, matplotlib Agg); a failure is reported, never silent.
    const std::string png = dir + config + "-rates.png";
    std::string plot_note;
    {
      std::string cmd = "'" + python() + "' -m stkref.shadowplot '" + dir + config + ".json' '" + png + "' 2>&1";
      FILE* pipe = popen(cmd.c_str(), "r");
      std::string out;
      if (pipe) {
        char buf[512];
        while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
      }
      int rc = pipe ? pclose(pipe) : -1;
      junit::TestCase tc;
      tc.classname = "shadow.plot";
      tc.name = "rate by depth PNG";
      if (rc != 0) {
        plot_note = "plot NOT made (" + python() + " -m stkref.shadowplot failed; set STK_PYTHON): " + out;
        tc.outcome = junit::Outcome::Skipped;
        tc.message = "plot could not be made: " + out.substr(0, 200);
        std::cerr << "shadow: " << plot_note << "\n";
      } else {
        plot_note = "![miss rate by depth](" + config + "-rates.png)";
      }
      suite.cases.push_back(tc);
    }

    std::string md = fmt::format("# shadow-search silent-miss audit ({})\n\n{} positions of {} (stride {}, shard {}), {}.\n\n",
                                 config, todo.size(), epd_file, stride, shard.label(), budget);
    md += fmt::format("- invariant (audit on vs off: best, score, PV, real nodes, every iteration): {}\n",
                      invariant_failures ? fmt::format("**{} positions differ**", invariant_failures) : "identical on every position");
    md += fmt::format("- real nodes {}, shadow nodes {} ({:.1f}x)\n", real_nodes, shadow_nodes,
                      real_nodes ? double(shadow_nodes) / real_nodes : 0.0);
    md += fmt::format("- nodes/s: audit off {:.0f}; audit on {:.0f} real nodes/s ({:.0f} counting shadow nodes); "
                      "classification {:.1f}s\n",
                      nps_off, nps_on, nps_on_all, classify_time);
    md += fmt::format("- fabricated-bound signature: {} of {} classified misses at depth >= 3 ({:.3f}, gate <= {})\n\n",
                      art.signature, art.misses, art.share(), max_artifact);
    md += "## Miss rates (mechanism x remaining depth, Wilson 95%)\n\n| mechanism | depth | audited | misses | rate | 95% | discarded |\n|---|---|---|---|---|---|---|\n" + md_rates;
    md += "\n## Gates\n\n| gate | audited | misses | rate | 95% | max (lower bound) | result |\n|---|---|---|---|---|---|---|\n" + md_gates;
    md += fmt::format("\n## Genuine vs noise (open window at d..d+{})\n\n| mechanism | genuine | noise | mixed | unclassified | unsampled |\n|---|---|---|---|---|---|\n",
                      classify_depths) + md_verdicts;
    md += "\n## Misses per root position\n\n";
    for (auto& [id, n] : per_position) md += fmt::format("- {}: {}\n", id, n);
    md += "\n## Top misses\n\n| root | mechanism | depth | move | window | shadow | verdict | FEN | path |\n|---|---|---|---|---|---|---|---|---|\n" + md_top;
    md += "\n## Plot\n\n" + plot_note + "\n";
    write_text_file(dir + config + ".md", md);

    suite.time_s = audit_time + plain_time + classify_time;
    suite.system_out = fmt::format("nodes/s audit off {:.0f}, audit on {:.0f} (real), {:.0f} (real+shadow)\n", nps_off, nps_on, nps_on_all);
    std::string err;
    const std::string junit_path = junit_path_of(config);
    if (!junit::write_report(junit_path, {suite}, &err)) throw InputError(err);

    std::cout << fmt::format("shadow {}: {} positions, {} misses ({} genuine), invariant {}, artifact share {:.3f}\n", config,
                             todo.size(), misses.size(),
                             std::count_if(misses.begin(), misses.end(), [](const Miss& m) { return m.verdict == "genuine"; }),
                             invariant_failures ? "BROKEN" : "ok", art.share());
    std::cout << fmt::format("nodes/s: audit off {:.0f}, audit on {:.0f} real ({:.0f} with shadow nodes; shadow/real nodes {:.1f}x)\n",
                             nps_off, nps_on, nps_on_all, real_nodes ? double(shadow_nodes) / real_nodes : 0.0);
    std::cout << "report: " << junit_path << "\n";
    return suite.all_passed() ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness shadow", kUsage);
  }
}

}  // namespace stk::harness
