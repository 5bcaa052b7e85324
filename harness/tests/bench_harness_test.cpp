#include <catch2/catch.hpp>

#include "cli_support.h"

using namespace stk;
using Catch::Matchers::Contains;

TEST_CASE("bench harness fails a changed signature and rejects a malformed golden file",
          "[bench][harness]") {
  auto dir = test::scratch_dir("bench");
  // Planted defect: a golden signature one node off, as a search change would leave it.
  test::write_file(dir / "bench.txt", "depth 4\nnodes 1\n");
  auto r = test::run_command(test::harness_bin() + " bench --golden " +
                             (dir / "bench.txt").string() + " --out-dir " + dir.string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("bench signature changed: expected 1 nodes"));
  CHECK(test::validate_junit((dir / "junit" / "bench-default.xml").string()) == "");

  test::write_file(dir / "bad.txt", "depth 4\nnodes many\n");
  auto bad = test::run_command(test::harness_bin() + " bench --golden " +
                               (dir / "bad.txt").string() + " --out-dir " + dir.string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("bad.txt:2: expected 'depth N' or 'nodes N'"));
}

TEST_CASE("bench harness passes on the committed signature", "[bench][harness]") {
  auto dir = test::scratch_dir("bench-ok");
  auto r = test::run_command(test::harness_bin() + " bench --golden " + test::source_dir() +
                             "/golden/bench.txt --out-dir " + dir.string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "bench-default.xml").string()) == "");
}
