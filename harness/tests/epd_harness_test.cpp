// stk-harness epd / merge / epd-compare, driven through the command line on tiny suites of
// easy mates so that each test runs in well under a second.
#include <catch2/catch.hpp>

#include <tuple>

#include <regex>
#include <sstream>

#include "cli_support.h"
#include "cli/cli.h"
#include "epd/epd_results.h"
#include "positions/epd_suite.h"
#include "report/run_report.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

// Mates in 1 and 2 (bm, several bm, black to move, a mate in 2 starting with a check) and two positions the engine cannot
// solve by construction: a bm that is a bad move and an am naming the mate.
const char* kMates =
    "# easy mates for the epd harness tests\n"
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"m1.backrank\";\n"
    "7k/8/6K1/8/8/8/8/RR6 w - - bm Ra8# Rb8#; id \"m1.tworooks\"; c0 \"either rook\";\n"
    "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id \"m1.black\";\n"
    "\n"
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Kf1; id \"am.solved\";\n"
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Kf1; id \"bm.unsolvable\";\n"
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Ra8#; id \"am.unsolvable\";\n"
    "6k1/3r1ppp/8/1R6/8/8/3Q1PPP/6K1 w - - bm Rb8+; id \"m2.rook\"; sd 3;\n";

std::filesystem::path write_suite(const std::filesystem::path& dir,
                                  const std::string& text = kMates) {
  test::write_file(dir / "mates.epd", text);
  return dir / "mates.epd";
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using report::Json;

Json read_json(const std::filesystem::path& p) { return report::read_json_file(p.string()); }

// The record of one position in a results file, null when absent.
Json position(const Json& results, const std::string& id) {
  for (const Json& p : results.at("positions"))
    if (p.at("id") == id) return p;
  return nullptr;
}

// A copy of a results file whose position `id` claims `solved`.
void set_solved(Json& results, const std::string& id, bool solved) {
  for (Json& p : results.at("positions"))
    if (p.at("id") == id) p["solved"] = solved;
}

std::string mask_times(const std::string& json) {
  return std::regex_replace(json, std::regex("\"time_s\": [0-9.eE+-]+"), "\"time_s\": T");
}

std::string epd_cmd(const std::filesystem::path& dir, const std::string& extra) {
  return test::harness_bin() + " epd --quiet --epd " + (dir / "mates.epd").string() +
         " --out-dir " + dir.string() + " " + extra;
}

}  // namespace

TEST_CASE("epd rejects bad suites naming file and line", "[epd][harness]") {
  auto dir = test::scratch_dir("epd-bad");
  struct Case {
    std::string content, expect;
  };
  const std::string ok = "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"a\";\n";
  const Case cases[] = {
      {ok + "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; 1x \"b\";\n",
       "mates.epd:2: malformed operation: bad opcode '1x'"},
      {ok + "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"b\"\n",
       "mates.epd:2: operation 'id' is not terminated by ';'"},
      {ok + "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"b;\n",
       "mates.epd:2: unterminated quoted operand"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - bm Ra8#;\n", "mates.epd:1: illegal FEN"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 b - - bm Ra8#;\n",
       "mates.epd:1: bm move 'Ra8#' matches no legal move"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qa8#;\n",
       "mates.epd:1: bm move 'Qa8#' matches no legal move"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - am Rb9;\n",
       "mates.epd:1: am move 'Rb9' matches no legal move"},
      {ok + "\n6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"c\";\n",
       "mates.epd:3: no 'bm' or 'am' operation"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - bm;\n", "mates.epd:1: operation 'bm' has no moves"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; sd x;\n",
       "mates.epd:1: operation 'sd' needs one positive integer"},
      {ok + ok, "mates.epd:2: id \"a\" repeats the id of line 1"},
      {"6k1/5ppp/8/8/8/8/8/R5K1\n", "mates.epd:1: expected 4 FEN fields"},
      {"# nothing here\n", "mates.epd: no EPD positions"},
  };
  for (const Case& c : cases) {
    write_suite(dir, c.content);
    auto r = test::run_command(epd_cmd(dir, "--depth 2"));
    INFO(c.content << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(c.expect));
  }
  write_suite(dir);
  auto usage = test::run_command(epd_cmd(dir, "--depth 2 --nodes 100"));
  CHECK(usage.exit_code == 2);
  CHECK_THAT(usage.output, Contains("give exactly one of --depth N (sd) and --nodes N (sn)"));
  auto missing = test::run_command(test::harness_bin() + " epd --depth 2 --epd /nonexistent.epd");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Contains("/nonexistent.epd: cannot open file"));
  auto bad_engine = test::run_command(epd_cmd(dir, "--depth 2 --engine /nonexistent-engine"));
  CHECK(bad_engine.exit_code == 2);
  CHECK_THAT(bad_engine.output, Contains("/nonexistent-engine"));
}

