// stk-harness compare on two engine paths and a tiny suite of mates (seconds per run), with planted
// defects that must fail each gate: a wrapper whose bench differs, a wrapper that searches only
// depth 1 (loses the mate in 2, other trees), and a speed bar no equal engine can reach.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "commands/compare/compare_audits.h"
#include "commands/compare/compare_side.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

const char* kMates =
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"m1.backrank\";\n"
    "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id \"m1.black\";\n"
    "6k1/3r1ppp/8/1R6/8/8/3Q1PPP/6K1 w - - bm Rb8+; id \"m2.rook\";\n"
    // ECM.361: found from depth 2 on, missed at depth 1.
    "r3r1k1/p4ppp/2pp1b2/8/q2n1P2/2BQ3P/PPP3P1/1K1R2NR b - - bm Re3; id \"ecm.361\";\n";

struct Run {
  test::RunResult result;
  nlohmann::json json;
  std::string junit;
};

// compare --base A --candidate B on the mates at sn 2000 and sd 6, short speed runs (one unless
// told) per side.
Run compare(const std::filesystem::path& dir, const std::string& base, const std::string& candidate,
            const std::string& extra, const std::string& budgets = "--nodes 2000 --depth 6",
            int speed_runs = 1) {
  test::write_file(dir / "mates.epd", kMates);
  const std::string out = (dir / "out").string();
  Run r;
  r.result = test::run_command(
      test::harness_bin() + " compare --base '" + base + "' --candidate '" + candidate +
      "' --epd " + (dir / "mates.epd").string() + " " + budgets + " --speed-runs " +
      std::to_string(speed_runs) + " --speed-nodes 2000 --config t --out-dir " + out + " " + extra);
  r.junit = out + "/junit/compare-t.xml";
  std::ifstream in(out + "/compare/t.json");
  if (in) r.json = nlohmann::json::parse(in);
  return r;
}

}  // namespace

TEST_CASE("compare: two engine paths side by side, every gate passing on equal engines",
          "[compare][harness]") {
  auto dir = test::scratch_dir("compare-equal");
  auto r = compare(dir, test::engine_bin(), test::engine_bin(),
                   "--gate bench-unchanged --max-regressions 0 --min-speed-ratio 0.2",
                   "--nodes 2000 --depth 6", 3);  // three runs: a min, a median and a max
  INFO(r.result.output);
  CHECK(r.result.exit_code == 0);
  CHECK(test::validate_junit(r.junit) == "");
  REQUIRE(r.json.is_object());
  CHECK(r.json["bench_signature"] == "unchanged");
  CHECK(r.json["base"]["bench_nodes"] == r.json["candidate"]["bench_nodes"]);
  CHECK(r.json["speed"]["runs"] == 3);
  REQUIRE(r.json["suite"]["budgets"].size() == 2);
  for (const auto& b : r.json["suite"]["budgets"]) {
    CHECK(b["base_solved"] == 4);
    CHECK(b["lost"].empty());
    CHECK(b["base_nodes"] == b["candidate_nodes"]);
  }
  CHECK_THAT(r.result.output,
             Contains("bench signature") && Contains("solved sd 6") && Contains("nodes/s"));
}

TEST_CASE(
    "compare: an engine path with options has no bench signature, its trees still judge the gate",
    "[compare][harness]") {
  auto dir = test::scratch_dir("compare-options");
  auto r = compare(dir, test::engine_bin(), test::engine_bin(),
                   "--candidate-option Hash=8 --gate bench-unchanged");
  INFO(r.result.output);
  CHECK(r.result.exit_code == 0);
  CHECK(r.json["bench_signature"] == "n/a");
  CHECK_THAT(r.json["candidate"]["bench_note"].get<std::string>(), Contains("UCI options"));
  // Without the depth run nothing can judge the gate: a usage error, not a pass.
  auto none = compare(dir, test::engine_bin(), test::engine_bin(),
                      "--candidate-option Hash=8 --gate bench-unchanged", "--nodes 2000 --depth 0");
  CHECK(none.result.exit_code == 2);
  CHECK_THAT(none.result.output, Contains("nothing to judge the gate on"));
}

