// stk-harness perft: legal move counts against golden perft EPDs, make/unmake invariants
// over the same trees, and, on a mismatch, bisection against a reference engine.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "commands/perft/crash_bisect.h"
#include "commands/perft/divide_bisect.h"
#include "commands/perft/isolated.h"
#include "commands/perft/perft_epd.h"
#include "position.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

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
void fail_crashed(junit::TestCase& tc, const PerftEntry& e, int depth, const ChildResult& run, const BisectResult& b) {
  const bool hung = run.kind == ChildResult::Kind::TimedOut;
  tc.outcome = junit::Outcome::Failed;
  tc.message = fmt::format("perft {}: {}", hung ? "hung" : "crashed", run.describe());
  tc.detail = fmt::format("{}\nFEN: {}\ndepth {}: {}\nbisected in child processes:\n{}", e.id(), e.fen, depth,
                          run.describe(), b.describe());
  tc.facts.emplace_back("crash", run.describe());
  std::cerr << "perft " << (hung ? "hung" : "crashed") << " " << tc.name << ": " << run.describe() << "\n"
            << b.describe() << "\n";
}

}  // namespace

int run_perft(int argc, char** argv) {
  CLI::App app{"Legal move counts against golden perft EPDs, make/unmake invariants over the same trees, and on a\n"
               "mismatch a bisection against a reference engine. Each check runs in a child process with a time\n"
               "limit, so a crash or hang of the move generator is a failure naming position, depth and signal,\n"
               "bisected (in children again) to the line that crashes.\n"
               "Report: reports/junit/perft-CONFIG.xml, reports/perft/CONFIG.{json,md} (-shardK with --shard).",
               "stk-harness perft"};
  std::vector<std::string> files;
  int max_depth = 5, inv_depth = 3, timeout = 600;
  long long max_nodes_option = -1;
  std::string reference_path, config = "default", shard_text = "1/1", junit_option, out_dir = "reports", plant = "none";
  app.add_option("--epd", files, "perft EPD ('FEN ;D1 n ;D2 n ...'), repeatable; default golden/perft.epd");
  app.add_option("--depth", max_depth, "deepest depth to run")->check(CLI::Range(1, 15))->capture_default_str();
  app.add_option("--max-nodes", max_nodes_option, "skip depths whose expected count exceeds N (-1: no limit)")
      ->check(CLI::Range(-1LL, 1LL << 62))->capture_default_str();
  app.add_option("--invariants-depth", inv_depth, "walk each tree to N plies checking make/unmake invariants (0 off)")
      ->check(CLI::Range(0, 6))->capture_default_str();
  app.add_option("--reference", reference_path, "UCI engine answering 'go perft' to bisect mismatches (e.g. stockfish)");
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--shard", shard_text, "take the checks of positions i with i % N == K-1")->check(shard_check());
  app.add_option("--junit", junit_option, "JUnit file (default OUT_DIR/junit/perft-CONFIG.xml)");
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_option("--timeout", timeout, "seconds per check (each check runs in a child process)")
      ->check(CLI::Range(1, 1 << 20))->capture_default_str();
  app.add_option("--plant", plant, "test policy: a perft that crashes or hangs at an under-promotion capture")
      ->check(CLI::IsMember(perft_plants()))->capture_default_str();
  // The run's report name: "<config>" or "<config>-shard<K>".
  auto report_name = [](const std::string& cfg, const std::string& shard) {
    const Shard s = parse_shard(shard);
    return cfg + (s.count > 1 ? "-shard" + std::to_string(s.index) : "");
  };
  auto report_files = [&](const std::string& dir, const std::string& cfg, const std::string& shard,
                          const std::string& junit) {
    report::ReportPaths paths = report::report_paths(dir, "perft", report_name(cfg, shard));
    if (!junit.empty()) paths.junit = junit;
    return paths;
  };
  auto declare_given = [&] {
    std::string shard = given_value(app, "--shard", "1/1");
    try {
      parse_shard(shard);
    } catch (const UsageError&) {
      shard = "1/1";
    }
    const std::string cfg = given_value(app, "--config", "default");
    declare_report(report_files(given_value(app, "--out-dir", "reports"), cfg, shard, given_value(app, "--junit", "")).junit,
                   "perft." + cfg);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const Shard shard = parse_shard(shard_text);
    const report::ReportPaths paths = report_files(out_dir, config, shard_text, junit_option);
    declare_report(paths.junit, "perft." + config);
    if (files.empty()) files.push_back("golden/perft.epd");
    const auto max_nodes = std::uint64_t(max_nodes_option);  // -1: no limit
    const double timeout_s = double(timeout);
    const PerftFn subject = perft_subject(plant);

    // A file's stem names its testcase class: two files of one stem would repeat testcase names.
    std::map<std::string, std::string> stems;
    for (const auto& f : files)
      if (auto [it, fresh] = stems.emplace(std::filesystem::path(f).stem().string(), f); !fresh)
        throw UsageError("--epd " + it->second + " and --epd " + f + " share the name '" + it->first +
                         "' (testcase class perft." + it->first + "): give files of different names");

    std::vector<PerftEntry> entries;
    for (const auto& f : files)
      for (auto& e : read_perft_epd(f)) entries.push_back(std::move(e));

    std::unique_ptr<UciProcess> reference;
    if (!reference_path.empty()) reference = std::make_unique<UciProcess>(reference_path);

    report::RunReport perft_report{"perft", report_name(config, shard_text)};
    junit::TestSuite& suite = perft_report.suites.emplace_back();
    suite.name = "perft." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("epd_files", fmt::format("{}", fmt::join(files, ",")));
    suite.property("max_depth", std::to_string(max_depth));
    suite.property("max_nodes", max_nodes == std::uint64_t(-1) ? "unlimited" : std::to_string(max_nodes));
    suite.property("shard", shard.label());
    if (reference) suite.property("reference_engine", reference->name() + " (" + reference->path() + ")");
    suite.property("timeout_s", fmt::format("{}", timeout_s));
    suite.property("isolation", "each check in a child process (fork)");
    junit::add_build_properties(suite);

    std::uint64_t total_nodes = 0;
    double total_time = 0;
    int failures = 0;
    report::Json cases = report::Json::array();
    std::ostringstream md;
    md << "| position | depth | expected | actual | result |\n|---|---|---|---|---|\n";
    auto t_suite = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (!shard.takes(i)) continue;
      const PerftEntry& e = entries[i];
      Position pos;
      pos.set(e.fen, true);
      std::string classname = "perft." + std::filesystem::path(e.file).stem().string();
      int crashed_depth = 0;  // deeper checks of a position whose perft crashed are not run
      for (auto [depth, expected] : e.counts) {
        if (depth > max_depth || expected > max_nodes) continue;
        junit::TestCase tc;
        tc.classname = classname;
        tc.name = fmt::format("{} d{}", e.id(), depth);
        tc.facts = {{"fen", e.fen}, {"depth", std::to_string(depth)}, {"expected", std::to_string(expected)}};
        if (crashed_depth) {
          tc.outcome = junit::Outcome::Skipped;
          tc.message = fmt::format("not run: perft crashed at depth {} ({} d{})", crashed_depth, e.id(), crashed_depth);
          suite.cases.push_back(std::move(tc));
          continue;
        }
        auto t0 = std::chrono::steady_clock::now();
        // The binding is copied: clang 14 cannot capture a structured binding (C++20 allows it).
        ChildResult run = run_isolated([&, d = depth](const ChildWriter& write) { write(std::to_string(subject(pos, d))); },
                                       timeout_s);
        tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!run.ok()) {
          ++failures;
          crashed_depth = depth;
          fail_crashed(tc, e, depth, run, bisect_crash(e.fen, depth, subject, timeout_s));
          cases.push_back({{"id", e.id()}, {"fen", e.fen}, {"depth", depth}, {"expected", expected},
                           {"actual", nullptr}, {"crashed", run.describe()}, {"passed", false}});
          md << "| " << e.id() << " | " << depth << " | " << expected << " | - | **" << run.describe() << "** |\n";
          suite.cases.push_back(std::move(tc));
          continue;
        }
        std::uint64_t actual = std::stoull(run.output);
        total_nodes += actual;
        total_time += tc.time_s;
        tc.facts.emplace_back("actual", std::to_string(actual));
        if (actual != expected) {
          ++failures;
          tc.outcome = junit::Outcome::Failed;
          tc.message = fmt::format("expected {} nodes, got {}", expected, actual);
          tc.detail = fmt::format("{}\nFEN: {}\ndepth {}: expected {}, actual {}", e.id(), e.fen,
                                  depth, expected, actual);
          if (reference) {
            BisectResult b = bisect_perft(e.fen, depth, *reference);
            tc.detail += "\nbisected against " + reference->name() + ":\n" + b.describe();
          }
          std::cerr << "perft mismatch " << tc.name << ": " << tc.message << "\n";
        }
        cases.push_back({{"id", e.id()}, {"fen", e.fen}, {"depth", depth}, {"expected", expected},
                         {"actual", actual}, {"passed", actual == expected}});
        md << "| " << e.id() << " | " << depth << " | " << expected << " | " << actual << " | "
           << (actual == expected ? "ok" : "**MISMATCH**") << " |\n";
        suite.cases.push_back(std::move(tc));
      }
      if (inv_depth > 0) {
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
            timeout_s);
        tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        tc.facts = {{"fen", e.fen}};
        if (!run.ok()) {
          ++failures;
          fail_crashed(tc, e, inv_depth, run, bisect_crash(e.fen, inv_depth, subject, timeout_s));
        } else if (InvariantsAnswer a = parse_invariants(run.output); !a.why.empty()) {
          ++failures;
          tc.facts.emplace_back("nodes_checked", std::to_string(a.nodes));
          tc.outcome = junit::Outcome::Failed;
          tc.message = a.why;
          tc.detail = "position fen " + e.fen + " moves " + a.line;
          std::cerr << "invariant failure " << tc.name << ": " << a.why << "\n";
        } else {
          tc.facts.emplace_back("nodes_checked", std::to_string(a.nodes));
        }
        suite.cases.push_back(std::move(tc));
      }
    }
    suite.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_suite).count();
    double nps = total_time > 0 ? double(total_nodes) / total_time : 0;
    suite.property("total_nodes", std::to_string(total_nodes));
    suite.system_out = fmt::format("perft: {} checks, {} failed, {} nodes, {:.0f} nodes/s\n",
                                   suite.cases.size(), failures, total_nodes, nps);
    perft_report.figures["cases"] = std::move(cases);
    perft_report.figures["checks"] = suite.cases.size();
    perft_report.figures["failed"] = failures;
    perft_report.figures["total_nodes"] = total_nodes;
    perft_report.figures["nodes_per_second"] = std::uint64_t(nps);
    md << "\n" << suite.system_out;
    perft_report.markdown = md.str();
    report::write_run_report(perft_report, paths);
    std::cout << suite.system_out << "report: " << paths.junit << "\n";
    return failures ? 1 : 0;
  } catch (...) {
    return input_failure("stk-harness perft", app.help().c_str());
  }
}

}  // namespace stk::harness