TEST_CASE("epd judges bm and am, records budget and depth found, writes valid JUnit",
          "[epd][harness]") {
  auto dir = test::scratch_dir("epd-solve");
  write_suite(dir);
  auto r = test::run_command(epd_cmd(dir, "--depth 4 --config t"));
  INFO(r.output);
  // Without a baseline, unsolved positions are reported, not failed.
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("epd t: 5 solved of 7 (mates, sd 4)"));
  CHECK(test::validate_junit((dir / "junit" / "epd-t.xml").string()) == "");
  const Json json = read_json(dir / "epd" / "t.json");
  CHECK(json.at("budget") == Json({{"kind", "sd"}, {"value", 4}}));
  // The report envelope carries the JUnit counts: 7 positions, none failed (no baseline).
  CHECK(json.at("report").at("tests") == 7);
  CHECK(json.at("report").at("failures") == 0);
  CHECK(json.at("report").at("junit") == "../junit/epd-t.xml");
  for (const char* id : {"m1.backrank", "m1.tworooks", "m1.black", "am.solved", "m2.rook"})
    CHECK(position(json, id).at("solved") == true);
  for (const char* id : {"bm.unsolvable", "am.unsolvable"})
    CHECK(position(json, id).at("solved") == false);
  const Json backrank = position(json, "m1.backrank");
  CHECK(backrank.at("best_san") == "Ra8#");
  CHECK(backrank.at("score") == "mate 1");
  CHECK(backrank.at("first_solved_depth") == 1);
  CHECK(position(json, "m2.rook").at("score") == "mate 2");
  CHECK(position(json, "bm.unsolvable").at("first_solved_depth").is_null());
  std::string xml = read(dir / "junit" / "epd-t.xml");
  CHECK_THAT(xml, Contains("classname=\"epd.mates\" name=\"m1.backrank\""));
  CHECK_THAT(xml, Contains("status: unsolved"));
  CHECK_THAT(xml, Contains("name=\"budget\" value=\"sd 4\""));
  CHECK_THAT(read(dir / "epd" / "t.md"),
             Contains("| am.unsolvable | am Ra8# | Ra8# (a1a8) | no |"));

  // Fixed nodes is recorded as sn; min-solved is a separate gate.
  auto n = test::run_command(epd_cmd(dir, "--nodes 3000 --config n --min-solved 6"));
  INFO(n.output);
  CHECK(n.exit_code == 1);
  CHECK_THAT(n.output, Contains("min-solved 6: MISSED"));
  CHECK(read_json(dir / "epd" / "n.json").at("budget") == Json({{"kind", "sn"}, {"value", 3000}}));
  CHECK(read_json(dir / "epd" / "n.json").at("report").at("failures") == 1);
  CHECK_THAT(read(dir / "junit" / "epd-n.xml"), Contains("name=\"min-solved\""));
  CHECK(test::validate_junit((dir / "junit" / "epd-n.xml").string()) == "");
  auto n5 = test::run_command(epd_cmd(dir, "--nodes 3000 --config n --min-solved 5"));
  CHECK(n5.exit_code == 0);
}

