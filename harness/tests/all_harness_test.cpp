// stk-harness all: a step counts as passed only when it exits 0 AND writes the reports it owes,
// fresh, saying what its exit status says; an --only naming no step is a usage error.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <signal.h>

#include <algorithm>

#include <fstream>
#include <sstream>

#include "commands/all/step_runner.h"
#include "commands/all/tier_steps.h"
#include "cli_support.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

const char* kPassing =
    "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\"><testsuite name=\"s.t\" tests=\"1\" "
    "failures=\"0\" errors=\"0\"><testcase classname=\"s.x\" name=\"ok\"/></testsuite></testsuites>\n";
const char* kFailing =
    "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"1\" errors=\"0\"><testsuite name=\"s.t\" tests=\"1\" "
    "failures=\"1\" errors=\"0\"><testcase classname=\"s.x\" name=\"bad\"><failure message=\"m\"/></testcase>"
    "</testsuite></testsuites>\n";

// A step whose command writes `content` to the report (or nothing) and exits with `code`: a
// /bin/sh script given its values as arguments.
harness::Step fake_step(const std::filesystem::path& report, const char* content, int code) {
  harness::Argv sh = {"/bin/sh",
                      "-c",
                      content ? "printf '%s' \"$1\" > \"$2\"; exit $3" : "exit $3",
                      "fake",
                      content ? content : "",
                      report.string(),
                      std::to_string(code)};
  return {"fake", {sh}, {report.string()}};
}

}  // namespace

TEST_CASE("all: a step's outcome needs its fresh report, agreeing with its exit status",
          "[all][harness]") {
  auto dir = test::scratch_dir("all-steps");
  const auto report = dir / "junit" / "fake.xml";
  std::filesystem::create_directories(report.parent_path());
  auto run = [&](const harness::Step& s) { return harness::run_step(s, "all.test"); };

  auto ok = run(fake_step(report, kPassing, 0));
  CHECK(ok.outcome == junit::Outcome::Passed);
  auto failed = run(fake_step(report, kFailing, 1));
  CHECK(failed.outcome == junit::Outcome::Failed);

  // Exit 0 without writing the report: an error, also when an old passing report is in place.
  test::write_file(report, kPassing);
  auto silent = run(fake_step(report, nullptr, 0));
  CHECK(silent.outcome == junit::Outcome::Error);
  CHECK_THAT(silent.message, Contains("wrote no report") && Contains("fake.xml"));

  // Exit status and report disagree: an error either way.
  auto lies_green = run(fake_step(report, kFailing, 0));
  CHECK(lies_green.outcome == junit::Outcome::Error);
  CHECK_THAT(lies_green.message, Contains("exit 0 but its report"));
  auto lies_red = run(fake_step(report, kPassing, 1));
  CHECK(lies_red.outcome == junit::Outcome::Error);
  CHECK_THAT(lies_red.message, Contains("exit 1 but no report records a failure"));

  auto garbage = run(fake_step(report, "not xml", 0));
  CHECK(garbage.outcome == junit::Outcome::Error);
  CHECK_THAT(garbage.message, Contains("does not parse"));

  auto input = run(fake_step(report, nullptr, 2));
  CHECK(input.outcome == junit::Outcome::Error);
}

