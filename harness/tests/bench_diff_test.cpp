// stk-harness bench-diff: the trace comparison on synthetic streams (first divergence, path from
// the root, mechanism, bounded memory), the bench-count parsing, the engine's trace against its own
// bench, and the command end to end on the engine and on a wrapper with a planted divergence.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench.h"
#include "cli_support.h"
#include "commands/bench-diff/bench_diff.h"
#include "commands/bench-diff/trace_diff.h"
#include "position.h"

namespace bench_diff_test {

namespace bd = stk::harness::bench_diff;

// A short trace: the root, a child, a grandchild in quiescence.
const char* kTrace =
    "0 iteration depth=3 window=[-32001,32001]\n"
    "0 node depth=3 window=[-32001,32001] pv key=00000000000000aa\n"
    "0 eval static=10 eval=10 improving=0\n"
    "0 move e2e4 n=1 depth=3 lmr-table=0 lmr-depth=2 check=0\n"
    "0 search e2e4 n=1 depth=2 extension=0\n"
    "1 node depth=2 window=[-32001,32001] pv key=00000000000000bb\n"
    "1 eval static=-5 eval=-5 improving=0\n"
    "1 move e7e5 n=1 depth=2 lmr-table=0 lmr-depth=1 check=0\n"
    "1 search e7e5 n=1 depth=1 extension=0\n"
    "2 node depth=1 window=[-32001,32001] pv key=00000000000000cc\n"
    "2 move g1f3 n=1 depth=1 lmr-table=0 lmr-depth=0 check=0\n"
    "2 search g1f3 n=1 depth=0 extension=0\n"
    "3 qnode window=[-32001,32001] pv key=00000000000000dd\n"
    "3 eval static=3 eval=3 improving=0\n"
    "3 exit best=none value=3 bound=upper\n"
    "2 score g1f3 child=pv value=-3\n"
    "2 move b1c3 n=2 depth=1 lmr-table=0 lmr-depth=0 check=0\n"
    "2 futility b1c3 n=2\n"
    "2 exit best=g1f3 value=-3 bound=exact\n";

bd::TraceDiff diff(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  bd::StreamLineSource sa(ia), sb(ib);
  return bd::diff_traces(sa, sb);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A generated trace of `records` records: a walk down to ply `depth` and back, over and over,
// whose record `differ_at` (1-based, 0: none) reads differently.
class WalkSource : public bd::LineSource {
 public:
  WalkSource(std::uint64_t records, int depth, std::uint64_t differ_at)
      : records_(records), depth_(depth), differ_at_(differ_at) {}
  bool next(std::string& line) override {
    if (count_ == records_) return false;
    ++count_;
    const int ply = int(count_ % std::uint64_t(2 * depth_));
    const int p = ply < depth_ ? ply : 2 * depth_ - ply;
    if (count_ % 2)
      line = std::to_string(p) + " node depth=" + std::to_string(depth_ - p) +
             " window=[0,1] cut key=0";
    else line = std::to_string(p) + " move e2e4 n=1 depth=1 lmr-table=0 lmr-depth=0 check=0";
    if (count_ == differ_at_) line += " extra";
    return true;
  }

 private:
  std::uint64_t records_, count_ = 0;
  int depth_;
  std::uint64_t differ_at_;
};

}  // namespace bench_diff_test

TEST_CASE("bench-diff: equal traces have no divergence", "[bench-diff]") {
  const auto d = bench_diff_test::diff(bench_diff_test::kTrace, bench_diff_test::kTrace);
  CHECK_FALSE(d.diverged);
  CHECK(d.records == 19);
  CHECK(d.peak_path == 4);
}

TEST_CASE("bench-diff: the first differing record is named with its path from the root",
          "[bench-diff]") {
  namespace t = bench_diff_test;
  // The candidate prunes b1c3 by LMP where the base's futility did.
  const std::string candidate = t::replaced(t::kTrace, "2 futility b1c3 n=2", "2 lmp b1c3 n=2");
  const auto d = t::diff(t::kTrace, candidate);
  REQUIRE(d.diverged);
  const auto& v = d.divergence;
  CHECK(v.record == 18);
  CHECK(v.ply == 2);
  CHECK(v.base == "2 futility b1c3 n=2");
  CHECK(v.candidate == "2 lmp b1c3 n=2");
  CHECK(v.field == "event");
  CHECK(v.mechanism == "futility vs LMP");
  CHECK(v.iteration == "0 iteration depth=3 window=[-32001,32001]");
  CHECK(t::bd::path_text(v) == "e2e4 e7e5");
  REQUIRE(v.path.size() == 3);
  CHECK(v.path[0].node == "0 node depth=3 window=[-32001,32001] pv key=00000000000000aa");
  CHECK(v.path[0].move == "e2e4");
  CHECK(v.path[2].node == "2 node depth=1 window=[-32001,32001] pv key=00000000000000cc");
  CHECK(v.path[2].move.empty());
  // The FEN at that node: the root's after the path.
  CHECK(t::bd::fen_after("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", v.path) ==
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
}

TEST_CASE("bench-diff: a differing field inside a record and a differing node entry",
          "[bench-diff]") {
  namespace t = bench_diff_test;
  // One LMR table entry: the move record of its first use differs in lmr-table.
  const auto table = t::diff(t::kTrace,
                             t::replaced(t::kTrace, "1 move e7e5 n=1 depth=2 lmr-table=0",
                                         "1 move e7e5 n=1 depth=2 lmr-table=1"));
  REQUIRE(table.diverged);
  CHECK(table.divergence.record == 8);
  CHECK(table.divergence.field == "lmr-table");
  CHECK(table.divergence.base_value == "0");
  CHECK(table.divergence.candidate_value == "1");
  CHECK(table.divergence.mechanism == "LMR (reduction table entry r[2][1])");
  CHECK(t::bd::path_text(table.divergence) == "e2e4");
  // A quiescence node entered with another window: the path ends at that node.
  const auto window = t::diff(t::kTrace, t::replaced(t::kTrace, "3 qnode window=[-32001,32001]",
                                                     "3 qnode window=[-5,5]"));
  REQUIRE(window.diverged);
  CHECK(window.divergence.ply == 3);
  CHECK(window.divergence.mechanism == "quiescence node entry");
  CHECK(t::bd::path_text(window.divergence) == "e2e4 e7e5 g1f3");
  REQUIRE(window.divergence.path.size() == 4);
  CHECK(window.divergence.path.back().node ==
        "3 qnode window=[-32001,32001] pv key=00000000000000dd");
  // A trace that ends early diverges at the record the other still has.
  const std::string trace = t::kTrace;
  const auto ended = t::diff(trace, trace.substr(0, trace.find("2 exit")));
  REQUIRE(ended.diverged);
  CHECK(ended.divergence.record == 19);
  CHECK(ended.divergence.candidate == "<end of trace>");
}

TEST_CASE("bench-diff: the mechanism names the decision one side took", "[bench-diff]") {
  namespace bd = stk::harness::bench_diff;
  CHECK(bd::mechanism_of("4 lmr g1f3 reduction=2 depth=3",
                         "4 score g1f3 child=null-window value=5") == "LMR");
  CHECK(bd::mechanism_of("4 lmr g1f3 reduction=2 depth=3", "4 lmr g1f3 reduction=1 depth=4") ==
        "LMR");
  CHECK(bd::mechanism_of("4 see d4c6 site=ordering threshold=0 result=1",
                         "4 see d4c6 site=ordering threshold=0 result=0") == "SEE (ordering)");
  CHECK(bd::mechanism_of("4 eval static=1 eval=1 improving=0", "4 tt-cut score=40") == "TT cut");
  CHECK(bd::mechanism_of("4 tt-hit move=e2e4 depth=3 bound=lower score=5 eval=1",
                         "4 eval static=1 eval=1 improving=0") == "TT contents");
  CHECK(bd::mechanism_of("4 static-null value=300", "4 null-move reduction=4 depth=2") ==
        "static null move (reverse futility) vs null move");
  CHECK(bd::mechanism_of("4 null-move-result score=5 cut", "4 null-move-result score=-5 no-cut") ==
        "null move");
  CHECK(bd::mechanism_of("4 move g1f3 n=3 depth=5 lmr-table=1 lmr-depth=3 check=0",
                         "4 move b1c3 n=3 depth=5 lmr-table=1 lmr-depth=3 check=0") ==
        "move ordering");
  CHECK(bd::mechanism_of("4 search g1f3 n=3 depth=5 extension=1",
                         "4 search g1f3 n=3 depth=4 extension=0") == "child depth");
  CHECK(bd::mechanism_of("4 move g1f3 n=3 depth=5 lmr-table=1 lmr-depth=3 check=0",
                         "4 futility g1f3 n=3") == "futility");
  CHECK(bd::mechanism_of("4 qskip d4c6 delta", "4 search d4c6 n=2 depth=0 extension=0") ==
        "delta pruning (qsearch)");
}

TEST_CASE("bench-diff: the comparison keeps only the path however long the traces",
          "[bench-diff]") {
  namespace t = bench_diff_test;
  // Two million records each, a walk 40 plies deep: the path kept never exceeds the walk's depth,
  // and a difference near the end is still found at its record.
  t::WalkSource a(2000000, 40, 0), b(2000000, 40, 1999999);
  const auto d = t::bd::diff_traces(a, b);
  REQUIRE(d.diverged);
  CHECK(d.divergence.record == 1999999);
  CHECK(d.peak_path <= 41);
  t::WalkSource c(2000000, 40, 0), e(2000000, 40, 0);
  const auto same = t::bd::diff_traces(c, e);
  CHECK_FALSE(same.diverged);
  CHECK(same.records == 2000000);
  CHECK(same.peak_path <= 41);
}

TEST_CASE("bench-diff: bench counts are read from bench --positions and compared", "[bench-diff]") {
  namespace bd = stk::harness::bench_diff;
  const auto counts = bd::parse_bench_counts(
      "Position 1 : 10\nPosition 2 : 20\nPosition 3 : 30\nNodes searched : 60\n"
      "Nodes/second   : 1000\n");
  REQUIRE(counts);
  CHECK(counts->nodes == 60);
  CHECK(counts->per_position == std::vector<std::uint64_t>{10, 20, 30});
  // Not stk's, or an stk older than bench-diff: no counts.
  CHECK_FALSE(bd::parse_bench_counts("Nodes searched : 60\n"));
  CHECK_FALSE(bd::parse_bench_counts("Position 2 : 10\nNodes searched : 10\n"));
  CHECK_FALSE(bd::parse_bench_counts("Position 1 : 10\nNodes searched : 11\n"));
  CHECK_FALSE(bd::parse_bench_counts("Position 1 : 10\n"));
  bd::BenchCounts other = *counts;
  CHECK(bd::first_differing_position(*counts, other) == 0);
  other.per_position[1] = 21;
  CHECK(bd::first_differing_position(*counts, other) == 2);
  other.per_position.pop_back();
  other.per_position[1] = 20;
  CHECK(bd::first_differing_position(*counts, other) == 3);
}

TEST_CASE("bench-diff: a bench position's trace counts the bench's nodes and repeats itself",
          "[bench-diff]") {
  namespace t = bench_diff_test;
  const stk::BenchResult bench = stk::run_bench(6);
  for (std::size_t i : {std::size_t(0), std::size_t(13), std::size_t(18)}) {
    std::FILE* first = std::tmpfile();
    std::FILE* second = std::tmpfile();
    REQUIRE(first);
    REQUIRE(second);
    CHECK(stk::run_bench_trace(6, i, first) == bench.nodes_per_position[i]);
    CHECK(stk::run_bench_trace(6, i, second) == bench.nodes_per_position[i]);
    std::rewind(first);
    std::rewind(second);
    t::bd::FdLineSource a(fileno(first)), b(fileno(second));
    const auto d = t::bd::diff_traces(a, b);
    CHECK_FALSE(d.diverged);
    CHECK(d.records > bench.nodes_per_position[i]);
    std::fclose(first);
    std::fclose(second);
  }
}

namespace bench_diff_test {

struct Run {
  stk::test::RunResult result;
  nlohmann::json json;
  std::string junit;
};

Run bench_diff(const std::filesystem::path& dir, const std::string& base,
               const std::string& candidate, const std::string& extra) {
  const std::string out = (dir / "out").string();
  Run r;
  r.result = stk::test::run_command(stk::test::harness_bin() + " bench-diff '" + base + "' '" +
                                    candidate + "' --depth 6 --config t --out-dir " + out + " " +
                                    extra);
  r.junit = out + "/junit/bench-diff-t.xml";
  std::ifstream in(out + "/bench-diff/t.json");
  if (in) r.json = nlohmann::json::parse(in);
  return r;
}

}  // namespace bench_diff_test

TEST_CASE("bench-diff: equal engines have equal signatures and equal traces",
          "[bench-diff][harness]") {
  namespace t = bench_diff_test;
  const auto dir = stk::test::scratch_dir("bench-diff-equal");
  const auto r = t::bench_diff(dir, stk::test::engine_bin(), stk::test::engine_bin(), "");
  INFO(r.result.output);
  CHECK(r.result.exit_code == 0);
  CHECK(stk::test::validate_junit(r.junit) == "");
  REQUIRE(r.json.is_object());
  CHECK(r.json["signatures_equal"] == true);
  CHECK(r.json["traced_position"] == 0);
  // --position traces one anyway: equal engines write equal traces.
  const auto traced = t::bench_diff(dir, stk::test::engine_bin(), stk::test::engine_bin(),
                                    "--position 20");
  INFO(traced.result.output);
  CHECK(traced.result.exit_code == 0);
  CHECK(traced.json["traced_position"] == 20);
  CHECK(traced.json["trace_records"].get<std::uint64_t>() > 1000);
  CHECK(traced.json["divergence"].is_null());
  CHECK_THAT(traced.result.output, Catch::Matchers::Contains("the traces are equal"));
}

TEST_CASE("bench-diff: a planted divergence is found at its record with its mechanism",
          "[bench-diff][harness][planted]") {
  namespace t = bench_diff_test;
  const auto dir = stk::test::scratch_dir("bench-diff-planted");
  // The engine, but position 19's count one more, and in its trace the 3000th record's move
  // record (if it is one) or any record there carrying another lmr-table: a planted LMR table
  // entry as bench-diff sees it.
  const std::string engine = stk::test::engine_bin();
  const std::string planted = stk::test::write_script(
      dir, "planted-stk",
      "if [ \"$3\" = --positions ]; then\n"
      "  '" +
          engine +
          "' \"$@\" | awk '/^Position 19 :/ {$4 = $4 + 1} /^Nodes searched/ {$4 = $4 + 1} {print}'\n"
          "elif [ \"$3\" = --trace ]; then\n"
          "  '" +
          engine +
          "' \"$@\" | awk 'BEGIN {done = 0} !done && NR >= 3000 && $2 == \"move\" && $6 ~ /^lmr-table=/ "
          "{sub(/lmr-table=[0-9]+/, \"lmr-table=9\"); done = 1} {print}'\n"
          "else\n"
          "  exec '" +
          engine +
          "' \"$@\"\n"
          "fi");
  const auto r = t::bench_diff(dir, engine, planted, "");
  INFO(r.result.output);
  CHECK(r.result.exit_code == 1);
  CHECK(stk::test::validate_junit(r.junit) == "");
  REQUIRE(r.json.is_object());
  CHECK(r.json["signatures_equal"] == false);
  CHECK(r.json["first_differing_position"] == 19);
  REQUIRE(r.json["divergence"].is_object());
  const auto& d = r.json["divergence"];
  CHECK(d["record"].get<std::uint64_t>() >= 3000);
  CHECK(d["field"] == "lmr-table");
  CHECK(d["candidate_value"] == "9");
  CHECK_THAT(d["mechanism"].get<std::string>(),
             Catch::Matchers::StartsWith("LMR (reduction table entry r["));
  CHECK_THAT(r.result.output, Catch::Matchers::Contains("mechanism: LMR (reduction table entry") &&
                                  Catch::Matchers::Contains("path from the root"));
  CHECK_THAT(stk::test::read_file(r.junit), Catch::Matchers::Contains("bench-diff.divergence"));
  // The review page's bench-diff section: the position, the record and the mechanism.
  const auto page = stk::test::run_command(stk::test::harness_bin() + " review --reports " +
                                           (dir / "out").string());
  INFO(page.output);
  CHECK(page.exit_code == 0);
  const std::string html = stk::test::read_file(dir / "out" / "index.html");
  CHECK_THAT(html, Catch::Matchers::Contains("first bench position whose nodes differ") &&
                       Catch::Matchers::Contains("first divergence: position 19, record " +
                                                 d["record"].dump()) &&
                       Catch::Matchers::Contains("LMR (reduction table entry"));
}

TEST_CASE("bench-diff: bad sides are exit 2 with an error report", "[bench-diff][harness]") {
  namespace t = bench_diff_test;
  const auto dir = stk::test::scratch_dir("bench-diff-bad");
  const auto missing = t::bench_diff(dir, stk::test::engine_bin(), (dir / "no-such").string(), "");
  CHECK(missing.result.exit_code == 2);
  // An engine whose bench has no per-position counts (not stk, or older than bench-diff).
  const std::string old = stk::test::write_script(dir, "old-stk", "echo 'Nodes searched : 5'");
  const auto r = t::bench_diff(dir, stk::test::engine_bin(), old, "");
  INFO(r.result.output);
  CHECK(r.result.exit_code == 2);
  CHECK_THAT(r.result.output, Catch::Matchers::Contains("no per-position node counts"));
  CHECK(stk::test::validate_junit(r.junit) == "");
}
