// stk-harness all --tier quick|full: every harness in order, each writing its own reports.
// Steps run as child processes so one harness's crash cannot take the others' reports with it.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands/all/step_runner.h"
#include "commands/all/tier_steps.h"
#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "commands/compare/compare_side.h"
#include "proc/command_words.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "commands/review/review.h"

namespace stk::harness {

namespace {

// Runs the steps in order, one testcase each in `suite` (and its time); returns the worst exit
// code (0 passed, 1 a step failed, 2 a step errored).
int run_steps(const std::vector<Step>& selected, const std::string& tier, junit::TestSuite& suite) {
  int worst = 0;
  auto t_all = std::chrono::steady_clock::now();
  for (const auto& s : selected) {
    std::cout << "== " << s.name << ": " << s.command_line() << std::endl;
    junit::TestCase tc = run_step(s, "all." + tier);
    const int code = tc.outcome == junit::Outcome::Passed   ? 0
                     : tc.outcome == junit::Outcome::Failed ? 1
                                                            : 2;
    worst = std::max(worst, code);
    std::cout << "== " << s.name << ": "
              << (code == 0   ? "passed"
                  : code == 1 ? "FAILED"
                              : "ERROR")
              << (code == 2 ? " (" + tc.message + ")" : "") << fmt::format(" ({:.1f} s)", tc.time_s)
              << std::endl;
    suite.cases.push_back(std::move(tc));
  }
  suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();
  return worst;
}

// The tier's own report through the one model: the JUnit suite (one testcase per step), the
// summary reports/all/<tier>.json (each step's outcome and time) and a Markdown table.
report::RunReport tier_report(const std::string& tier, junit::TestSuite suite) {
  report::RunReport run("all", tier);
  report::Json steps = report::Json::array();
  std::string table = "| step | outcome | seconds | message |\n|---|---|---:|---|\n";
  for (const junit::TestCase& c : suite.cases) {
    const char* outcome = junit::to_string(c.outcome);
    steps.push_back(
        {{"name", c.name}, {"outcome", outcome}, {"seconds", c.time_s}, {"message", c.message}});
    table += fmt::format("| {} | {} | {:.1f} | {} |\n", c.name, outcome, c.time_s, c.message);
  }
  run.figures["tier"] = tier;
  run.figures["seconds"] = suite.time_s;
  run.figures["steps"] = std::move(steps);
  run.markdown = "## Steps\n\n" + table;
  run.suites.push_back(std::move(suite));
  return run;
}

// This run's headline figures appended to the history (one transaction), then the review page
// over everything now under the reports directory; returns the worse of `worst` and theirs.
int record_and_review(const std::string& out_dir, const std::string& tier, const std::string& base,
                      int worst) {
  review::ReviewOptions page;
  try {
    long long id = 0;
    review::record_history(out_dir, out_dir + "/history.sqlite", tier, std::cout, &id);
    page.current_run = id;
  } catch (const InputError& e) {
    std::cerr << "stk-harness all: " << e.what() << " (nothing appended)\n";
    // The tier's report must not claim a pass for a run that could not record itself.
    write_error_reports("stk-harness all", e.what(), "the history could not be appended");
    worst = 2;
  }
  page.reports = out_dir;
  page.base_revision = base;
  page.markdown = out_dir + "/review/summary.md";  // the pull-request summary (docs/review.md)
  worst = std::max(worst, review::write_review_page(page, std::cout));
  return worst;
}

}  // namespace

int run_all(int argc, char** argv) {
  CLI::App app{
      "Runs every harness of the tier in order (see --list). Suites are read from $STK_SHARED (default\n"
      "../shared); Python checks use $STK_PYTHON (default .venv/bin/python).\n"
      "premerge (needs --base REV): compare REV with this build (gated by --max-regressions), a\n"
      "non-regression match, the sanitizer match (--sanitizer-games) and the diff's mutants.",
      "stk-harness all"};
  std::string tier = "quick", out_dir = "reports", base;
  std::vector<std::string> only;
  bool list = false, list_reports = false;
  app.add_option("--tier", tier, "quick (CI), full (pre-merge) or premerge")
      ->check(CLI::IsMember({"quick", "full", "premerge"}))
      ->capture_default_str();
  app.add_option("--base", base, "premerge: the revision to compare with");
  int max_regressions = 0;
  CLI::Option* max_regressions_opt =
      app.add_option(
             "--max-regressions", max_regressions,
             "premerge: the compare gate, at most K ECM positions lost at each budget (default 25; a bench change is "
             "allowed and reported)")
          ->check(CLI::Range(0, 1000000));
  int sanitizer_games = 0;
  CLI::Option* sanitizer_games_opt =
      app.add_option("--sanitizer-games", sanitizer_games,
                     "premerge: games the ASan+UBSan build of the candidate plays against the base "
                     "(default 20; 0: no sanitizer match); any sanitizer report fails the step")
          ->check(CLI::Range(0, 100000));
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_option("--only", only, "run only the steps of these names (repeatable)");
  CLI::Option* list_opt = app.add_flag("--list", list, "print the tier's steps and their commands");
  app.add_flag("--list-reports", list_reports,
               "print the tier's steps and the JUnit reports each must write")
      ->excludes(list_opt);
  // Listing (either list) writes no report; a run owes reports/junit/all-<tier>.xml.
  auto declare = [](const std::string& dir, const std::string& t) {
    declare_report(report::junit_path(dir, "all", t), "all." + t);
  };
  auto declare_given = [&] {
    const std::string t = given_value(app, "--tier", "quick");
    if (app.count("--list") + app.count("--list-reports") == 0 &&
        (t == "quick" || t == "full" || t == "premerge"))
      declare(given_value(app, "--out-dir", "reports"), t);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    if (!list && !list_reports) declare(out_dir, tier);
    if (tier == "premerge" && base.empty())
      throw UsageError("--tier premerge needs --base REV (the revision to compare with)");
    if (tier != "premerge" &&
        (!base.empty() || max_regressions_opt->count() > 0 || sanitizer_games_opt->count() > 0))
      throw UsageError(
          "--base, --max-regressions and --sanitizer-games are for --tier premerge only");
    std::string self = std::filesystem::canonical("/proc/self/exe").string();
    StepContext ctx{tier, out_dir, self, shared_dir()};
    if (tier == "premerge") {
      ctx.base = base;
      ctx.base_commit = compare::resolve_side("base", ctx.base, {}).commit;
      if (ctx.base_commit.empty())
        throw UsageError("--base " + ctx.base + ": not a git revision of this repository");
      if (max_regressions_opt->count() > 0) ctx.max_regressions = max_regressions;
      if (sanitizer_games_opt->count() > 0) ctx.sanitizer_games = sanitizer_games;
    }
    auto steps = tier_steps(ctx);
    if (list || list_reports) {
      for (const auto& s : steps) {
        std::cout << s.name << ":";
        if (list) std::cout << " " << s.command_line();
        else
          for (const std::string& r : s.reports) std::cout << " " << proc::display_command({r});
        std::cout << "\n";
      }
      return 0;
    }
    const std::string junit_path = report::junit_path(out_dir, "all", tier);
    const std::vector<Step> selected = select_steps(steps, only);
    junit::TestSuite suite;
    suite.name = "all." + tier;
    suite.property("tier", tier);
    suite.property("shared_dir", ctx.shared);
    if (!ctx.base.empty()) suite.property("base", ctx.base + " (" + ctx.base_commit + ")");
    junit::add_build_properties(suite);
    const int worst = run_steps(selected, tier, suite);
    const int failed_steps = suite.count(junit::Outcome::Failed);
    const int error_steps = suite.count(junit::Outcome::Error);
    report::write_run_report(tier_report(tier, std::move(suite)), out_dir);
    std::cout << fmt::format("all {}: {} steps, {} failed, {} errors\n", tier, selected.size(),
                             failed_steps, error_steps);
    // This run's headline figures appended to the history, then the review page (exit 1 if an
    // input is bad).
    return record_and_review(out_dir, tier, ctx.base_commit, worst);
  } catch (...) {
    return input_failure("stk-harness all", app.help().c_str());
  }
}

}  // namespace stk::harness