// A step's status is the one a shell gives a && list (docs/harnesses/all.md): the first command that does
// not exit 0 ends the step with its exit status, or 128 + N when signal N ended it (the closing
// draw: `128 % N` passed, since no step here had died of a signal).
TEST_CASE("all: a step ends at its first failing command with the status a shell gives",
          "[all][harness]") {
  auto dir = test::scratch_dir("all-step-status");
  const auto marker = dir / "ran-after";
  const harness::Argv touch = {"/bin/sh", "-c", "touch \"$1\"", "t", marker.string()};
  struct Ending {
    const char* script;
    int status;
  };
  for (const Ending e :
       {Ending{"exit 3", 3}, Ending{"kill -TERM $$", 128 + SIGTERM},
        Ending{"kill -SEGV $$", 128 + SIGSEGV}, Ending{"kill -KILL $$", 128 + SIGKILL}}) {
    INFO(e.script);
    std::filesystem::remove(marker);
    const harness::Step step{"ends", {{"/bin/sh", "-c", e.script}, touch}, {}};
    const junit::TestCase tc = harness::run_step(step, "all.test");
    CHECK(tc.outcome == junit::Outcome::Error);
    CHECK_THAT(tc.message, Contains(fmt::format("(exit {})", e.status)));
    CHECK_FALSE(std::filesystem::exists(marker));  // the commands after it never ran
    const auto fact = std::find_if(tc.facts.begin(), tc.facts.end(),
                                   [](const auto& f) { return f.first == "exit_code"; });
    REQUIRE(fact != tc.facts.end());
    CHECK(fact->second == std::to_string(e.status));
  }
  const harness::Step both{"both", {{"/bin/true"}, touch}, {}};
  CHECK(harness::run_step(both, "all.test").outcome == junit::Outcome::Passed);
  CHECK(std::filesystem::exists(marker));  // after a command that exits 0, the next one runs
}

TEST_CASE("all: every step of both tiers declares the reports it writes", "[all]") {
  for (const char* tier : {"quick", "full"}) {
    harness::StepContext ctx{tier, "R", "/x/harness/stk-harness", "S"};
    for (const auto& s : harness::tier_steps(ctx)) {
      INFO(tier << " " << s.name);
      CHECK_FALSE(s.reports.empty());
      for (const auto& r : s.reports) CHECK(r.rfind("R/junit/", 0) == 0);
    }
  }
}

// A step runs the tool its name says (the name's first word: `drift-trained` runs drift,
// `eval-parity` runs `parity eval`), and writes its reports under the name of that tool. Planted
// by the mutation campaign: the drift step's tool and checkpoint commented out of its command.
TEST_CASE("all: every step's command runs the tool its name says", "[all]") {
  for (const char* tier : {"quick", "full"}) {
    harness::StepContext ctx{tier, "R", "/x/harness/stk-harness", "S"};
    for (const auto& s : harness::tier_steps(ctx)) {
      const std::string command = s.command_line();
      INFO(tier << " " << s.name << ": " << command);
      // The name's first word or its first two (uci-check); fh-compare is epd-compare's A/B of
      // the fail-high predictor.
      const auto second = s.name.find('-', s.name.find('-') + 1);
      std::vector<std::string> tools{s.name.substr(0, s.name.find('-')), s.name.substr(0, second)};
      if (s.name == "fh-compare") tools = {"epd-compare"};
      bool runs = false;
      for (const auto& tool : tools)
        runs = runs || command.find(" " + tool + " ") != std::string::npos ||
               command.find("stkref." + tool + " ") != std::string::npos ||
               command.find("stktrain." + tool + " ") != std::string::npos;
      CHECK(runs);
      CHECK(command.find("stkref. ") == std::string::npos);  // a module name lost
      CHECK(command.find("stktrain. ") == std::string::npos);
    }
  }
}

