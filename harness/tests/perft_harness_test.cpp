#include <catch2/catch.hpp>

#include <fstream>

#include <fmt/format.h>

#include "cli_support.h"
#include "report/run_report.h"

using namespace stk;
using Catch::Matchers::Contains;

TEST_CASE("perft harness passes on golden counts and writes a valid report", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-ok");
  auto r = test::run_command(test::harness_bin() + " perft --epd " + test::source_dir() +
                             "/golden/perft.epd --depth 3 --config t --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "perft-t.xml").string()) == "");
  const report::Json j = report::read_json_file((dir / "perft" / "t.json").string());
  CHECK(j.at("report").at("junit") == "../junit/perft-t.xml");
  CHECK(j.at("report").at("tests") == j.at("checks"));
  CHECK(j.at("report").at("failures") == 0);
  CHECK(j.at("failed") == 0);
  CHECK(j.at("total_nodes").get<std::uint64_t>() > 0);
}

TEST_CASE("perft harness fails a wrong golden count", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-wrong");
  test::write_file(dir / "w.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n");
  auto r = test::run_command(test::harness_bin() + " perft --epd " + (dir / "w.epd").string() +
                             " --out-dir " + dir.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("expected 67 nodes, got 66"));
  CHECK(test::validate_junit((dir / "junit" / "perft-default.xml").string()) == "");
  // The summary's envelope and figures count the failure the JUnit file records.
  const report::Json j = report::read_json_file((dir / "perft" / "default.json").string());
  CHECK(j.at("report").at("failures") == 1);
  CHECK(j.at("report").at("passed") == false);
  CHECK(j.at("failed") == 1);
  CHECK(j.at("cases").at(1).at("actual") == 66);
}

TEST_CASE("perft harness rejects bad input naming file and line", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-bad");
  struct Case {
    std::string content, expect;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 x\n",
       "w.epd:2: malformed depth field"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", "w.epd:1: no ';D<depth> <count>'"},
      {"4k3/8/8/8/8/8/8/4K4 w - - 0 1 ;D1 5\n", "w.epd:1: illegal FEN: rank 1 overflows"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D2 5 ;D1 3\n", "w.epd:1: depth D1 repeated or out of order"},
      {"# only a comment\n", "no perft positions"},
  };
  for (const Case& c : cases) {
    test::write_file(dir / "w.epd", c.content);
    auto r = test::run_command(test::harness_bin() + " perft --epd " + (dir / "w.epd").string() +
                               " --out-dir " + dir.string());
    INFO(c.content);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(c.expect));
  }
  auto missing = test::run_command(test::harness_bin() + " perft --epd /nonexistent.epd");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Contains("/nonexistent.epd: cannot open file"));
  auto usage = test::run_command(test::harness_bin() + " perft --depth zero");
  CHECK(usage.exit_code == 2);
  CHECK_THAT(usage.output, Contains("--depth: Value zero not in range 1 to 15"));
}

TEST_CASE("shards partition the checks", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-shard");
  std::string base = test::harness_bin() + " perft --depth 2 --invariants-depth 0 --epd " +
                     test::source_dir() + "/golden/perft.epd --out-dir " + dir.string();
  auto a = test::run_command(base + " --shard 1/2");
  auto b = test::run_command(base + " --shard 2/2");
  auto all = test::run_command(base);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  auto checks = [](const std::string& out) {
    return std::stoi(out.substr(out.find("perft: ") + 7));
  };
  CHECK(checks(a.output) + checks(b.output) == checks(all.output));
}

TEST_CASE("stk command line and UCI loop answer bad input without crashing", "[uci]") {
  auto bad = test::run_command(test::engine_bin() +
                               " perft 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0' 2");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("expected 6 fields"));
  auto uci = test::run_command(
      "printf 'uci\\nisready\\nfoo bar\\nposition fen 8/8 w\\nposition startpos moves e2e5\\n"
      "position startpos moves e2e4 e7e5\\ngo perft 2\\nquit\\n' | " +
      test::engine_bin());
  CHECK(uci.exit_code == 0);
  CHECK_THAT(uci.output, Contains("uciok"));
  CHECK_THAT(uci.output, Contains("readyok"));
  CHECK_THAT(uci.output, Contains("unknown command: foo bar"));
  CHECK_THAT(uci.output, Contains("bad FEN"));
  CHECK_THAT(uci.output, Contains("illegal move 'e2e5'"));
  CHECK_THAT(uci.output, Contains("Nodes searched: 835"));
}

