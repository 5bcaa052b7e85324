// The premerge tier: what a developer runs before merging an engine change, against the revision it
// branched from. About 30 minutes on 2 cores (compare a few minutes once the base is built, the
// match most of it), then the sanitizer match and the diff's mutants.
#include <filesystem>

#include "commands/all/tier_steps.h"
#include "commands/compare/compare_side.h"
#include "report/run_report.h"
#include "repro/sanitizer_report.h"

namespace stk::harness {

std::vector<Step> premerge_steps(const StepContext& c) {
  // Values from outside (the reports folder, --base, the shared folder) as --name=VALUE: one
  // starting with '-' is still a value.
  const std::string out = "--out-dir=" + c.out_dir;
  const std::string candidate_engine =
      (std::filesystem::path(c.self).parent_path().parent_path() / "engine" / "stk").string();
  const std::string base_engine = compare::revision_dir(c.base_commit) +
                                  "/build/release/engine/stk";
  const std::string config = compare::file_label(c.base) + "-vs-worktree";
  std::vector<Step> steps;
  // 1. compare: the base built once in build/compare/<commit>, this build as the candidate; every
  //    4th ECM position (220) at equal nodes and equal depth, 5 alternating speed runs, the audits.
  //    Gate: at most K positions lost at each budget (a search change moved +9/-9 of 110 positions at
  //    100,000 nodes, so the default 25 of 220 passes noise and stops a broken candidate). A bench
  //    change is allowed and reported (a search change changes it); a change claimed speed-only is
  //    judged with `stk-harness compare --base REV --candidate worktree --gate bench-unchanged`.
  steps.push_back(
      {"compare",
       {args(c.self, "compare", "--base=" + c.base, "--candidate", "worktree",
             "--epd=" + c.shared + "/suites/ECM.epd", "--stride", "4", "--nodes", "100000",
             "--depth", "9", "--speed-runs", "5", "--audits", "--audit-stride", "40",
             "--max-regressions", std::to_string(c.max_regressions), "--config", config, out)},
       {report::junit_path(c.out_dir, "compare", config)}});
  // 2. A non-regression SPRT between the two engines at 20,000 nodes per move (stk-harness match);
  //    300 pairs rarely reach a bound of [-3, 1] nElo for a near-neutral change, so a run undecided
  //    at its budget passes when its Elo lower95 is above -50 (600 games: +-25 Elo; a 50 Elo loss
  //    fails almost always, a neutral change about 2%); small regressions need the full SPRT
  //    (docs/openbench.md).
  //    with its A/A control (base against base: every pair mirrored at fixed nodes). The base's engine
  //    is the one the compare step built. Both JUnit files land in <out>/junit, where the review
  //    page reads every report.
  steps.push_back({"match",
                   {args(c.self, "match", "--engine", "cmd=" + candidate_engine, "name=candidate",
                         "--engine", "cmd=" + base_engine, "name=base", "--nodes", "20000",
                         "--pairs", "300", "--concurrency", "2", "--sprt", "elo0=-3", "elo1=1",
                         "alpha=0.05", "beta=0.05", "--gate", "non-regression", "--min-elo-lower95",
                         "-50", "--ab-control", "--config", "premerge", out)},
                   {report::junit_path(c.out_dir, "match", "premerge"),
                    report::junit_path(c.out_dir, "match", "premerge-aa")}});
  // 3. The sanitizer match: the candidate built with ASan + UBSan (preset asan, only the engine: a
  //    few minutes on 2 cores) plays --sanitizer-games games against the base at 5,000 nodes a
  //    move. Every sanitizer report ends the engine with exit status 86 (repro/sanitizer_report.h),
  //    so the game is lost by a crash with the report in its reason and the reproducer bundle;
  //    --max-faults 0 fails the step on the first. Strength is not judged here (the sanitized
  //    engine plays the release build's moves at fixed nodes): its Elo bar is out of reach.
  if (c.sanitizer_games > 0) {
    const std::filesystem::path src =
        std::filesystem::path(c.self).parent_path().parent_path().parent_path().parent_path();
    const std::string asan_engine = (src / "build" / "asan" / "engine" / "stk").string();
    steps.push_back(
        {"sanitizer-match",
         {args("cmake", "-S", src.string(), "--preset", "asan", "-DSTK_WERROR=OFF"),
          args("cmake", "--build", (src / "build" / "asan").string(), "--target", "stk", "-j", "2"),
          args(c.self, "match", "--engine",
               "cmd=" + repro::sanitizer_env_words() + " " + asan_engine, "name=candidate-asan",
               "--engine", "cmd=" + base_engine, "name=base", "--nodes", "5000", "--pairs",
               std::to_string((c.sanitizer_games + 1) / 2), "--concurrency", "2", "--gate",
               "non-regression", "--min-elo-lower95", "-100000", "--max-faults", "0", "--config",
               "premerge-sanitizer", out)},
         {report::junit_path(c.out_dir, "match", "premerge-sanitizer")}});
  }
  // 4. Tool-generated mutants on the lines changed since the base (ci/mutation.sh --diff; two per
  //    changed module, seed 1), listed for review: survivors do not fail the merge, so the step
  //    declares no report for `all` to judge (its JUnit lists each survivor as a failure, and the
  //    review page shows it); only a setup error (exit 2) fails the step. A stricter team adds
  //    --fail-under PCT to the command.
  const std::filesystem::path root =
      std::filesystem::path(c.self).parent_path().parent_path().parent_path().parent_path();
  steps.push_back({"mutation-diff",
                   {args((root / "ci" / "mutation.sh").string(), "--diff", c.base_commit,
                         "--per-module", "2", "--seed", "1", "--config", "premerge", out)},
                   {}});
  return steps;
}

}  // namespace stk::harness