TEST_CASE("epd baseline gate fails a planted regression and reports new solves",
          "[epd][harness][planted]") {
  auto dir = test::scratch_dir("epd-baseline");
  write_suite(dir);
  REQUIRE(test::run_command(epd_cmd(dir, "--depth 4 --config base")).exit_code == 0);
  const Json base = read_json(dir / "epd" / "base.json");

  // The results of a run are a valid baseline: the same run against them passes.
  auto same = test::run_command(
      epd_cmd(dir, "--depth 4 --config again --baseline " + (dir / "epd" / "base.json").string()));
  INFO(same.output);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.output, Contains("0 regressions, 0 new solves"));

  // Planted defect: a baseline claiming bm.unsolvable was solved. The engine fails it: exit 1,
  // a <failure> naming the position.
  Json fake = base;
  set_solved(fake, "bm.unsolvable", true);
  // And one claiming m1.black was not solved: a new solve, reported but not a failure.
  set_solved(fake, "m1.black", false);
  // A baseline without the report envelope (as golden/epd/*.json) reads the same.
  fake.erase("report");
  test::write_file(dir / "fake.json", fake.dump(2));
  auto r = test::run_command(
      epd_cmd(dir, "--depth 4 --config gate --baseline " + (dir / "fake.json").string()));
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("1 regressions (bm.unsolvable), 1 new solves (m1.black)"));
  std::string xml = read(dir / "junit" / "epd-gate.xml");
  CHECK(test::validate_junit((dir / "junit" / "epd-gate.xml").string()) == "");
  CHECK_THAT(xml, Contains("name=\"bm.unsolvable\""));
  CHECK_THAT(
      xml,
      Contains(
          "<failure message=\"regression: solved in the baseline, now plays Ra8# (a1a8) (bm Kf1)\""));
  CHECK_THAT(xml, Contains("name=\"new_solves\" value=\"m1.black\""));
  const Json gate = read_json(dir / "epd" / "gate.json");
  CHECK(gate.at("comparison").at("regressions") == Json({"bm.unsolvable"}));
  CHECK(gate.at("comparison").at("new_solves") == Json({"m1.black"}));
  CHECK(gate.at("report").at("failures") == 1);
  CHECK(gate.at("report").at("passed") == false);

  // A baseline made with another budget cannot be compared: input error before any search.
  auto other = test::run_command(
      epd_cmd(dir, "--depth 5 --baseline " + (dir / "fake.json").string()));
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.output, Contains("was made at sd 4, this run is sd 5"));
  test::write_file(dir / "broken.json", "{\"harness\": \"epd\", ");
  auto broken = test::run_command(
      epd_cmd(dir, "--depth 4 --baseline " + (dir / "broken.json").string()));
  CHECK(broken.exit_code == 2);
  CHECK_THAT(broken.output, Contains("broken.json: byte 20: "));
  // A member of the wrong type is named with its place in the file.
  Json wrong = base;
  wrong["positions"][2]["nodes"] = "many";
  test::write_file(dir / "wrong.json", wrong.dump(2));
  auto typed = test::run_command(
      epd_cmd(dir, "--depth 4 --baseline " + (dir / "wrong.json").string()));
  CHECK(typed.exit_code == 2);
  CHECK_THAT(typed.output,
             Contains(
                 "wrong.json: positions[2].nodes: expected a non-negative integer, got \"many\""));
}