TEST_CASE("perft testcase names are unique in their class", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-unique");
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  test::write_file(dir / "a" / "x.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n");
  test::write_file(dir / "b" / "x.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n");
  for (const std::string& second :
       {(dir / "b" / "x.epd").string(), (dir / "a" / "x.epd").string()}) {
    auto r = test::run_command(test::harness_bin() + " perft --epd " +
                               (dir / "a" / "x.epd").string() + " --epd " + second + " --out-dir " +
                               dir.string());
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("share the name 'x'"));
  }
}

namespace {

// Black plays Ra8 and white's b7 pawn can then take it promoting: the planted subject crashes (or
// hangs) generating the moves after a2a8, found at depth 2 from the root.
const char* kUnderpromotionCapture = "4k3/1P6/8/8/8/8/r7/4K3 b - - 0 1";

}  // namespace

TEST_CASE(
    "perft survives a crashing subject: a failure naming position, depth, signal and the line",
    "[perft][harness][planted]") {
  auto dir = test::scratch_dir("perft-crash");
  // Two positions: the one that crashes and a clean one after it, which must still be checked.
  test::write_file(dir / "c.epd", std::string(kUnderpromotionCapture) +
                                      " ;D1 19 ;D2 130 ;D3 1857\n"
                                      "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n");
  auto r = test::run_command(
      test::harness_bin() + " perft --plant crash-underpromotion-capture --epd " +
      (dir / "c.epd").string() + " --depth 3 --config t --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  const std::string xml = test::read_file(dir / "junit" / "perft-t.xml");
  CHECK(test::validate_junit((dir / "junit" / "perft-t.xml").string()) == "");
  CHECK_THAT(xml, Contains("name=\"c:1 d2\"") && Contains("perft crashed: killed by signal 11"));
  CHECK_THAT(xml, Contains("moves a2a8") &&
                      Contains("generating the moves after a2a8 killed by signal 11"));
  CHECK_THAT(xml, Contains("<skipped message=\"not run: perft crashed at depth 2"));  // c:1 d3
  CHECK_THAT(xml, Contains("name=\"c:2 d2\""));  // the next position still ran
  CHECK_THAT(r.output, Contains("a2a8"));        // the bisected line is printed
}

TEST_CASE("perft survives a hanging subject: the check times out and the line is found",
          "[perft][harness][planted]") {
  auto dir = test::scratch_dir("perft-hang");
  test::write_file(dir / "h.epd", std::string(kUnderpromotionCapture) + " ;D1 19 ;D2 130\n");
  auto r = test::run_command(
      test::harness_bin() + " perft --plant hang-underpromotion-capture --timeout 1 --epd " +
      (dir / "h.epd").string() + " --invariants-depth 0 --config t --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 1);
  const std::string xml = test::read_file(dir / "junit" / "perft-t.xml");
  CHECK_THAT(xml, Contains("perft hung: timed out after 1 s") && Contains("moves a2a8"));
  CHECK(test::validate_junit((dir / "junit" / "perft-t.xml").string()) == "");
}

namespace {

// perft-speed against `reference`, one repeat to depth 2, reports under `dir` (config t).
test::RunResult perft_speed_once(const std::string& reference, const std::filesystem::path& dir) {
  return test::run_command(test::harness_bin() + " perft-speed --reference " + reference +
                           " --repeat 1 --max-depth 2 --config t --out-dir " + dir.string());
}

}  // namespace

TEST_CASE("perft-speed times each engine as its own: a reference slowed by 0.3 s is slower",
          "[perft][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  // The reference, delayed 0.3 s before each perft: its seconds must be the larger ones and the
  // ratio stk/reference above 1 (planted: the two timings swapped, the ratio inverted).
  auto dir = test::scratch_dir("perft-speed-slow");
  const auto slow = test::write_script(dir, "slow-reference.sh",
                                       "while IFS= read -r line; do\n"
                                       "  case \"$line\" in 'go perft'*) sleep 0.3;; esac\n"
                                       "  printf '%s\\n' \"$line\"\n"
                                       "done | " +
                                           sf);
  auto r = perft_speed_once(slow, dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const report::Json j = report::read_json_file((dir / "perft-speed" / "t.json").string());
  for (const report::Json& p : j.at("positions")) {
    INFO(p.dump());
    CHECK(p.at("stk_seconds").at("median").get<double>() < 0.25);
    CHECK(p.at("reference_seconds").at("median").get<double>() >= 0.3);
    CHECK(p.at("nps_ratio").at("median").get<double>() > 1);
  }
}

TEST_CASE("perft-speed fails a position the reference counts otherwise, naming where",
          "[perft][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  // A reference one node over on every count: every position is a failed testcase whose message
  // gives both counts and whose detail the FEN and depth the JSON lists for it (what a reader
  // needs to rerun that perft), exit 1.
  auto dir = test::scratch_dir("perft-speed-miscount");
  const auto over = test::write_script(
      dir, "one-over-reference.sh",
      sf + " | while IFS= read -r line; do\n"
           "  case \"$line\" in\n"
           "    'Nodes searched: '*) echo \"Nodes searched: $((${line#*: } + 1))\";;\n"
           "    *) printf '%s\\n' \"$line\";;\n"
           "  esac\n"
           "done");
  auto r = perft_speed_once(over, dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 1);
  const report::Json j = report::read_json_file((dir / "perft-speed" / "t.json").string());
  const std::string xml = test::read_file(dir / "junit" / "perft-speed-t.xml");
  int failed = 0;
  for (const report::Json& p : j.at("positions")) {
    INFO(p.dump());
    const auto nodes = p.at("nodes").get<std::uint64_t>();
    REQUIRE(p.at("reference_nodes").get<std::uint64_t>() == nodes + 1);
    const std::string depth = std::to_string(p.at("depth").get<int>());
    CHECK_THAT(xml,
               Contains(fmt::format("stk counts {} nodes, the reference {}", nodes, nodes + 1)));
    CHECK_THAT(xml, Contains("FEN: " + p.at("fen").get<std::string>() + "\ndepth " + depth +
                             ": stk counts " + std::to_string(nodes) + " nodes"));
    ++failed;
  }
  CHECK(failed > 0);
  CHECK(j.at("report").at("failures") == failed);
}

TEST_CASE("perft-speed records the nodes/s ratio against the reference and its spread",
          "[perft][harness][uci]") {
  STK_SKIP_WITHOUT_STOCKFISH();
  const std::string sf = stk::test::kStockfish;
  auto dir = test::scratch_dir("perft-speed");
  auto r = test::run_command(test::harness_bin() + " perft-speed --reference " + sf +
                             " --repeat 3 --max-depth 3 --config t --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "perft-speed-t.xml").string()) == "");
  const report::Json j = report::read_json_file((dir / "perft-speed" / "t.json").string());
  CHECK(j.at("report").at("tests") == 2);
  CHECK(j.at("report").at("passed") == true);
  const report::Json& ratio = j.at("nps_ratio");
  CHECK(ratio.at("min").get<double>() > 0);
  CHECK(ratio.at("min").get<double>() <= ratio.at("median").get<double>());
  CHECK(ratio.at("median").get<double>() <= ratio.at("max").get<double>());
  for (const report::Json& p : j.at("positions")) {
    CHECK(p.at("depth") == 3);
    CHECK(p.at("nodes") == p.at("reference_nodes"));  // both engines count the same tree
  }
  CHECK_THAT(test::read_file(dir / "perft-speed" / "t.md"),
             Contains("nodes/s ratio stk/reference"));
}
