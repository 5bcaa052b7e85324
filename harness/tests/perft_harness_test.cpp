#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace stk;
using Catch::Matchers::Contains;

TEST_CASE("perft harness passes on golden counts and writes a valid report", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-ok");
  auto r = test::run_command(test::harness_bin() + " perft --epd " STK_SOURCE_DIR
                             "/golden/perft.epd --depth 3 --config t --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "perft-t.xml").string()) == "");
  CHECK(std::filesystem::exists(dir / "perft" / "t.json"));
}

TEST_CASE("perft harness fails a wrong golden count", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-wrong");
  test::write_file(dir / "w.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n");
  auto r = test::run_command(test::harness_bin() + " perft --epd " + (dir / "w.epd").string() +
                             " --out-dir " + dir.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("expected 67 nodes, got 66"));
  CHECK(test::validate_junit((dir / "junit" / "perft-default.xml").string()) == "");
}

TEST_CASE("perft harness rejects bad input naming file and line", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-bad");
  struct Case {
    std::string content, expect;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 x\n", "w.epd:2: malformed depth field"},
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
  CHECK_THAT(usage.output, Contains("--depth must be an integer"));
}

TEST_CASE("shards partition the checks", "[perft][harness]") {
  auto dir = test::scratch_dir("perft-shard");
  std::string base = test::harness_bin() + " perft --depth 2 --invariants-depth 0 --epd " STK_SOURCE_DIR
                     "/golden/perft.epd --out-dir " + dir.string();
  auto a = test::run_command(base + " --shard 1/2");
  auto b = test::run_command(base + " --shard 2/2");
  auto all = test::run_command(base);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  auto checks = [](const std::string& out) { return std::stoi(out.substr(out.find("perft: ") + 7)); };
  CHECK(checks(a.output) + checks(b.output) == checks(all.output));
}

TEST_CASE("stk command line and UCI loop answer bad input without crashing", "[uci]") {
  auto bad = test::run_command(test::engine_bin() + " perft 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0' 2");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("expected 6 fields"));
  auto uci = test::run_command(
      "printf 'uci\\nisready\\nfoo bar\\nposition fen 8/8 w\\nposition startpos moves e2e5\\n"
      "position startpos moves e2e4 e7e5\\ngo perft 2\\nquit\\n' | " + test::engine_bin());
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
  for (const std::string& second : {(dir / "b" / "x.epd").string(), (dir / "a" / "x.epd").string()}) {
    auto r = test::run_command(test::harness_bin() + " perft --epd " + (dir / "a" / "x.epd").string() + " --epd " +
                               second + " --out-dir " + dir.string());
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("share the name 'x'"));
  }
}
