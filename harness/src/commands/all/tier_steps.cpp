#include "commands/all/tier_steps.h"

#include <cstdlib>
#include <filesystem>

#include "proc/command_words.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {
// The Python reference's interpreter: $STK_PYTHON, else the project venv (ci/install-deps.sh).
std::string python() {
  const char* env = std::getenv("STK_PYTHON");
  return env && *env ? env : ".venv/bin/python";
}

// A path given as a positional argument: one starting with '-' would read as an option.
std::string positional(const std::string& path) {
  return path.starts_with("-") ? "./" + path : path;
}

// What the steps of one tier share: the context, the command prefixes and the report paths. A
// value from outside (the reports folder, the shared folder) is passed as --name=VALUE, so that one
// starting with '-' is still a value.
struct Tier {
  explicit Tier(const StepContext& ctx)
      : c(ctx),
        full(ctx.tier == "full"),
        engine((std::filesystem::path(ctx.self).parent_path().parent_path() / "engine" / "stk")
                   .string()),
        out({"--out-dir=" + ctx.out_dir}),
        pyout({"--reports-dir=" + ctx.out_dir}),
        ecm({"--epd=" + ctx.shared + "/suites/ECM.epd"}) {}

  const StepContext& c;
  const bool full;
  const std::string engine;  // the engine beside this stk-harness
  const Argv out;            // --out-dir for stk-harness
  const Argv pyout;          // --reports-dir for the Python reference
  const Argv ecm;            // --epd of the shared ECM suite

  Argv h(const std::string& command) const { return {c.self, command}; }  // this stk-harness
  Argv py(const std::string& module) const { return {python(), "-m", "stkref." + module}; }
  // Training and net assessment.
  Argv train(const std::string& module) const { return {python(), "-m", "stktrain." + module}; }

  std::string junit(const std::string& harness, const std::string& config) const {
    return report::junit_path(c.out_dir, harness, config);
  }
};

// Move generation: perft counts.
void add_perft_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 1. perft: the project's golden set always; the shared 126-position suite in the full tier.
  steps.push_back(
      {"perft-golden",
       {args(t.h("perft"), "--config", "golden-" + c.tier, "--depth", full ? "6" : "5", t.out)},
       {t.junit("perft", "golden-" + c.tier)}});
  // Rare geometries at every depth of their golden counts (5.1 M nodes, under a second): pinned
  // pawns that capture and promote, en passant along pins, castling past attacked squares.
  steps.push_back({"perft-rare",
                   {args(t.h("perft"), "--config", "rare-" + c.tier, "--epd",
                         "golden/perft-rare.epd", "--depth", "15", t.out)},
                   {t.junit("perft", "rare-" + c.tier)}});
  if (full)
    steps.push_back({"perft-suite",
                     {args(t.h("perft"), "--config", "perftsuite", "--depth", "6",
                           "--epd=" + c.shared + "/suites/perftsuite.epd", t.out)},
                     {t.junit("perft", "perftsuite")}});
}

