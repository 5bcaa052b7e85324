// Faults without loss (HARNESS.md "Faults"): names that are not paths, counts at the 64-bit edges,
// the one checked writer. The I/O fault injection itself runs in harness/python/tests/test_faults.py.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/file_names.h"
#include "cli_support.h"
#include "io/output_file.h"
#include "report/run_report.h"

using namespace stk;
namespace fs = std::filesystem;

namespace {

// The rule, written out independently of cli/file_names.cpp.
bool expected_safe(const std::string& s) {
  if (s.empty() || s.size() > 200 || s[0] == '.' || s[0] == '-' ||
      s.find("..") != std::string::npos)
    return false;
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

rc::Gen<std::string> gen_name() {
  // Mostly the characters that matter: separators, dots, dashes, a few letters, odd bytes.
  auto ch = rc::gen::weightedOneOf<char>(
      {{6, rc::gen::elementOf(std::string("abcXYZ019_"))},
       {3, rc::gen::element('.', '-', '/')},
       {1, rc::gen::element(' ', '\\', '\0', '\n', '*', '~', char(0xC3))}});
  return rc::gen::container<std::string>(ch);
}

}  // namespace

TEST_CASE("names: a --config is a safe name or refused (random names)",
          "[faults][names][property]") {
  rc::prop(
      "is_safe_name is the rule; a safe name's reports stay under --out-dir, others are refused",
      [] {
        const std::string name = *gen_name();
        RC_ASSERT(harness::is_safe_name(name) == expected_safe(name));
        if (expected_safe(name)) {
          const report::ReportPaths p = report::report_paths("out", "perft", name);
          for (const std::string& f : {p.junit, p.json, p.markdown}) {
            const fs::path rel = fs::path(f).lexically_normal().lexically_relative("out");
            RC_ASSERT(!rel.empty());
            RC_ASSERT(*rel.begin() != "..");
          }
        } else {
          RC_ASSERT_THROWS_AS(report::report_paths("out", "perft", name), harness::UsageError);
          RC_ASSERT_THROWS_AS(harness::require_safe_name("--config", name), harness::UsageError);
        }
      });
}

TEST_CASE("names: --config ../ escapes no --out-dir (perft and match)",
          "[faults][names][harness]") {
  const auto base = test::scratch_dir("names-escape");
  const auto out = base / "a" / "b";
  const std::string epd = (base / "p.epd").string();
  test::write_file(epd, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n");
  for (const std::string config : {"../../escaped", "..", "x/y", "-rf", ".hidden"}) {
    const auto perft = test::run_command(
        fmt::format("{} perft --epd {} --depth 1 --invariants-depth 0 --config '{}' "
                    "--out-dir {}",
                    test::harness_bin(), epd, config, out.string()));
    INFO(config << "\n" << perft.output);
    CHECK(perft.exit_code == 2);
    CHECK(perft.output.find("not a name") != std::string::npos);
    const auto match = test::run_command(fmt::format(
        "{} match --engine cmd={} --engine cmd={} --nodes 10 --pairs 1 --config '{}' --out-dir {}",
        test::harness_bin(), test::engine_bin(), test::engine_bin(), config, out.string()));
    INFO(match.output);
    CHECK(match.exit_code == 2);
  }
  std::string outside;
  for (const auto& e : fs::recursive_directory_iterator(base))
    if (e.is_regular_file() && e.path() != fs::path(epd) &&
        e.path().lexically_relative(out).string().rfind("..", 0) == 0)
      outside += e.path().string() + "\n";
  INFO(outside);
  CHECK(outside.empty());
}

TEST_CASE("counts: sprt refuses counts whose sum leaves 2^53 (64-bit edges)",
          "[faults][counts][harness][property]") {
  const auto sprt = [](const std::string& opt, const std::string& counts) {
    return test::run_command(test::harness_bin() + " sprt " + opt + " " + counts);
  };
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  auto wrap = sprt("--wdl", fmt::format("{},2,0", max));
  INFO(wrap.output);
  CHECK(wrap.exit_code == 2);
  CHECK(wrap.output.find("--wdl count W") != std::string::npos);
  auto penta = sprt("--pentanomial", fmt::format("{},{},0,0,1", max / 2 + 1, max / 2 + 1));
  INFO(penta.output);
  CHECK(penta.exit_code == 2);
  CHECK(penta.output.find("--pentanomial count") != std::string::npos);
  CHECK(sprt("--wdl", "10,20,30").exit_code == 0);
  rc::prop("near 2^53 and 2^64: exit 2 exactly when a count or the sum passes 2^53", [&] {
    const std::uint64_t limit = std::uint64_t(1) << 53;
    auto edge = rc::gen::oneOf(rc::gen::element<std::uint64_t>(0, 1, limit - 1, limit, limit + 1,
                                                               max, max - 1, max / 2),
                               rc::gen::inRange<std::uint64_t>(0, 1000));
    const std::uint64_t w = *edge, d = *edge, l = *edge;
    const unsigned __int128 sum = (unsigned __int128)w + d + l;
    const bool too_big = w > limit || d > limit || l > limit || sum > limit;
    const auto r = sprt("--wdl", fmt::format("{},{},{}", w, d, l));
    if (too_big) {
      RC_ASSERT(r.exit_code == 2);
      RC_ASSERT(r.output.find("2^53") != std::string::npos);
    } else {
      RC_ASSERT(r.exit_code == (sum == 0 ? 2 : 0));
    }
  });
}

// Never /dev/null itself: a planted defect that replaces devices must not destroy the machine's.
TEST_CASE("writer: a device or FIFO or directory is refused and never replaced",
          "[faults][writer]") {
  const auto dir = test::scratch_dir("writer-targets");
  const auto fifo = dir / "fifo", device = dir / "null";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  fs::create_directories(dir / "folder");
  std::vector<fs::path> targets = {fifo, dir / "folder"};
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0)
    targets.push_back(device);  // root only
  for (const fs::path& p : targets) {
    INFO(p);
    CHECK_THROWS_WITH(harness::io::replace_file(p.string(), "x"),
                      Catch::Contains("not a regular file"));
    CHECK_THROWS_WITH(harness::io::replace_file(p.string(), "x"), Catch::Contains(p.string()));
  }
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_directory(dir / "folder"));
  if (targets.size() == 3) CHECK(fs::is_character_file(device));
  // A regular file is replaced whole, and no temporary is left beside it.
  harness::io::replace_file((dir / "r.txt").string(), "one");
  harness::io::replace_file((dir / "r.txt").string(), "two");
  CHECK(test::read_file(dir / "r.txt") == "two");
  for (const auto& e : fs::directory_iterator(dir))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}
