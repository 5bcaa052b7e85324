#include "commands/shadow/shadow_settings.h"

#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace stk::harness::shadow {

SearchSettings ShadowSettings::default_search() {
  SearchSettings s;
  s.audit.shadow_node_cap = 5'000'000;
  s.audit.control_every = kDefaultControlEvery;
  return s;
}

BootstrapSettings ShadowSettings::default_bootstrap() {
  BootstrapSettings boot;
  boot.seed = 1;
  boot.resamples = 2000;
  return boot;
}

namespace {

void add_gate_options(CLI::App& app, ShadowSettings& s) {
  app.add_option(
         "--max-excess", s.excess_texts,
         "[MECH:]BAND=X gate: miss rate minus control rate of a mechanism (all if no MECH:) in a remaining-\n"
         "depth band (LO-HI, LO+ or D) fails when the lower bound of its 95% cluster-bootstrap interval\n"
         "exceeds X; repeatable; replaces the defaults 1-3=0.3 4-6=0.3 7+=0.3")
      ->allow_extra_args(false);
  app.add_option(
         "--max-control", s.max_control,
         "gate: per mechanism, the control rate over all depths fails when its Wilson 95% lower bound\n"
         "exceeds X, or when it has decisions and no control")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app.add_option(
         "--require-excess", s.required_texts,
         "gate: mechanism M's excess over all depths must be significantly > 0; repeatable; default lmr;\n"
         "'none' for none")
      ->allow_extra_args(false);
  app.add_option(
         "--max-rate", s.rate_texts,
         "[MECH:]BAND=RATE gate on the raw miss rate's Wilson lower bound (none by default: raw rates\n"
         "include the re-search noise the control measures)")
      ->allow_extra_args(false);
  app.add_option(
         "--max-artifact-share", s.max_artifact,
         "gate: share of classified misses at depth >= 3 with the fabricated-bound signature")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
}

void add_measure_options(CLI::App& app, ShadowSettings& s) {
  app.add_option("--bootstrap-seed", s.boot.seed, "cluster bootstrap over root positions: seed")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 62));
  app.add_option("--bootstrap-resamples", s.boot.resamples, "cluster bootstrap: resamples")
      ->capture_default_str()
      ->check(CLI::Range(100, 1'000'000));
  app.add_option("--classify-depths", s.classify_depths,
                 "open-window re-searches of each miss at d..d+K")
      ->capture_default_str()
      ->check(CLI::Range(0, 16));
  app.add_option("--classify-nodes", s.classify_nodes, "node cap per miss re-search")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_option("--classify-max", s.classify_max,
                 "misses classified, same quota per mechanism x depth cell")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 40));
  app.add_option("--shadow-nodes", s.search.audit.shadow_node_cap,
                 "node cap per shadow search; a capped one is discarded")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1000), std::uint64_t(1) << 40));
  app.add_option("--hash", s.search.hash_mb, "hash table MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
}

}  // namespace

BudgetOptions add_shadow_options(CLI::App& app, ShadowSettings& s) {
  BudgetOptions given;
  app.add_option(
      "--epd", s.epd_file,
      "positions (an EPD suite, e.g. $STK_SHARED/suites/ECM.epd: each line needs bm or am, "
      "unused here); required");
  given.depth = app.add_option("--depth", s.search.depth,
                               "real search per position: sd N (give --depth or --nodes)")
                    ->check(CLI::Range(1, 64));
  given.nodes = app.add_option("--nodes", s.search.nodes,
                               "real search per position: sn N (shadow nodes not counted)")
                    ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
  app.add_option("--stride", s.stride, "every S-th position (index % S == 0)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--shard", s.shard_text, "K/N: the selected positions i with i % N == K-1")
      ->capture_default_str();
  app.add_option(
         "--isolation", s.isolation_text,
         "what a shadow search starts from: legacy | heuristics | table | exact (see docs/harnesses/shadow.md,\n"
         "\"Isolation\"), or components joined by '+': heuristics, table, stack, mate, iir (exact = all five)")
      ->capture_default_str();
  app.add_option(
         "--control-every", s.search.audit.control_every,
         "control of LMP/futility/SEE and of the static null move: every N-th candidate search")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 20));
  app.add_flag("--no-controls", s.no_controls,
               "no control searches (the excess and control gates then fail)");
  add_gate_options(app, s);
  add_measure_options(app, s);
  app.add_option("--config", s.config, "report name (default <epd stem>-<sd|sn><N>)");
  app.add_option("--out-dir", s.out_dir, "reports folder")->capture_default_str();
  app.add_flag("--quiet", s.quiet, "no line per position");
  return given;
}

void resolve_settings(ShadowSettings& s, const BudgetOptions& given) {
  if (s.epd_file.empty()) throw UsageError("--epd FILE is required");
  if (bool(*given.depth) == bool(*given.nodes))
    throw UsageError("give exactly one of --depth N and --nodes N");
  s.search.audit.controls = !s.no_controls;
  if (auto level = parse_isolation(s.isolation_text)) s.search.audit.isolation = *level;
  else
    throw UsageError(
        "--isolation must be legacy, heuristics, table, exact or components joined by '+' "
        "(heuristics, table, stack, mate, iir), got '" +
        s.isolation_text + "'");
  s.shard = parse_shard(s.shard_text);
  for (const std::string& g : s.rate_texts) {
    s.rate_gates.push_back(parse_band_gate("--max-rate", g));
    if (s.rate_gates.back().value < 0) throw UsageError("--max-rate: bad rate in '" + g + "'");
  }
  for (const std::string& g : s.excess_texts)
    s.excess_gates.push_back(parse_band_gate("--max-excess", g));
  if (s.excess_gates.empty())
    for (const char* g : kDefaultMaxExcess)
      s.excess_gates.push_back(parse_band_gate("--max-excess", g));
  for (const std::string& m : s.required_texts)
    if (m != "none") s.required.push_back(parse_mechanism("--require-excess", m));
  if (s.required_texts.empty()) s.required.push_back(int(Mechanism::Lmr));
  s.budget = s.search.depth ? fmt::format("sd{}", s.search.depth)
                            : fmt::format("sn{}", s.search.nodes);
  if (s.config.empty())
    s.config = std::filesystem::path(s.epd_file).stem().string() + "-" + s.budget;
  s.isolation = isolation_name(s.search.audit.isolation);
}

}  // namespace stk::harness::shadow