// The Python reference against the engine: features, golden nets, evaluation, drift.
void add_reference_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 2. features: Python reference encoder vs the engine's, bit for bit.
  steps.push_back(
      {"features",
       {args(t.py("parity"), "features", "--engine", t.engine, "--seed", "1", "--random",
             full ? "100000" : "10000", t.ecm, "--config", c.tier, t.pyout)},
       {t.junit("features", c.tier)}});
  // 4. drift and integer parity on the golden H=128 net: oracle vs engine at 0 cp, mirrors, and
  //    float-vs-quantized statistics; the golden check catches a change in any of the three paths.
  const std::string net = "golden/nets/stk-h128-seed1.nnue";
  // The golden net's bytes against the SHA-256 recorded beside it (a flipped weight byte fails).
  steps.push_back({"checknet-golden",
                   {args(t.h("checknet"), net, "--manifest", "golden/nets/manifest.json",
                         "--junit=" + t.junit("checknet", "golden-" + c.tier))},
                   {t.junit("checknet", "golden-" + c.tier)}});
  steps.push_back({"golden-nets",
                   {args(t.py("golden"), "--check", "golden/nets",
                         "--junit=" + t.junit("golden-nets", c.tier))},
                   {t.junit("golden-nets", c.tier)}});
  steps.push_back(
      {"eval-parity",
       {args(t.py("parity"), "eval", "--engine", t.engine, "--net", net, "--seed", "1", "--random",
             full ? "20000" : "2000", t.ecm, "--config", "h128-" + c.tier, t.pyout)},
       {t.junit("eval", "h128-" + c.tier)}});
  steps.push_back({"drift",
                   {args(t.py("drift"), "--checkpoint", "golden/nets/stk-h128-seed1.npz", "--net",
                         net, "--engine", t.engine, "--seed", "1", "--random",
                         full ? "20000" : "2000", t.ecm, "--max-p99-cp", "40", "--max-max-cp", "80",
                         "--max-overflows", "0", "--config", "h128-" + c.tier, t.pyout)},
                   {t.junit("drift", "h128-" + c.tier)}});
  // Net lint on the golden net, in the engine's integer arithmetic: clipping shares, dead and
  // saturated units, int16/int32 headroom (gates: docs/harnesses/netlint.md).
  steps.push_back({"netlint",
                   {args(t.train("netlint"), "--net", net, "--seed", "1", "--random",
                         full ? "5000" : "500", t.ecm, "--config", "h128-" + c.tier, t.pyout)},
                   {t.junit("netlint", "h128-" + c.tier)}});
  if (full) {
    // The big net: a seeded H=1024 checkpoint is generated and exported at run time (47 MB, never
    // committed), then engine vs oracle at 0 cp and the drift statistics.
    const std::string dir = c.out_dir + "/nets";
    const std::string ckpt = positional(dir + "/stk-h1024-seed2.npz"),
                      big = positional(dir + "/stk-h1024-seed2.nnue");
    steps.push_back({"eval-parity-h1024",
                     {{"mkdir", "-p", "--", dir},
                      args(t.py("checkpoint"), "--hidden", "1024", "--seed", "2", ckpt),
                      args(t.train("export"), ckpt, big),
                      args(t.py("parity"), "eval", "--engine", t.engine, "--net=" + big, "--seed",
                           "1", "--random", "10000", t.ecm, "--config", "h1024-full", t.pyout)},
                     {t.junit("eval", "h1024-full")}});
    steps.push_back({"drift-h1024",
                     {args(t.py("drift"), "--checkpoint=" + ckpt, "--net=" + big, "--engine",
                           t.engine, "--seed", "1", "--random", "5000", t.ecm, "--max-p99-cp", "40",
                           "--max-max-cp", "80", "--config", "h1024-full", t.pyout)},
                     {t.junit("drift", "h1024-full")}});
  }
}

// The trained net (golden/nets/trained/, provenance in its manifest): every NNUE gate again on
// the activations of a net that learnt something. Drift gates from what it measures: p99 20 cp,
// max 31 cp over 20,911 positions (docs/trained-net.md), so p99 <= 30 and max <= 50 leave room
// for positions the corpus lacks while a rounding change (p99 past 40 on the seeded net) fails.
void add_trained_net_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  const std::string dir = "golden/nets/trained/";
  const std::string net = dir + "stk-h128-trained.nnue", config = "trained-" + c.tier;
  steps.push_back({"checknet-trained",
                   {args(t.h("checknet"), net, "--manifest", dir + "manifest.json",
                         "--junit=" + t.junit("checknet", config))},
                   {t.junit("checknet", config)}});
  steps.push_back({"eval-parity-trained",
                   {args(t.py("parity"), "eval", "--engine", t.engine, "--net", net, "--seed", "1",
                         "--random", full ? "20000" : "2000", t.ecm, "--config", config, t.pyout)},
                   {t.junit("eval", config)}});
  steps.push_back(
      {"drift-trained",
       {args(t.py("drift"), "--checkpoint", dir + "stk-h128-trained.npz", "--net", net, "--engine",
             t.engine, "--seed", "1", "--random", full ? "20000" : "2000", t.ecm, "--max-p99-cp",
             "30", "--max-max-cp", "50", "--max-overflows", "0", "--config", config, t.pyout)},
       {t.junit("drift", config)}});
  steps.push_back({"netlint-trained",
                   {args(t.train("netlint"), "--net", net, "--seed", "1", "--random",
                         full ? "5000" : "500", t.ecm, "--max-dead-ft-share", "0.1",
                         "--max-saturated-ft-share", "0.1", "--config", config, t.pyout)},
                   {t.junit("netlint", config)}});
  const Argv long_games = full ? Argv{"--games", "400", "--search-depth", "11"} : Argv{};
  steps.push_back({"accumulator-trained",
                   {args(t.h("accumulator"), "--net", net, "--config", config, long_games, t.out)},
                   {t.junit("accumulator", config)}});
}