TEST_CASE("all: --only naming no step is a usage error with an error report", "[all][harness]") {
  auto dir = test::scratch_dir("all-only");
  auto r = test::run_command(test::harness_bin() +
                             " all --tier quick --only no-such-step --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Contains("--only: no step named 'no-such-step'") && Contains("perft-golden"));
  std::ifstream in(dir / "junit" / "all-quick.xml");
  std::stringstream xml;
  xml << in.rdbuf();
  CHECK_THAT(xml.str(), Contains("<error message="));
}

TEST_CASE("all: the premerge tier compares --base with this build, then a non-regression match",
          "[all][harness]") {
  auto dir = test::scratch_dir("all-premerge");
  auto list = test::run_command(test::harness_bin() + " all --tier premerge --base HEAD --list");
  INFO(list.output);
  CHECK(list.exit_code == 0);
  CHECK_THAT(list.output, Contains("compare: ") &&
                              Contains("compare --base=HEAD --candidate worktree") &&
                              Contains("match --engine cmd=") && Contains("--gate non-regression"));
  harness::StepContext ctx{"premerge", "R", "/x/harness/stk-harness", "S", "HEAD~1", "abc"};
  auto steps = harness::tier_steps(ctx);
  REQUIRE(steps.size() == 4);
  // The sanitizer match: the ASan+UBSan engine built from this tree, every report a lost game,
  // any fault fails the step (20 games by default: 10 pairs).
  CHECK(steps[2].name == "sanitizer-match");
  REQUIRE(steps[2].commands.size() == 3);
  CHECK(steps[2].commands[0] ==
        harness::Argv{"cmake", "-S", "/", "--preset", "asan", "-DSTK_WERROR=OFF"});
  CHECK_THAT(steps[2].command_line(),
             Contains("'cmd=env ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=0 "
                      "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86 "
                      "/build/asan/engine/stk'") &&
                 Contains("--pairs 10 ") && Contains("--max-faults 0 ") &&
                 Contains("/build/compare/abc/build/release/engine/stk"));
  CHECK(steps[2].reports == std::vector<std::string>{"R/junit/match-premerge-sanitizer.xml"});
  ctx.sanitizer_games = 7;
  CHECK_THAT(harness::tier_steps(ctx)[2].command_line(), Contains("--pairs 4 "));
  ctx.sanitizer_games = 0;
  CHECK(harness::tier_steps(ctx).size() == 3);
  ctx.sanitizer_games = 20;
  CHECK_THAT(test::run_command(test::harness_bin() +
                               " all --tier premerge --base HEAD --sanitizer-games 0 --list")
                 .output,
             !Contains("sanitizer-match"));
  CHECK(test::run_command(test::harness_bin() + " all --tier quick --sanitizer-games 4 --list")
            .exit_code == 2);
  // The diff's tool-generated mutants, shown at review: no report for `all` to gate on.
  CHECK(steps[3].name == "mutation-diff");
  CHECK_THAT(steps[3].command_line(), Contains("/ci/mutation.sh --diff abc --per-module 2 ") &&
                                          Contains("--config premerge --out-dir=R"));
  CHECK(steps[3].reports.empty());
  CHECK(steps[0].reports == std::vector<std::string>{"R/junit/compare-HEAD_1-vs-worktree.xml"});
  CHECK(steps[1].reports ==
        std::vector<std::string>{"R/junit/match-premerge.xml", "R/junit/match-premerge-aa.xml"});
  CHECK_THAT(steps[1].command_line(), Contains("--out-dir=R") && Contains("--ab-control"));
  // The compare step is gated: at most 25 ECM positions lost at each budget unless told otherwise.
  CHECK_THAT(steps[0].command_line(), Contains("--max-regressions 25 "));
  CHECK_THAT(steps[0].command_line(),
             !Contains("--gate bench-unchanged"));  // a bench change is allowed (and reported)
  ctx.max_regressions = 3;
  CHECK_THAT(harness::tier_steps(ctx)[0].command_line(), Contains("--max-regressions 3 "));
  auto k = test::run_command(test::harness_bin() +
                             " all --tier premerge --base HEAD --max-regressions 7 --list");
  CHECK_THAT(k.output, Contains("--max-regressions 7 "));
  CHECK(test::run_command(test::harness_bin() + " all --tier quick --max-regressions 7 --list")
            .exit_code == 2);
  CHECK_THAT(steps[1].command_line(), Contains("/build/compare/abc/build/release/engine/stk"));
  // Without --base (or with one that is no revision) the tier is a usage error with an error report.
  auto missing = test::run_command(test::harness_bin() + " all --tier premerge --out-dir " +
                                   dir.string());
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Contains("--tier premerge needs --base REV"));
  CHECK_THAT(test::read_file(dir / "junit" / "all-premerge.xml"), Contains("<error"));
  CHECK(test::run_command(test::harness_bin() + " all --tier premerge --base no-such-rev --list")
            .exit_code == 2);
  CHECK(test::run_command(test::harness_bin() + " all --tier quick --base HEAD --list").exit_code ==
        2);
}