TEST_CASE("compare: planted defects fail each gate", "[compare][harness][planted]") {
  auto dir = test::scratch_dir("compare-planted");
  const std::string stk = "'" + test::engine_bin() + "'";
  SECTION("a candidate whose bench searches more nodes fails bench-unchanged") {
    auto more = test::write_script(dir, "more-nodes",
                                   "[ \"$1\" = bench ] && exec " + stk + " bench 14\nexec " + stk +
                                       " \"$@\"");
    auto r = compare(dir, test::engine_bin(), more, "--gate bench-unchanged");
    INFO(r.result.output);
    CHECK(r.result.exit_code == 1);
    CHECK(r.json["bench_signature"] == "changed");
    CHECK_THAT(test::read_file(r.junit), Contains("bench signature changed: 1595000 -&gt; "));
    CHECK(test::validate_junit(r.junit) == "");
    // Without the gate the same run is a measurement and passes.
    CHECK(compare(dir, test::engine_bin(), more, "").result.exit_code == 0);
  }
  SECTION(
      "a candidate that searches depth 1 loses a position: max-regressions and bench-unchanged fail") {
    auto shallow = test::write_script(dir, "depth-one",
                                      "sed -u 's/^go .*/go depth 1/' | exec " + stk + " \"$@\"");
    auto r = compare(dir, test::engine_bin(), shallow, "--max-regressions 0");
    INFO(r.result.output);
    CHECK(r.result.exit_code == 1);
    for (const auto& b : r.json["suite"]["budgets"])
      CHECK(b["lost"] == nlohmann::json::array({"ecm.361"}));
    CHECK_THAT(test::read_file(r.junit),
               Contains("gate max-regressions 0: 1 positions lost at sn 2000"));
    CHECK(compare(dir, test::engine_bin(), shallow, "--max-regressions 1").result.exit_code == 0);
    // Its bench is stk's own (the wrapper passes 'bench' through): the equal-depth trees catch it.
    auto trees = compare(dir, test::engine_bin(), shallow, "--gate bench-unchanged");
    CHECK(trees.result.exit_code == 1);
    CHECK(trees.json["bench_signature"] == "unchanged");
    CHECK_THAT(test::read_file(trees.junit),
               Contains(
                   "gate bench-unchanged: 4 of 4 positions searched other node counts at sd 6"));
  }
  SECTION("a candidate that dies on one position fails the solved sets, not the run") {
    // Exit 1 from an epd run is an engine failure on some position (docs/harnesses/epd.md): the
    // comparison goes on, and each budget's solved-set testcase fails naming the failures.
    auto dies = test::write_script(dir, "dies-on-ecm361",
                                   "while IFS= read -r line; do\n"
                                   "  case \"$line\" in *r3r1k1/p4ppp*) exit 3;; esac\n"
                                   "  printf '%s\\n' \"$line\"\n"
                                   "done | exec " +
                                       stk + " \"$@\"");
    auto r = compare(dir, test::engine_bin(), dies, "");
    INFO(r.result.output);
    CHECK(r.result.exit_code == 1);
    const std::string junit = test::read_file(r.junit);
    CHECK_THAT(junit, Contains("1 engine failures at sn 2000 (see the epd reports)"));
    CHECK_THAT(junit, Contains("1 engine failures at sd 6 (see the epd reports)"));
    CHECK(test::validate_junit(r.junit) == "");
    REQUIRE(r.json["suite"]["budgets"].size() == 2);
  }
  SECTION("a speed bar that equal engines cannot reach fails min-speed-ratio") {
    auto r = compare(dir, test::engine_bin(), test::engine_bin(), "--min-speed-ratio 50");
    INFO(r.result.output);
    CHECK(r.result.exit_code == 1);
    CHECK_THAT(test::read_file(r.junit), Contains("gate min-speed-ratio 50: median nodes/s ratio"));
  }
}

TEST_CASE("compare: every engine it runs searches with Hash 16 and one thread",
          "[compare][harness]") {
  // docs/harnesses/compare.md: the sides differ only in the engine, never in the settings compare
  // gives them (the speed runs and the epd runs alike). A wrapper logs what the candidate is sent.
  auto dir = test::scratch_dir("compare-settings");
  const auto log = dir / "sent.log";
  auto logged = test::write_script(dir, "logs-commands",
                                   "tee -a '" + log.string() + "' | exec '" + test::engine_bin() +
                                       "' \"$@\"");
  auto r = compare(dir, test::engine_bin(), logged, "");
  INFO(r.result.output);
  REQUIRE(r.result.exit_code == 0);
  std::istringstream sent(test::read_file(log));
  int hash = 0, threads = 0, searches = 0;
  for (std::string line; std::getline(sent, line);) {
    INFO(line);
    if (line.starts_with("setoption name Hash ")) CHECK(line == "setoption name Hash value 16");
    if (line.starts_with("setoption name Threads "))
      CHECK(line == "setoption name Threads value 1");
    hash += line.starts_with("setoption name Hash ");
    threads += line.starts_with("setoption name Threads ");
    searches += line.starts_with("go ");
  }
  // One engine per speed run and per budget's epd run, each set up before it searches.
  CHECK(searches > 0);
  CHECK(hash >= 3);
  CHECK(threads >= 3);
}

