#include "commands/perft/perft_run.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "commands/perft/crash_bisect.h"
#include "commands/perft/divide_bisect.h"
#include "commands/perft/isolated.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"

namespace stk::harness::perft_harness {

namespace {

// Walks the tree to `depth`, checking at every node that the position is internally
// consistent and that unmake restores the exact FEN and key. Returns "" or the first failure.
std::string check_invariants(Position& pos, int depth, std::vector<std::string>& line,
                             std::uint64_t& nodes) {
  ++nodes;
  std::string why;
  if (!pos.is_ok(&why)) return why;
  if (depth == 0) return "";
  std::string fen = pos.fen();
  Key key = pos.key();
  for (const ExtMove& e : MoveList(pos)) {
    line.push_back(to_uci(e.move));
    pos.make_move(e.move);
    std::string r = check_invariants(pos, depth - 1, line, nodes);
    pos.unmake_move();
    if (!r.empty()) return r;
    if (pos.fen() != fen || pos.key() != key) return "unmake did not restore FEN/key";
    line.pop_back();
  }
  return "";
}

// The invariants walk's answer from its child: nodes, then the failure and its line ("" when none).
struct InvariantsAnswer {
  std::uint64_t nodes = 0;
  std::string why, line;
};
InvariantsAnswer parse_invariants(const std::string& out) {
  InvariantsAnswer a;
  std::istringstream in(out);
  std::string nodes;
  std::getline(in, nodes);
  std::getline(in, a.why);
  std::getline(in, a.line);
  a.nodes = std::stoull(nodes);
  return a;
}

// A check whose child crashed or hung: a failure of the subject naming position, depth, the
// signal (or the time limit) and the line the bisection narrowed it to.
void fail_crashed(junit::TestCase& tc, const PerftEntry& e, int depth, const ChildResult& run,
                  const BisectResult& b) {
  const bool hung = run.kind == ChildResult::Kind::TimedOut;
  tc.outcome = junit::Outcome::Failed;
  tc.message = fmt::format("perft {}: {}", hung ? "hung" : "crashed", run.describe());
  tc.detail = fmt::format("{}\nFEN: {}\ndepth {}: {}\nbisected in child processes:\n{}", e.id(),
                          e.fen, depth, run.describe(), b.describe());
  tc.facts.emplace_back("crash", run.describe());
  std::cerr << "perft " << (hung ? "hung" : "crashed") << " " << tc.name << ": " << run.describe()
            << "\n"
            << b.describe() << "\n";
}

// What the checks of one run share.
struct CheckContext {
  const PerftSettings& s;
  PerftFn subject;
  UciProcess* reference;
  junit::TestSuite& suite;
  RunTotals& totals;
};

// The count checks of one position, depth by depth up to --depth and --max-nodes; the depths
// after one whose perft crashed are skipped.
void check_counts(const CheckContext& c, const PerftEntry& e, Position& pos,
                  const std::string& classname) {
  const PerftSettings& s = c.s;
  RunTotals& t = c.totals;
  int crashed_depth = 0;  // deeper checks of a position whose perft crashed are not run
  for (auto [depth, expected] : e.counts) {
    if (depth > s.max_depth || expected > s.max_nodes) continue;
    junit::TestCase tc;
    tc.classname = classname;
    tc.name = fmt::format("{} d{}", e.id(), depth);
    tc.facts = {{"fen", e.fen},
                {"depth", std::to_string(depth)},
                {"expected", std::to_string(expected)}};
    if (crashed_depth) {
      tc.outcome = junit::Outcome::Skipped;
      tc.message = fmt::format("not run: perft crashed at depth {} ({} d{})", crashed_depth, e.id(),
                               crashed_depth);
      c.suite.cases.push_back(std::move(tc));
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    // The binding is copied: clang 14 cannot capture a structured binding (C++20 allows it).
    ChildResult run = run_isolated(
        [&, d = depth](const ChildWriter& write) { write(std::to_string(c.subject(pos, d))); },
        s.timeout_s);
    tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!run.ok()) {
      ++t.failures;
      crashed_depth = depth;
      fail_crashed(tc, e, depth, run, bisect_crash(e.fen, depth, c.subject, s.timeout_s));
      t.rows.push_back({e.id(), e.fen, depth, expected, std::nullopt, run.describe()});
      c.suite.cases.push_back(std::move(tc));
      continue;
    }
    std::uint64_t actual = std::stoull(run.output);
    t.total_nodes += actual;
    t.total_time += tc.time_s;
    tc.facts.emplace_back("actual", std::to_string(actual));
    if (actual != expected) {
      ++t.failures;
      tc.outcome = junit::Outcome::Failed;
      tc.message = fmt::format("expected {} nodes, got {}", expected, actual);
      tc.detail = fmt::format("{}\nFEN: {}\ndepth {}: expected {}, actual {}", e.id(), e.fen, depth,
                              expected, actual);
      if (c.reference) {
        BisectResult b = bisect_perft(e.fen, depth, *c.reference);
        tc.detail += "\nbisected against " + c.reference->name() + ":\n" + b.describe();
      }
      std::cerr << "perft mismatch " << tc.name << ": " << tc.message << "\n";
    }
    t.rows.push_back({e.id(), e.fen, depth, expected, actual, ""});
    c.suite.cases.push_back(std::move(tc));
  }
}

// The make/unmake invariants walk of one position to --invariants-depth.
void check_position_invariants(const CheckContext& c, const PerftEntry& e, Position& pos,
                               const std::string& classname) {
  const int inv_depth = c.s.inv_depth;
  junit::TestCase tc;
  tc.classname = classname + ".invariants";
  tc.name = fmt::format("{} make/unmake d{}", e.id(), inv_depth);
  auto t0 = std::chrono::steady_clock::now();
  ChildResult run = run_isolated(
      [&](const ChildWriter& write) {
        std::vector<std::string> line;
        std::uint64_t nodes = 0;
        std::string why = check_invariants(pos, inv_depth, line, nodes);
        write(std::to_string(nodes) + "\n" + why + "\n" + fmt::format("{}", fmt::join(line, " ")));
      },
      c.s.timeout_s);
  tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  tc.facts = {{"fen", e.fen}};
  if (!run.ok()) {
    ++c.totals.failures;
    fail_crashed(tc, e, inv_depth, run, bisect_crash(e.fen, inv_depth, c.subject, c.s.timeout_s));
  } else if (InvariantsAnswer a = parse_invariants(run.output); !a.why.empty()) {
    ++c.totals.failures;
    tc.facts.emplace_back("nodes_checked", std::to_string(a.nodes));
    tc.outcome = junit::Outcome::Failed;
    tc.message = a.why;
    tc.detail = "position fen " + e.fen + " moves " + a.line;
    std::cerr << "invariant failure " << tc.name << ": " << a.why << "\n";
  } else {
    tc.facts.emplace_back("nodes_checked", std::to_string(a.nodes));
  }
  c.suite.cases.push_back(std::move(tc));
}

}  // namespace

RunTotals run_checks(const PerftSettings& s, const std::vector<PerftEntry>& entries,
                     UciProcess* reference, junit::TestSuite& suite) {
  RunTotals totals;
  const CheckContext c{s, perft_subject(s.plant), reference, suite, totals};
  auto t_suite = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!s.shard.takes(i)) continue;
    const PerftEntry& e = entries[i];
    Position pos;
    pos.set(e.fen, true);
    std::string classname = "perft." + std::filesystem::path(e.file).stem().string();
    check_counts(c, e, pos, classname);
    if (s.inv_depth > 0) check_position_invariants(c, e, pos, classname);
  }
  suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_suite).count();
  return totals;
}

}  // namespace stk::harness::perft_harness