TEST_CASE("epd --update-golden writes the baseline and prints the diff", "[epd][harness]") {
  auto dir = test::scratch_dir("epd-golden");
  write_suite(dir);
  auto golden = (dir / "golden.json").string();
  auto created = test::run_command(
      epd_cmd(dir, "--depth 4 --update-golden --bench-signature 12345 --baseline " + golden));
  INFO(created.output);
  CHECK(created.exit_code == 0);
  CHECK_THAT(created.output, Contains("created: 5 solved of 7"));
  std::string g = read(golden);
  const Json gj = read_json(golden);
  CHECK(gj.at("bench_signature") == 12345);
  CHECK(position(gj, "m1.backrank").at("time_s") == 0);
  CHECK(!gj.contains("report"));  // a baseline holds results only, no report envelope
  // Without --update-golden the file is never rewritten.
  auto gated = test::run_command(epd_cmd(dir, "--depth 4 --baseline " + golden));
  CHECK(gated.exit_code == 0);
  CHECK(read(golden) == g);
  auto updated = test::run_command(epd_cmd(dir, "--depth 3 --update-golden --baseline " + golden));
  CHECK(updated.exit_code == 0);
  CHECK_THAT(updated.output, Contains("budget sd 4 -> sd 3"));
  CHECK_THAT(updated.output, Contains("bench signature 12345 -> unknown"));
  // A golden baseline is written from the whole suite only: any shard of any count is refused,
  // the smallest (1/2, 2/2) too (the closing draw: `shard.count > 2` let 2 shards through).
  const std::string before = read(golden);
  for (const char* shard : {"1/2", "2/2", "3/7"}) {
    auto sharded = test::run_command(
        epd_cmd(dir, std::string("--depth 4 --update-golden --shard ") + shard + " --baseline " +
                         golden));
    INFO(shard << ": " << sharded.output);
    CHECK(sharded.exit_code == 2);
    CHECK_THAT(sharded.output, Contains("--update-golden needs the whole suite, not a shard"));
  }
  CHECK(read(golden) == before);
}

TEST_CASE("epd shards merged equal the unsharded run apart from timings", "[epd][harness]") {
  auto dir = test::scratch_dir("epd-shard");
  write_suite(dir);
  auto all = test::run_command(epd_cmd(dir, "--depth 4 --config whole --min-solved 5"));
  REQUIRE(all.exit_code == 0);
  auto s1 = test::run_command(epd_cmd(dir, "--depth 4 --config whole --min-solved 5 --shard 1/2"));
  auto s2 = test::run_command(epd_cmd(dir, "--depth 4 --config whole --min-solved 5 --shard 2/2"));
  INFO(s1.output << s2.output);
  REQUIRE(s1.exit_code == 0);
  REQUIRE(s2.exit_code == 0);
  CHECK_THAT(s1.output, Contains("of 4"));
  CHECK_THAT(s2.output, Contains("of 3"));
  std::string whole = read(dir / "epd" / "whole.json");
  auto out = dir / "merged";
  auto m = test::run_command(
      test::harness_bin() + " merge whole " + (dir / "epd" / "whole-shard2.json").string() + " " +
      (dir / "epd" / "whole-shard1.json").string() + " --out-dir " + out.string());
  INFO(m.output);
  CHECK(m.exit_code == 0);
  CHECK_THAT(m.output, Contains("epd whole: 5 solved of 7"));
  CHECK(mask_times(read(out / "epd" / "whole.json")) == mask_times(whole));
  CHECK(test::validate_junit((out / "junit" / "epd-whole.xml").string()) == "");

  auto partial = test::run_command(test::harness_bin() + " merge x " +
                                   (dir / "epd" / "whole-shard1.json").string() + " --out-dir " +
                                   out.string());
  CHECK(partial.exit_code == 2);
  CHECK_THAT(partial.output, Contains("1 of 2 shards given"));
  auto twice = test::run_command(
      test::harness_bin() + " merge x " + (dir / "epd" / "whole-shard1.json").string() + " " +
      (dir / "epd" / "whole-shard1.json").string() + " --out-dir " + out.string());
  CHECK(twice.exit_code == 2);
  CHECK_THAT(twice.output, Contains("shard 1/2 given twice"));
  // A shard of another run definition is refused, and the message names that shard's file.
  auto other = test::run_command(
      epd_cmd(dir, "--depth 4 --config other --min-solved 4 --shard 2/2"));
  REQUIRE(other.exit_code == 0);
  auto mixed = test::run_command(
      test::harness_bin() + " merge x " + (dir / "epd" / "whole-shard1.json").string() + " " +
      (dir / "epd" / "other-shard2.json").string() + " --out-dir " + out.string());
  INFO(mixed.output);
  CHECK(mixed.exit_code == 2);
  CHECK_THAT(mixed.output, Contains("other-shard2.json: min-solved '4' differs from " +
                                    (dir / "epd" / "whole-shard1.json").string() + "'s '5'"));
}

