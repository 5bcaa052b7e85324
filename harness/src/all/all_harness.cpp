// stk-harness all --tier quick|full: every harness in order, each writing its own reports.
// Steps run as child processes so one harness's crash cannot take the others' reports with it.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "all/step_runner.h"
#include "all/tier_steps.h"
#include "commands.h"
#include "common/cli.h"
#include "compare/compare_side.h"
#include "report/junit.h"
#include "review/review.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness all [--tier quick|full|premerge] [--base REV] [--max-regressions K] [--out-dir DIR]\n"
    "                       [--only NAME]... [--list]\n"
    "  Runs every harness of the tier in order (see --list). Suites are read from $STK_SHARED\n"
    "  (default ../shared); Python checks use $STK_PYTHON (default .venv/bin/python).\n"
    "  premerge (needs --base REV): compare REV with this build (gate: at most K ECM positions lost at\n"
    "  each budget, default 25; a bench change is allowed and reported), then a non-regression match.\n";

}  // namespace

int run_all(int argc, char** argv) {
  try {
    Args args(argc, argv, {"tier", "out-dir", "only", "base", "max-regressions"}, {"help", "list"});
    if (args.has("help")) return std::cout << kUsage, 0;
    std::string tier = args.get("tier", "quick");
    if (tier != "quick" && tier != "full" && tier != "premerge") throw UsageError("--tier must be quick, full or premerge");
    std::string out_dir = args.get("out-dir", "reports");
    if (!args.has("list")) declare_report(out_dir + "/junit/all-" + tier + ".xml", "all." + tier);
    if (tier == "premerge" && !args.has("base")) throw UsageError("--tier premerge needs --base REV (the revision to compare with)");
    if (tier != "premerge" && (args.has("base") || args.has("max-regressions")))
      throw UsageError("--base and --max-regressions are for --tier premerge only");
    std::string self = std::filesystem::canonical("/proc/self/exe").string();
    StepContext ctx{tier, out_dir, self, shared_dir()};
    if (tier == "premerge") {
      ctx.base = args.get("base");
      ctx.base_commit = compare::resolve_side("base", ctx.base, {}).commit;
      if (ctx.base_commit.empty()) throw UsageError("--base " + ctx.base + ": not a git revision of this repository");
      ctx.max_regressions = int(args.get_int("max-regressions", ctx.max_regressions, 0, 1000000));
    }
    auto steps = tier_steps(ctx);
    auto only = args.all("only");
    if (args.has("list")) {
      for (const auto& s : steps) std::cout << s.name << ": " << s.command << "\n";
      return 0;
    }
    const std::string junit_path = out_dir + "/junit/all-" + tier + ".xml";
    const std::vector<Step> selected = select_steps(steps, only);
    junit::TestSuite suite;
    suite.name = "all." + tier;
    suite.property("tier", tier);
    suite.property("shared_dir", ctx.shared);
    if (!ctx.base.empty()) suite.property("base", ctx.base + " (" + ctx.base_commit + ")");
    junit::add_build_properties(suite);
    int worst = 0;
    auto t_all = std::chrono::steady_clock::now();
    for (const auto& s : selected) {
      std::cout << "== " << s.name << ": " << s.command << std::endl;
      junit::TestCase tc = run_step(s, "all." + tier);
      const int code = tc.outcome == junit::Outcome::Passed ? 0 : tc.outcome == junit::Outcome::Failed ? 1 : 2;
      worst = std::max(worst, code);
      std::cout << "== " << s.name << ": " << (code == 0 ? "passed" : code == 1 ? "FAILED" : "ERROR")
                << (code == 2 ? " (" + tc.message + ")" : "") << fmt::format(" ({:.1f} s)", tc.time_s) << std::endl;
      suite.cases.push_back(std::move(tc));
    }
    suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();
    std::string err;
    if (!junit::write_report(junit_path, {suite}, &err))
      throw InputError(err);
    std::cout << fmt::format("all {}: {} steps, {} failed, {} errors\n", tier, suite.cases.size(),
                             suite.count(junit::Outcome::Failed), suite.count(junit::Outcome::Error));
    // This run's headline figures appended to the history (one transaction), then the review page
    // over everything now under the reports directory (exit 1 if an input is bad).
    try {
      review::record_history(out_dir, out_dir + "/history.sqlite", tier, std::cout);
    } catch (const InputError& e) {
      std::cerr << "stk-harness all: " << e.what() << " (nothing appended)\n";
      worst = 2;
    }
    review::ReviewOptions page;
    page.reports = out_dir;
    worst = std::max(worst, review::write_review_page(page, std::cout));
    return worst;
  } catch (...) {
    return input_failure("stk-harness all", kUsage);
  }
}

}  // namespace stk::harness