TEST_CASE("compare: bad sides and inputs are exit 2 with an error report", "[compare][harness]") {
  auto dir = test::scratch_dir("compare-bad");
  auto unknown = compare(dir, "no-such-revision-or-file", test::engine_bin(), "");
  CHECK(unknown.result.exit_code == 2);
  CHECK_THAT(
      unknown.result.output,
      Contains(
          "--base no-such-revision-or-file: neither an executable engine file nor a git revision"));
  CHECK_THAT(test::read_file(unknown.junit), Contains("<error"));
  CHECK(test::validate_junit(unknown.junit) == "");
  auto audits = compare(dir, test::engine_bin(), test::engine_bin(), "--audits");
  CHECK(audits.result.exit_code == 2);
  CHECK_THAT(audits.result.output, Contains("--audits needs git revisions"));
  auto speed = compare(dir, test::engine_bin(), test::engine_bin(),
                       "--min-speed-ratio 1 --speed-runs 0");
  CHECK(speed.result.exit_code == 2);
  test::write_file(dir / "bad.epd", "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qa8#; id \"x\";\n");
  auto epd = test::run_command(test::harness_bin() + " compare --base '" + test::engine_bin() +
                               "' --candidate '" + test::engine_bin() + "' --epd " +
                               (dir / "bad.epd").string() + " --out-dir " + (dir / "o").string());
  CHECK(epd.exit_code == 2);
  CHECK_THAT(epd.output, Contains("bad.epd:1"));
}

TEST_CASE("compare: a revision named in a bare repository is exit 2 and builds nothing",
          "[compare][harness]") {
  // git resolves the revision there, but there is no work tree to build it in.
  auto dir = test::scratch_dir("compare-bare");
  const std::string git = "git -c user.name=t -c user.email=t@t -c init.defaultBranch=main ";
  REQUIRE(test::run_command("cd '" + dir.string() + "' && " + git + "init -q w && " + git +
                            "-C w commit -q --allow-empty -m c && git clone -q --bare w bare.git")
              .exit_code == 0);
  auto r = test::run_command("cd '" + (dir / "bare.git").string() + "' && timeout 60 " +
                             test::harness_bin() + " compare --base main --candidate main --epd '" +
                             test::shared_dir() + "/suites/ECM.epd' --out-dir '" +
                             (dir / "o").string() + "'");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("not inside a git work tree"));
  CHECK_FALSE(std::filesystem::exists(dir / "bare.git" / "build"));
}

TEST_CASE("compare: report names keep only file-name-safe characters", "[compare]") {
  CHECK(harness::compare::file_label("HEAD~3") == "HEAD_3");
  CHECK(harness::compare::file_label("../x..y") == "__x_y");
  CHECK(harness::compare::file_label("build/release/engine/stk") == "build_release_engine_stk");
  CHECK(harness::compare::file_label("a b'c") == "a_b_c");
}

TEST_CASE("compare --audits: a side's firing rates are measurable exactly when it can collect",
          "[compare]") {
  // This build as a revision's side (its tree four levels above its stk-harness): it has
  // fhcollect and the built-in model. A harness without fhcollect has no firing rates, and says
  // why (planted: the fhcollect test inverted, passed: no cheap test ran the audits).
  harness::compare::Side built;
  built.kind = harness::compare::Side::Kind::Revision;
  built.role = "base", built.given = "HEAD", built.harness = test::harness_bin();
  CHECK(harness::compare::firing_unavailable_reason(built) == "");
  const auto dir = test::scratch_dir("compare-firing") / "tree" / "build" / "release" / "harness";
  std::filesystem::create_directories(dir);
  test::write_file(dir / "stk-harness", "#!/bin/sh\n[ \"$1\" = fhcollect ] && exit 2\nexit 0\n");
  std::filesystem::permissions(dir / "stk-harness", std::filesystem::perms::owner_all);
  harness::compare::Side old = built;
  old.harness = (dir / "stk-harness").string();
  CHECK_THAT(harness::compare::firing_unavailable_reason(old),
             Contains("--base HEAD: this revision has no fail-high collection"));
}

TEST_CASE("compare: a speed run's nodes/s is its nodes over all its positions' time",
          "[compare][harness]") {
  // docs/harnesses/compare.md: a run's nodes/s is the nodes of its 20 positions over their time
  // added up. A wrapper holds the first go of every run back 300 ms: however fast the rest, that
  // run cannot have searched its (at most 20 x 2000) nodes faster than in 0.3 s. A figure from
  // one position's time alone (the last, or any but the first) comes out far above that bound.
  auto dir = test::scratch_dir("compare-speed-time");
  const std::string stk = "'" + test::engine_bin() + "'";
  auto held = test::write_script(dir, "first-go-held",
                                 "[ \"$1\" = bench ] && exec " + stk +
                                     " \"$@\"\n"
                                     "n=0\n"
                                     "while IFS= read -r line; do\n"
                                     "  case \"$line\" in go*)\n"
                                     "    [ $((n % 20)) -eq 0 ] && sleep 0.3\n"
                                     "    n=$((n + 1)) ;;\n"
                                     "  esac\n"
                                     "  printf '%s\\n' \"$line\"\n"
                                     "done | " +
                                     stk + " \"$@\"");
  auto r = compare(dir, held, held, "", "--nodes 2000 --depth 0", 2);
  INFO(r.result.output);
  REQUIRE(r.result.exit_code == 0);
  REQUIRE(r.json["speed"]["base_nps"].size() == 2);
  const double bound = 20 * 2000 / 0.3;
  for (const char* side : {"base_nps", "candidate_nps"})
    for (const auto& nps : r.json["speed"][side]) {
      CHECK(nps.get<double>() > 0);
      CHECK(nps.get<double>() <= bound);
    }
}
