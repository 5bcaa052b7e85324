// Option parsing of the CLI11 subcommands: --help exits 0, an unknown option or a value of the wrong
// type or range exits 2 with a message naming the option, and a run that owes a report still leaves
// its <error> report when its options do not parse.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_support.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

struct BadOption {
  std::string args;    // after "stk-harness <subcommand>"
  std::string option;  // the message must name it
};

// --help, then each bad option: exit 2 naming the option, no search run.
void check_options(const std::string& subcommand, const std::vector<BadOption>& bad) {
  const std::string h = test::harness_bin() + " " + subcommand;
  auto help = test::run_command(h + " --help");
  INFO(help.output);
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.output, Contains("Usage: stk-harness " + subcommand));
  for (const BadOption& b : bad) {
    auto r = test::run_command(h + " " + b.args);
    INFO(subcommand << " " << b.args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(b.option));
  }
}

// A bad option given with --config t --out-dir DIR: the declared report holds the <error>.
void check_error_report(const std::string& command, const std::filesystem::path& junit) {
  auto r = test::run_command(command);
  INFO(command << "\n" << r.output);
  CHECK(r.exit_code == 2);
  REQUIRE(std::filesystem::exists(junit));
  CHECK_THAT(test::read_file(junit), Contains("<error message="));
  CHECK(test::validate_junit(junit.string()) == "");
}

}  // namespace

TEST_CASE("perft and perft-speed options: help, unknown and out-of-range values exit 2",
          "[cli][perft]") {
  check_options("perft", {{"--bogus", "--bogus"},
                          {"--depth 16", "--depth"},
                          {"--depth zero", "--depth"},
                          {"--timeout 0", "--timeout"},
                          {"--shard 3/2", "--shard"},
                          {"--plant nothing", "--plant"},
                          {"stray", "stray"}});
  check_options("perft-speed", {{"--bogus", "--bogus"},
                                {"--repeat 0", "--repeat"},
                                {"--max-depth 9", "--max-depth"}});
  auto dir = test::scratch_dir("cli-perft");
  check_error_report(test::harness_bin() + " perft --config t --depth 16 --out-dir " + dir.string(),
                     dir / "junit" / "perft-t.xml");
  check_error_report(test::harness_bin() + " perft-speed --config t --repeat x --out-dir " +
                         dir.string(),
                     dir / "junit" / "perft-speed-t.xml");
}

TEST_CASE("epd, merge and epd-compare options: help, unknown and out-of-range values exit 2",
          "[cli][epd]") {
  check_options("epd", {{"--bogus", "--bogus"},
                        {"--epd x.epd --depth 0", "--depth"},
                        {"--epd x.epd --nodes -5", "--nodes"},
                        {"--epd x.epd --depth 2 --hash lots", "--hash"},
                        {"--epd x.epd --depth 2 --stride 0", "--stride"},
                        {"--epd x.epd --depth 2 --shard 0/2", "--shard"},
                        {"--epd x.epd --depth 2 --option NoEquals", "--option"},
                        {"--epd x.epd --depth 2 --bench-signature many", "--bench-signature"}});
  check_options("merge", {{"--bogus", "--bogus"}, {"out a.json --min-solved -3", "--min-solved"}});
  check_options("epd-compare",
                {{"--bogus", "--bogus"},
                 {"--epd x.epd --depth 2 --reference inprocess --stride 0", "--stride"},
                 {"--epd x.epd --depth 2 --reference inprocess --stk-option x", "--stk-option"}});
  auto dir = test::scratch_dir("cli-epd");
  check_error_report(test::harness_bin() +
                         " epd --config t --epd x.epd --depth 2 --hash lots --out-dir " +
                         dir.string(),
                     dir / "junit" / "epd-t.xml");
  check_error_report(test::harness_bin() + " merge t a.json --min-solved x --out-dir " +
                         dir.string(),
                     dir / "junit" / "epd-t.xml");
}

TEST_CASE("ctest-junit and all options: help, unknown and bad values exit 2", "[cli][all]") {
  // The output path is a scratch file: the refused run still writes its error report there,
  // which a bare "out.xml" left in whatever folder the test ran from.
  const std::string out = (test::scratch_dir("ctest-junit-options") / "out.xml").string();
  check_options("ctest-junit", {{"--bogus", "--bogus"},
                                {"in.xml", "OUT"},
                                {"in.xml " + out + " --name", "--name"}});
  check_options("all", {{"--bogus", "--bogus"},
                        {"--tier nightly", "--tier"},
                        {"--list --only", "--only"}});
}

TEST_CASE("fhgen, fhcollect and fhdump options: help, unknown and out-of-range values exit 2",
          "[cli][fhcollect]") {
  check_options("fhgen", {{"--bogus", "--bogus"},
                          {"--games 0 --seed 1 --out-dir x", "--games"},
                          {"--games 1 --seed 1 --out-dir x --heldout 1.5", "--heldout"},
                          {"--games 1 --seed 1 --out-dir x --ecm-fraction 1", "--ecm-fraction"},
                          {"--games 1 --seed -1 --out-dir x", "--seed"},
                          {"--seed 1 --out-dir x", "--games"}});
  check_options("fhcollect",
                {{"--bogus", "--bogus"},
                 {"--positions p.epd --out x.fhr --depth 0", "--depth"},
                 {"--positions p.epd --out x.fhr --depth 2 --predictor maybe", "--predictor"},
                 {"--positions p.epd --out x.fhr --depth 2 --full-depth 17", "--full-depth"},
                 {"--positions p.epd --depth 2", "--out"}});
  check_options("fhdump", {{"--bogus", "--bogus"}, {"a.fhr b.fhr", "b.fhr"}});
  auto dir = test::scratch_dir("cli-fhcollect");
  check_error_report(
      test::harness_bin() +
          " fhcollect --config t --positions p.epd --out x.fhr --depth -1 --out-dir " +
          dir.string(),
      dir / "junit" / "fhcollect-t.xml");
}

TEST_CASE("stk-harness alone: --help, -h and help list the harnesses and exit 0, others exit 2",
          "[cli]") {
  // Each spelling of help is its own branch (planted: the "-h" spelling emptied, passed).
  for (const char* ask : {" --help", " -h", " help"}) {
    auto r = test::run_command(test::harness_bin() + ask);
    INFO(ask << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Contains("usage: stk-harness <harness>") && Contains("  perft\t"));
  }
  auto none = test::run_command(test::harness_bin());
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.output, Contains("usage: stk-harness <harness>"));
  auto unknown = test::run_command(test::harness_bin() + " perfx");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.output, Contains("unknown harness 'perfx'"));
}