// The NNUE accumulator.
void add_accumulator_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 3. accumulator: incremental vs recompute over random games, scalar vs SIMD, mirrors.
  const Argv long_games = full ? Argv{"--games", "400", "--search-depth", "11"} : Argv{};
  steps.push_back({"accumulator",
                   {args(t.h("accumulator"), "--config", c.tier, long_games, t.out)},
                   {t.junit("accumulator", c.tier)}});
  if (full)  // the big net too: >= 100,000 walk steps and >= 1,000,000 audited search nodes
    steps.push_back({"accumulator-h1024",
                     {args(t.h("accumulator"), "--config", "full-h1024", "--hidden", "1024",
                           long_games, t.out)},
                     {t.junit("accumulator", "full-h1024")}});
}

// The EPD suites against their golden solved sets.
void add_epd_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 5. epd: ECM against its golden solved set (a position solved in the golden and failed now
  //    fails). Quick: every 20th position at sd 16; full: all 879 at sn 1000000.
  const Argv budget = full ? Argv{"--nodes",  "1000000",    "--config",
                                  "ecm-full", "--baseline", "golden/epd/ecm-full.json"}
                           : Argv{"--stride",   "20",
                                  "--depth",    "16",
                                  "--config",   "ecm-quick",
                                  "--baseline", "golden/epd/ecm-quick.json"};
  steps.push_back({"epd-ecm",
                   {args(t.h("epd"), "--quiet", t.ecm, "--bench-signature", "auto", budget, t.out)},
                   {t.junit("epd", full ? "ecm-full" : "ecm-quick")}});
  //    The avoid-move path too (ECM has no 'am'): golden/epd/am-quick.epd, clear blunders to
  //    avoid and bm+am pairs, at sd 8 against its golden solved set (6 positions, well under 1 s).
  steps.push_back(
      {"epd-am",
       {args(t.h("epd"), "--quiet", "--epd", "golden/epd/am-quick.epd", "--depth", "8", "--config",
             "am-" + c.tier, "--baseline", "golden/epd/am-quick.json", t.out)},
       {t.junit("epd", "am-" + c.tier)}});
}

// The fail-high predictor: calibration, and on vs off in the full tier.
void add_calibration_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 6. calibration: the fail-high predictor's built-in model on held-out positions (seeded
  //    self-play + ECM, seed 2; the position split is a hash of the position, so no held-out
  //    position was ever in the fit set of ci/make-fhmodel.sh). The records carry the engine's
  //    predictions; --check-recorded holds the Python recompute from fhmodel_default.txt to them,
  //    bit for bit. Quick: 40 games, depth 8, loose gates; full: 500 games (> 2,000 held-out
  //    positions), depth 10, strict gates.
  {
    const std::string dir = c.out_dir + "/fhcollect";
    const std::string sets = dir + "/sets-" + c.tier;
    const std::string records = dir + "/heldout-" + c.tier + ".fhr";
    steps.push_back({"calibration",
                     {args(t.h("fhgen"), "--seed", "2", "--out-dir=" + sets, "--games",
                           full ? "500" : "40", "--ecm=" + c.shared + "/suites/ECM.epd"),
                      args(t.h("fhcollect"), "--positions=" + sets + "/heldout.epd", "--seed", "1",
                           full ? Argv{"--depth", "10", "--full-depth", "9"}
                                : Argv{"--depth", "8", "--full-depth", "7"},
                           "--out=" + records, "--config", "heldout-" + c.tier, t.out),
                      args(t.train("calibration"), "--records=" + records, "--model",
                           "engine/src/search/fhmodel_default.txt", "--check-recorded", "--tier",
                           c.tier, "--out-dir=" + c.out_dir + "/calibration",
                           "--junit=" + t.junit("calibration", c.tier))},
                     {t.junit("fhcollect", "heldout-" + c.tier), t.junit("calibration", c.tier)}});
  }
  if (full)  // what the predictor buys: tree size and solved counts, on vs off at equal depth
    steps.push_back(
        {"fh-compare",
         {args(t.h("epd-compare"), "--quiet", t.ecm, "--depth", "10", "--reference", "inprocess",
               "--option", "FHPredictor=true", "--config", "fh-onoff-sd10", t.out)},
         {t.junit("epd", "fh-onoff-sd10-stk"), t.junit("epd", "fh-onoff-sd10-reference")}});
}