// MODEL merge-shards-of-one-run
// checks: harness/src/commands/merge/merge_command.cpp  (which fields make shards one run)
// contract: docs/harnesses/merge.md#shards-of-one-run
// planted: ci/mutants/merge-git-revision-not-compared.patch  (shards of two revisions merged)
TEST_CASE("merge refuses a shard differing in any field that names the run, no other",
          "[epd][harness][model]") {
  auto dir = test::scratch_dir("epd-shard-fields");
  write_suite(dir);
  for (const char* k : {"1/2", "2/2"})
    REQUIRE(test::run_command(epd_cmd(dir, std::string("--depth 2 --config w --shard ") + k))
                .exit_code == 0);
  const auto one = dir / "epd" / "w-shard1.json";
  const Json two = read_json(dir / "epd" / "w-shard2.json");
  // Each field of the documented list, changed alone in shard 2 (a value of its own kind).
  // (key, the name the message gives it, a value).
  const std::vector<std::tuple<std::string, std::string, Json>> fields = {
      {"epd_file", "suite file", "/elsewhere/mates.epd"},
      {"engine", "engine", "another engine"},
      {"engine_settings", "engine settings", Json{{"Threads", "1"}, {"Hash", "32"}}},
      {"budget", "budget", Json{{"kind", "sd"}, {"value", 3}}},
      {"budget", "budget", Json{{"kind", "sn"}, {"value", 2}}},
      {"stride", "stride", 2},
      {"selected", "selected count", 6},
      {"git_revision", "git revision", "0123456789ab"},
      {"bench_signature", "bench signature", 12345},
      {"baseline_file", "baseline", "golden/epd/other.json"},
      {"min_solved", "min-solved", 1},
  };
  auto merge_with = [&](const std::string& key, const Json& value) {
    Json changed = two;
    if (key == "time_s") changed["positions"][0]["time_s"] = value;
    else changed[key] = value;
    const auto path = dir / "epd" / ("changed-" + key + ".json");
    test::write_file(path, changed.dump(2));
    return test::run_command(test::harness_bin() + " merge m " + one.string() + " " +
                             path.string() + " --out-dir " + (dir / "merged").string());
  };
  for (const auto& [key, named, value] : fields) {
    const auto r = merge_with(key, value);
    INFO(key << " = " << value.dump() << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("changed-" + key + ".json: " + named + " '") &&
                             Contains("differs from " + one.string()) &&
                             Contains("not shards of one run"));
  }
  // The null control: the stored config and a timing are not the run's identity.
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, Json>>{{"config", "renamed"}, {"time_s", 99.5}}) {
    const auto r = merge_with(key, value);
    INFO(key << "\n" << r.output);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("epd drives an external UCI engine (stockfish) through the same code",
          "[epd][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  auto dir = test::scratch_dir("epd-uci");
  write_suite(dir);
  auto r = test::run_command(
      epd_cmd(dir, "--depth 4 --config sf --engine " + sf + " --option 'Use NNUE=false'"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("epd sf: 5 solved of 7 (mates, sd 4)"));
  const Json json = read_json(dir / "epd" / "sf.json");
  CHECK(json.at("engine_settings").at("Use NNUE") == "false");
  const Json backrank = position(json, "m1.backrank");
  CHECK(backrank.at("score") == "mate 1");
  CHECK(backrank.at("depth") == 4);
  CHECK(backrank.at("first_solved_depth") == 1);
  const Json rook_pv = position(json, "m2.rook").at("pv");
  REQUIRE(rook_pv.size() >= 2);
  CHECK(rook_pv[0] == "Rb8+");
  CHECK(rook_pv[1] == "Rd8");
  CHECK(test::validate_junit((dir / "junit" / "epd-sf.xml").string()) == "");

  auto cmp = test::run_command(test::harness_bin() + " epd-compare --quiet --epd " +
                               (dir / "mates.epd").string() + " --depth 4 --reference " + sf +
                               " --option 'Use NNUE=false' --config c --out-dir " + dir.string());
  INFO(cmp.output);
  CHECK(cmp.exit_code == 0);
  CHECK_THAT(cmp.output, Contains("solved by both: 5"));
  // Each side's run is announced by its label and engine name (planted: "== " emptied), and each
  // row of the side-by-side table is labelled (planted: the "solved" label emptied).
  CHECK(std::regex_search(cmp.output, std::regex("(^|\n)== stk: stk[^\n]*\n")));
  CHECK(std::regex_search(cmp.output, std::regex("\n== reference: Stockfish[^\n]*\n")));
  CHECK(std::regex_search(cmp.output, std::regex("\nsolved +[0-9]+ / [0-9]+ +[0-9]+ / [0-9]+\n")));
  CHECK(std::regex_search(cmp.output, std::regex("\nsolved alone +[0-9]+ +[0-9]+\n")));
  CHECK(std::filesystem::exists(dir / "epd" / "c-stk.json"));
  CHECK(std::filesystem::exists(dir / "epd" / "c-reference.json"));
}

TEST_CASE("epd names positions without id by line and --stride selects every S-th",
          "[epd][harness]") {
  auto dir = test::scratch_dir("epd-stride");
  write_suite(dir, std::string(kMates) + "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n");
  auto r = test::run_command(epd_cmd(dir, "--depth 3 --config s --stride 2"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("of 4"));
  const Json json = read_json(dir / "epd" / "s.json");
  for (const char* id : {"m1.backrank", "m1.black", "bm.unsolvable", "m2.rook"})
    CHECK(!position(json, id).is_null());
  CHECK(position(json, "m1.tworooks").is_null());
  CHECK(json.at("stride") == 2);
  CHECK(json.at("selected") == 4);
  auto r7 = test::run_command(epd_cmd(dir, "--depth 3 --config s7 --stride 7"));
  CHECK(r7.exit_code == 0);
  CHECK(!position(read_json(dir / "epd" / "s7.json"), "line 10").is_null());
  CHECK_THAT(read(dir / "junit" / "epd-s7.xml"), Contains("name=\"line 10\""));
}

TEST_CASE("epd testcase names are unique in their class", "[epd][harness]") {
  auto dir = test::scratch_dir("epd-unique");
  // A line without id is named "line N": an explicit id "line 2" elsewhere would repeat it.
  write_suite(dir,
              "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"line 2\";\n"
              "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#;\n");
  auto r = test::run_command(epd_cmd(dir, "--depth 2"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Contains(
                 "mates.epd:2: this line has no id and its name 'line 2' is the id of line 1"));
  // The order reversed: the id repeats the name an earlier line without id already has.
  write_suite(dir,
              "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#;\n"
              "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"line 1\";\n");
  r = test::run_command(epd_cmd(dir, "--depth 2"));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Contains("mates.epd:2: id \"line 1\" is the name of line 1, which has no id"));
  // A position with id "min-solved" beside the min-solved gate.
  write_suite(dir, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"min-solved\";\n");
  r = test::run_command(epd_cmd(dir, "--depth 2 --config ms --min-solved 1"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "epd-ms.xml").string()) == "");
}

TEST_CASE("EPD lines: 4 fields with hmvc/fmvn and the 6-field variant set the move counters",
          "[epd]") {
  using harness::epd::parse_epd_line;
  const std::string board = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
  auto four = parse_epd_line(board + " bm Ra8#; hmvc 12; fmvn 40; id \"a\";", "s.epd", 1);
  CHECK(four.fen == board);  // the baseline key stays the four fields
  CHECK(four.halfmove == 12);
  CHECK(four.fullmove == 40);
  CHECK(four.full_fen() == board + " 12 40");
  CHECK(four.id == "a");
  auto six = parse_epd_line(board + " 3 17 bm Ra8#; id \"b\";", "s.epd", 2);
  CHECK(six.fen == board);
  CHECK(six.full_fen() == board + " 3 17");
  auto agree = parse_epd_line(board + " 3 17 bm Ra8#; hmvc 3; fmvn 17;", "s.epd", 3);
  CHECK(agree.full_fen() == board + " 3 17");
  auto plain = parse_epd_line(board + " bm Ra8#;", "s.epd", 4);
  CHECK(plain.full_fen() == board + " 0 1");
}

TEST_CASE("EPD lines the parser still rejects name file, line and the column or opcode", "[epd]") {
  using harness::epd::parse_epd_line;
  const std::string board = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";  // 29 characters
  struct Case {
    std::string line, expect;
  };
  const Case cases[] = {
      {board + " 3 bm Ra8#;",
       "s.epd:7: the halfmove clock '3' must be followed by the fullmove number, found 'bm' (column 33)"},
      {board + " 3 0 bm Ra8#;", "s.epd:7: bad fullmove number '0' (column 33)"},
      {board + " 3 17x bm Ra8#;", "s.epd:7: bad fullmove number '17x' (column 33)"},
      {board + " 3x 1 bm Ra8#;", "s.epd:7: bad halfmove clock '3x' (column 31)"},
      {board + " bm Ra8#; hmvc x;", "s.epd:7: operation 'hmvc' needs one integer >= 0"},
      {board + " bm Ra8#; fmvn 0;", "s.epd:7: operation 'fmvn' needs one positive integer"},
      {board + " bm Ra8#; hmvc 1; hmvc 2;", "s.epd:7: operation 'hmvc' given more than once"},
      {board + " 3 17 bm Ra8#; hmvc 4;",
       "s.epd:7: operation 'hmvc' says 4 but the FEN fields say halfmove clock 3"},
      {board + " 3 17 bm Ra8#; fmvn 2;",
       "s.epd:7: operation 'fmvn' says 2 but the FEN fields say fullmove number 17"},
      {board + " bm Ra8#; 1x \"b\";", "s.epd:7: malformed operation: bad opcode '1x' (column 40)"},
      {board + " bm Ra8#; id \"b;", "s.epd:7: unterminated quoted operand (column 43)"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w -",
       "s.epd:7: expected 4 FEN fields (board, side, castling, en passant), found 3 (column 28)"},
      {"6k1/5ppp/8/8/8/8/8/R5K2 w - - bm Ra8#;", "s.epd:7: illegal FEN (columns 1-29)"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    try {
      parse_epd_line(c.line, "s.epd", 7);
      FAIL("accepted");
    } catch (const harness::InputError& e) {
      CHECK_THAT(e.what(), Contains(c.expect));
    }
  }
}

TEST_CASE("epd runs a suite of 6-field lines and hmvc/fmvn lines", "[epd][harness]") {
  auto dir = test::scratch_dir("epd-forms");
  write_suite(dir,
              "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Ra8#; id \"six\";\n"
              "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#; hmvc 7; fmvn 30; id \"four\";\n");
  auto r = test::run_command(epd_cmd(dir, "--depth 2 --config forms"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("2 solved of 2"));
}

TEST_CASE("the committed golden baselines read as results, without the report envelope", "[epd]") {
  for (const char* name : {"ecm-quick.json", "ecm-full.json", "am-quick.json"}) {
    INFO(name);
    auto r = harness::epd::read_results(test::source_dir() + "/golden/epd/" + name);
    CHECK(r.positions.size() >= 6);
    CHECK(r.solved() > 0);
  }
}

// epd-compare's "solved alone" and "solved by both" (the mutation campaign: the first side's
// alone-count written to only[-1] survived, as every comparison run had both sides agree).
TEST_CASE("epd-compare counts the positions each side solved alone and both solved", "[epd]") {
  auto run_of = [](std::vector<bool> solved) {
    harness::epd::RunResults r;
    for (bool s : solved) {
      r.positions.emplace_back();
      r.positions.back().solved = s;
    }
    return r;
  };
  const auto o = harness::epd::solve_overlap(run_of({true, true, false, false, true}),
                                             run_of({true, false, true, false, false}));
  CHECK(o.both == 1);
  CHECK(o.only_first == 2);
  CHECK(o.only_second == 1);
  CHECK_THROWS_AS(harness::epd::solve_overlap(run_of({true}), run_of({})), harness::InputError);
}
