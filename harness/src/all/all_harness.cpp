// stk-harness all --tier quick|full: every harness in order, each writing its own reports.
// Steps run as child processes so one harness's crash cannot take the others' reports with it.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "all/tier_steps.h"
#include "commands.h"
#include "common/cli.h"
#include "report/junit.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness all [--tier quick|full] [--out-dir DIR] [--only NAME]... [--list]\n"
    "  Runs every harness of the tier in order (see --list). Suites are read from $STK_SHARED\n"
    "  (default ../shared); Python checks use $STK_PYTHON (default .venv/bin/python).\n";

}  // namespace

int run_all(int argc, char** argv) {
  try {
    Args args(argc, argv, {"tier", "out-dir", "only"}, {"help", "list"});
    if (args.has("help")) return std::cout << kUsage, 0;
    std::string tier = args.get("tier", "quick");
    if (tier != "quick" && tier != "full") throw UsageError("--tier must be quick or full");
    std::string out_dir = args.get("out-dir", "reports");
    std::string self = std::filesystem::canonical("/proc/self/exe").string();
    StepContext ctx{tier, out_dir, self, shared_dir()};
    auto steps = tier_steps(ctx);
    auto only = args.all("only");
    if (args.has("list")) {
      for (const auto& s : steps) std::cout << s.name << ": " << s.command << "\n";
      return 0;
    }
    junit::TestSuite suite;
    suite.name = "all." + tier;
    suite.property("tier", tier);
    suite.property("shared_dir", ctx.shared);
    junit::add_build_properties(suite);
    int worst = 0;
    auto t_all = std::chrono::steady_clock::now();
    for (const auto& s : steps) {
      if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
      std::cout << "== " << s.name << ": " << s.command << std::endl;
      auto t0 = std::chrono::steady_clock::now();
      int status = std::system(s.command.c_str());
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
      junit::TestCase tc;
      tc.classname = "all." + tier;
      tc.name = s.name;
      tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      tc.facts = {{"command", s.command}, {"exit_code", std::to_string(code)}};
      if (code == 1) {
        tc.outcome = junit::Outcome::Failed;
        tc.message = "a gate failed (see its own report)";
      } else if (code != 0) {
        tc.outcome = junit::Outcome::Error;
        tc.message = fmt::format("the harness could not run (exit {})", code);
      }
      worst = std::max(worst, code == 0 ? 0 : code == 1 ? 1 : 2);
      std::cout << "== " << s.name << ": exit " << code << fmt::format(" ({:.1f} s)", tc.time_s)
                << std::endl;
      suite.cases.push_back(std::move(tc));
    }
    suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();
    std::string err;
    if (!junit::write_report(out_dir + "/junit/all-" + tier + ".xml", {suite}, &err))
      throw InputError(err);
    std::cout << fmt::format("all {}: {} steps, {} failed, {} errors\n", tier, suite.cases.size(),
                             suite.count(junit::Outcome::Failed), suite.count(junit::Outcome::Error));
    return worst;
  } catch (...) {
    return input_failure("stk-harness all", kUsage);
  }
}

}  // namespace stk::harness
