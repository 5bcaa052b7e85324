// Exit 2 (usage or input error) must not leave the previous run's passing report in place:
// every harness replaces its declared JUnit file by a report with an <error>.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cli/cli.h"
#include "cli_support.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

const char* kStalePass =
    "<?xml version=\"1.0\"?>\n<testsuites tests=\"1\" failures=\"0\" errors=\"0\"><testsuite name=\"stale\" "
    "tests=\"1\" failures=\"0\" errors=\"0\"><testcase classname=\"stale.x\" name=\"passed long ago\"/>"
    "</testsuite></testsuites>\n";

}  // namespace

TEST_CASE("a harness failing on input replaces its stale report by an error report",
          "[junit][harness]") {
  auto dir = test::scratch_dir("input-failure");
  const std::string d = dir.string(), h = test::harness_bin(), out = " --out-dir " + d;
  test::write_file(dir / "bad.epd", "8/8/8/8/8/8/8/8 w - - bm e4;\n");
  test::write_file(dir / "bad.nnue", "not a net");
  struct Case {
    std::string command;               // fails on input (after its options parse): exit 2
    std::vector<std::string> reports;  // under DIR/junit
  };
  const Case cases[] = {
      {h + " perft --config t --epd " + d + "/bad.epd" + out, {"perft-t.xml"}},
      {h + " perft --config t --depth zero" + out, {"perft-t.xml"}},
      {h + " epd --config t --depth 1 --epd " + d + "/bad.epd" + out, {"epd-t.xml"}},
      {h + " epd --config t --depth 0 --epd " + d + "/bad.epd" + out, {"epd-t.xml"}},
      {h + " epd --depth 1 --epd " + d + "/bad.epd" + out, {"epd-bad-sd1.xml"}},  // default config
      {h + " merge t " + d + "/missing.json" + out, {"epd-t.xml"}},
      {h + " epd-compare --config t --depth 1 --reference inprocess --epd " + d + "/bad.epd" + out,
       {"epd-t-stk.xml", "epd-t-reference.xml"}},
      {h + " shadow --config t --depth 1 --epd " + d + "/bad.epd" + out, {"shadow-t.xml"}},
      {h + " shadow --nodes 5 --epd " + d + "/bad.epd" + out, {"shadow-bad-sn5.xml"}},
      {h + " accumulator --config t --net " + d + "/bad.nnue" + out, {"accumulator-t.xml"}},
      {h + " nnue-bench --config t --positions 0" + out, {"nnue-bench-t.xml"}},
      {h + " bench --config t --golden " + d + "/missing.txt" + out, {"bench-t.xml"}},
      {h + " fhcollect --config t --depth 1 --out " + d + "/x.fhr --positions " + d +
           "/missing.epd" + out,
       {"fhcollect-t.xml"}},
      {h + " checknet " + d + "/bad.nnue --junit " + d + "/junit/checknet-t.xml",
       {"checknet-t.xml"}},
  };
  for (const Case& c : cases) {
    for (const auto& r : c.reports) test::write_file(dir / "junit" / r, kStalePass);
    auto run = test::run_command(c.command);
    INFO(c.command << "\n" << run.output);
    CHECK(run.exit_code == 2);
    for (const auto& r : c.reports) {
      INFO(r);
      const std::string xml = test::read_file(dir / "junit" / r);
      CHECK_THAT(xml, !Contains("passed long ago"));
      CHECK_THAT(xml, Contains("<error message="));
      CHECK(test::validate_junit((dir / "junit" / r).string()) == "");
    }
  }
}

// Every line-based input goes through read_lines: a CRLF file reads as its LF twin, and nothing
// else at a line's end is dropped (the mutation campaign: `back() <= '\r'` also ate a trailing
// tab, and no test wrote one).
TEST_CASE("read_lines drops a carriage return and nothing else", "[cli]") {
  const auto path = std::filesystem::temp_directory_path() / "stk-read-lines.txt";
  std::ofstream(path, std::ios::binary) << "a b\r\nc\t\n\r\nlast";
  CHECK(harness::read_lines(path.string()) == std::vector<std::string>{"a b", "c\t", "", "last"});
  std::filesystem::remove(path);
}