// The search audited, its signature, and the engine as a GUI drives it.
void add_search_steps(const Tier& t, std::vector<Step>& steps) {
  const StepContext& c = t.c;
  const bool full = t.full;
  // 7. shadow: silent-miss audit (isolation exact) with the invariant gate (audit on == off), gates on
  //    the excess of each miss rate over its control, the control rate, LMR sensitivity, the depth of
  //    every shadow root, and the fabricated-bound share. Quick: every 80th ECM position (11) at sd 7;
  //    full: all 879 at sd 8.
  const Argv budget = full ? Argv{"--depth", "8", "--config", "ecm-full"}
                           : Argv{"--stride", "80", "--depth", "7", "--config", "ecm-quick"};
  steps.push_back({"shadow",
                   {args(t.h("shadow"), "--quiet", t.ecm, budget, t.out)},
                   {t.junit("shadow", full ? "ecm-full" : "ecm-quick")}});
  // 8. bench: the search signature (cheap, so both tiers).
  steps.push_back(
      {"bench", {args(t.h("bench"), "--config", c.tier, t.out)}, {t.junit("bench", c.tier)}});
  // 9. uci-check: the engine driven as a GUI drives it (commands during a search, zero limits,
  //    clocks, PVs, notation, games with the table kept, garbage), about 20 s (both tiers).
  steps.push_back(
      {"uci-check",
       {args(t.h("uci-check"), "--engine", t.engine, "--config", "stk-" + c.tier, t.out)},
       {t.junit("uci-check", "stk-" + c.tier)}});
}

// The fault matrices' slow cells (engines that stall or flood, the full-disk sweep over every
// write): the default test run takes their cheap cells on every commit; these take minutes.
void add_fault_matrix_steps(const Tier& t, std::vector<Step>& steps) {
  if (!t.full) return;
  const std::string report = t.junit("pytest", "fault-matrix-full");
  steps.push_back({"pytest-fault-matrix",
                   {{python(), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow",
                     "harness/python/tests/test_fault_matrix.py",
                     "harness/python/tests/test_fault_matrix_python.py", "--junitxml=" + report}},
                   {report}});
}

}  // namespace

// Each tier runs the same areas in this order; what differs between quick and full is inside
// each area (depths, sizes, and steps only the full tier runs).
std::vector<Step> tier_steps(const StepContext& c) {
  if (c.tier == "premerge") return premerge_steps(c);
  const Tier t(c);
  std::vector<Step> steps;
  add_perft_steps(t, steps);
  add_reference_steps(t, steps);
  add_trained_net_steps(t, steps);
  add_accumulator_steps(t, steps);
  add_epd_steps(t, steps);
  add_calibration_steps(t, steps);
  add_search_steps(t, steps);
  add_fault_matrix_steps(t, steps);
  return steps;
}

std::string Step::command_line() const {
  std::string out;
  for (const Argv& argv : commands)
    out += (out.empty() ? "" : " && ") + proc::display_command(argv);
  return out;
}

}  // namespace stk::harness
