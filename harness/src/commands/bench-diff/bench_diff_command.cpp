// stk-harness bench-diff BASE CANDIDATE: when the bench signatures of two builds differ, the first
// bench position whose node count differs and, inside its search, the first record where the two
// traces part: the path from the root, both sides' records and the mechanism that decided
// differently (docs/harnesses/bench-diff.md). A side is built as compare builds it.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <regex>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "commands/bench-diff/bench_diff.h"
#include "commands/compare/compare_side.h"
#include "commands/compare/output_tail.h"
#include "common/counts.h"
#include "io/interruption.h"
#include "notation.h"
#include "position.h"
#include "proc/command_words.h"
#include "proc/process.h"
#include "report/run_report.h"

namespace stk::harness {

namespace bench_diff {

std::optional<BenchCounts> parse_bench_counts(const std::string& output) {
  static const std::regex position_line(R"(^Position (\d+) : (\d+)\s*$)");
  static const std::regex nodes_line(R"(^Nodes searched\s*:\s*(\d+)\s*$)");
  BenchCounts c;
  bool total = false;
  std::istringstream in(output);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, position_line)) {
      const auto index = parse_count(m.str(1)), nodes = parse_count(m.str(2));
      if (!index || !nodes || *index != c.per_position.size() + 1) return std::nullopt;
      c.per_position.push_back(*nodes);
    } else if (std::regex_match(line, m, nodes_line)) {
      const auto nodes = parse_count(m.str(1));
      if (!nodes) return std::nullopt;
      c.nodes = *nodes;
      total = true;
    }
  }
  std::uint64_t sum = 0;
  for (std::uint64_t n : c.per_position) sum += n;
  if (!total || c.per_position.empty() || sum != c.nodes) return std::nullopt;
  return c;
}

std::size_t first_differing_position(const BenchCounts& base, const BenchCounts& candidate) {
  const std::size_t n = std::max(base.per_position.size(), candidate.per_position.size());
  for (std::size_t i = 0; i < n; ++i)
    if (i >= base.per_position.size() || i >= candidate.per_position.size() ||
        base.per_position[i] != candidate.per_position[i])
      return i + 1;
  return 0;
}

std::string fen_after(const std::string& fen, const std::vector<PathStep>& path) {
  Position pos;
  pos.set(fen);
  for (const PathStep& s : path) {
    if (s.move.empty()) continue;
    if (s.move == "0000") {
      if (pos.in_check()) return "";
      pos.make_null();
      continue;
    }
    const std::optional<Move> m = parse_uci(pos, s.move);
    if (!m) return "";
    pos.make_move(*m);
  }
  return pos.fen();
}

std::string describe_divergence(const Divergence& d, const std::string& root_fen) {
  std::string out;
  out += fmt::format("first divergence: trace record {}, in {}\n", d.record,
                     d.iteration.empty() ? "(before the first iteration)" : d.iteration.substr(2));
  std::size_t moves = 0;
  for (const PathStep& s : d.path) moves += !s.move.empty();
  out += fmt::format("path from the root ({} plies): {}\n", moves, path_text(d));
  for (const PathStep& s : d.path)
    out += fmt::format("  {}{}\n", s.node, s.move.empty() ? "" : "  -> " + s.move);
  const std::string fen = fen_after(root_fen, d.path);
  if (!fen.empty()) out += fmt::format("FEN at the node: {}\n", fen);
  out += fmt::format("base:      {}\ncandidate: {}\n", d.base, d.candidate);
  out += fmt::format("differs in: {} ({} vs {})\n", d.field,
                     d.base_value.empty() ? "-" : d.base_value,
                     d.candidate_value.empty() ? "-" : d.candidate_value);
  out += fmt::format("mechanism: {}\n", d.mechanism);
  return out;
}

}  // namespace bench_diff

namespace {

using bench_diff::BenchCounts;

struct BenchDiffOptions {
  std::string base, candidate, config, out_dir = "reports";
  int depth = kBenchDefaultDepth;
  int position = 0;
};

// `<engine> bench D --positions`: the total and every position's count.
BenchCounts bench_counts(const compare::Side& side, int depth) {
  std::vector<std::string> argv = proc::command_argv(side.engine);
  for (const std::string& a :
       {std::string("bench"), std::to_string(depth), std::string("--positions")})
    argv.push_back(a);
  proc::RunOptions o;
  o.timeout = std::chrono::seconds(900);
  o.stderr_to = proc::Stderr::Discarded;
  const proc::RunResult r = proc::run(argv, o);
  if (r.exit_code != 0)
    throw InputError(fmt::format("{} {}: '{}' failed ({}):\n{}", side.role, side.given,
                                 proc::display_command(argv), r.describe(),
                                 compare::tail_lines(r.output, 5)));
  auto counts = bench_diff::parse_bench_counts(r.output);
  if (!counts)
    throw InputError(fmt::format(
        "{} {}: '{}' printed no per-position node counts ('Position N : nodes' lines adding up to "
        "'Nodes searched'): an engine older than bench-diff, or not stk",
        side.role, side.given, proc::display_command(argv)));
  return *counts;
}

// `<engine> bench D --trace N`, its stdout a pipe the comparison reads as the engine writes.
class TraceProcess {
 public:
  TraceProcess(const compare::Side& side, int depth, std::size_t position) {
    argv_ = proc::command_argv(side.engine);
    for (const std::string& a : {std::string("bench"), std::to_string(depth),
                                 std::string("--trace"), std::to_string(position)})
      argv_.push_back(a);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw InputError("pipe2 failed");
    const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    proc::SpawnOptions o;
    o.stdout_fd = fds[1];
    o.stderr_fd = null_fd;
    try {
      pid_ = proc::spawn(argv_, o);
    } catch (...) {
      for (int fd : {fds[0], fds[1], null_fd})
        if (fd >= 0) close(fd);
      throw;
    }
    close(fds[1]);
    if (null_fd >= 0) close(null_fd);
    fd_ = fds[0];
  }
  TraceProcess(const TraceProcess&) = delete;
  TraceProcess& operator=(const TraceProcess&) = delete;
  ~TraceProcess() { finish(true); }

  int fd() const { return fd_; }
  const std::vector<std::string>& argv() const { return argv_; }
  // Ends it (killed first when `kill_it`: the comparison needs no more of it) and says how it
  // ended: "" for exit 0, else the exit status or signal.
  std::string finish(bool kill_it) {
    if (fd_ >= 0) close(fd_), fd_ = -1;
    if (pid_ <= 0) return "";
    if (kill_it) ::kill(-pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    io::remove_child_group(pid_);
    pid_ = -1;
    if (kill_it || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) return "";
    return WIFEXITED(status) ? fmt::format("exit {}", WEXITSTATUS(status))
                             : fmt::format("killed by signal {}", WTERMSIG(status));
  }

 private:
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  int fd_ = -1;
};

report::Json side_json(const compare::Side& s, const BenchCounts& c) {
  report::Json j;
  j["given"] = s.given;
  j["engine"] = s.engine;
  if (!s.commit.empty()) j["commit"] = s.commit;
  j["signature"] = c.nodes;
  j["nodes_per_position"] = c.per_position;
  return j;
}

report::Json divergence_json(const bench_diff::Divergence& d, const std::string& root_fen) {
  report::Json j;
  j["record"] = d.record;
  j["iteration"] = d.iteration;
  j["ply"] = d.ply;
  report::Json path = report::Json::array();
  for (const bench_diff::PathStep& s : d.path)
    if (!s.move.empty()) path.push_back(s.move);
  j["path"] = path;
  j["node"] = d.path.empty() ? "" : d.path.back().node;
  j["node_fen"] = bench_diff::fen_after(root_fen, d.path);
  j["base_record"] = d.base;
  j["candidate_record"] = d.candidate;
  j["field"] = d.field;
  j["base_value"] = d.base_value;
  j["candidate_value"] = d.candidate_value;
  j["mechanism"] = d.mechanism;
  return j;
}

}  // namespace

int run_bench_diff(int argc, char** argv) {
  CLI::App app{
      "Where two builds' searches part: when the bench signatures differ, the first bench position\n"
      "whose node count differs and, in its search, the first node where the two traces differ:\n"
      "the path from the root, both sides' records and the mechanism (LMR, LMP, futility, SEE,\n"
      "null move, TT cut, ...). A side is a git revision (built as compare builds it, in\n"
      "build/compare/<commit>), 'worktree' or an stk binary with `bench --trace`.\n"
      "Exit 0 the signatures are equal, 1 they differ (the divergence reported), 2 bad input.",
      "stk-harness bench-diff"};
  BenchDiffOptions o;
  app.add_option("base", o.base, "git revision, 'worktree' or stk binary")->required();
  app.add_option("candidate", o.candidate, "git revision, 'worktree' or stk binary")->required();
  app.add_option("--depth", o.depth, "bench depth")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--position", o.position,
                 "trace this bench position (1-based) whatever the counts say")
      ->check(CLI::Range(1, int(bench_positions().size())));
  app.add_option("--config", o.config, "report name (default <base>-vs-<candidate>)");
  app.add_option("--out-dir", o.out_dir, "reports root")->capture_default_str();
  if (auto status = parse_cli_or_report(app, argc, argv,
                                        declare_given_junit(app, "bench-diff", "")))
    return *status;
  try {
    if (o.config.empty()) o.config = compare::default_config(o.base, o.candidate);
    const report::ReportPaths paths = report::report_paths(o.out_dir, "bench-diff", o.config);
    declare_report(paths, "bench-diff." + o.config);

    compare::Side base = compare::resolve_side("base", o.base, {});
    compare::Side candidate = compare::resolve_side("candidate", o.candidate, {});
    const double build_s = compare::build_revision(base) + compare::build_revision(candidate);

    const auto t0 = std::chrono::steady_clock::now();
    const BenchCounts a = bench_counts(base, o.depth), b = bench_counts(candidate, o.depth);
    const std::size_t differing = bench_diff::first_differing_position(a, b);
    const std::size_t traced = o.position ? std::size_t(o.position) : differing;
    const bool same = a.nodes == b.nodes && differing == 0;

    std::cout << fmt::format("bench-diff {} vs {} (depth {})\n", o.base, o.candidate, o.depth);
    std::cout << fmt::format("bench signature: base {}, candidate {}: {}\n", a.nodes, b.nodes,
                             same ? "equal" : "differ");
    if (differing)
      std::cout << fmt::format(
          "first position whose node count differs: {} of {} (base {}, candidate {})\n", differing,
          std::max(a.per_position.size(), b.per_position.size()),
          differing <= a.per_position.size() ? std::to_string(a.per_position[differing - 1]) : "-",
          differing <= b.per_position.size() ? std::to_string(b.per_position[differing - 1]) : "-");

    bench_diff::TraceDiff diff;
    std::string root_fen, trace_failure;
    double trace_s = 0;
    if (traced) {
      if (traced > bench_positions().size())
        throw InputError(
            fmt::format("position {} is not a bench position of this stk-harness", traced));
      root_fen = bench_positions()[traced - 1];
      std::cout << fmt::format("position {}: {}\ntracing both searches ...\n", traced, root_fen)
                << std::flush;
      const auto t1 = std::chrono::steady_clock::now();
      TraceProcess pa(base, o.depth, traced), pb(candidate, o.depth, traced);
      bench_diff::FdLineSource la(pa.fd()), lb(pb.fd());
      diff = bench_diff::diff_traces(la, lb);
      const std::string ea = pa.finish(diff.diverged), eb = pb.finish(diff.diverged);
      if (!ea.empty() || !eb.empty())
        trace_failure = fmt::format("'{}': {}",
                                    proc::display_command(ea.empty() ? pb.argv() : pa.argv()),
                                    ea.empty() ? eb : ea);
      trace_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
      if (!trace_failure.empty())
        throw InputError("a trace did not run to its end: " + trace_failure);
      if (diff.diverged) std::cout << bench_diff::describe_divergence(diff.divergence, root_fen);
      else std::cout << fmt::format("the traces are equal ({} records)\n", diff.records);
    }
    const double measure_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    report::RunReport run{"bench-diff", o.config};
    junit::TestSuite& suite = run.suites.emplace_back();
    suite.name = "bench-diff." + o.config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("base", o.base);
    suite.property("candidate", o.candidate);
    suite.property("depth", std::to_string(o.depth));
    junit::add_build_properties(suite);
    junit::TestCase sig;
    sig.classname = "bench-diff.signature";
    sig.name = fmt::format("bench depth {}", o.depth);
    sig.facts = {{"base_nodes", std::to_string(a.nodes)},
                 {"candidate_nodes", std::to_string(b.nodes)},
                 {"first_differing_position", std::to_string(differing)}};
    if (!same) {
      sig.outcome = junit::Outcome::Failed;
      sig.message =
          fmt::format("bench signatures differ: base {}, candidate {} (first position {})", a.nodes,
                      b.nodes, differing);
    }
    suite.cases.push_back(sig);
    if (traced) {
      junit::TestCase tc;
      tc.classname = "bench-diff.divergence";
      tc.name = fmt::format("position {}", traced);
      tc.time_s = trace_s;
      tc.facts = {{"records", std::to_string(diff.records)},
                  {"peak_path", std::to_string(diff.peak_path)}};
      if (diff.diverged) {
        tc.outcome = junit::Outcome::Failed;
        tc.message = fmt::format("the searches part at trace record {}, ply {}: {}",
                                 diff.divergence.record, diff.divergence.ply,
                                 diff.divergence.mechanism);
        tc.detail = bench_diff::describe_divergence(diff.divergence, root_fen);
      } else if (differing == traced) {
        tc.outcome = junit::Outcome::Failed;
        tc.message =
            "the node counts differ but the traces are equal: the difference lies "
            "outside the traced search (state between positions?)";
      }
      suite.cases.push_back(tc);
    }
    suite.time_s = measure_s;

    run.figures["kind"] = "stk-bench-diff";
    run.figures["config"] = o.config;
    run.figures["depth"] = o.depth;
    run.figures["base"] = side_json(base, a);
    run.figures["candidate"] = side_json(candidate, b);
    run.figures["signatures_equal"] = same;
    run.figures["first_differing_position"] = differing;
    run.figures["traced_position"] = traced;
    if (traced) {
      run.figures["position_fen"] = root_fen;
      run.figures["trace_records"] = diff.records;
      run.figures["peak_path"] = diff.peak_path;
      run.figures["divergence"] = diff.diverged ? divergence_json(diff.divergence, root_fen)
                                                : report::Json();
    }
    run.figures["build_s"] = build_s;
    run.figures["measure_s"] = measure_s;
    std::string md = fmt::format(
        "| | base | candidate |\n|---|---|---|\n| given | `{}` | `{}` |\n| bench signature (depth "
        "{}) | {} | {} |\n\n",
        o.base, o.candidate, o.depth, a.nodes, b.nodes);
    if (traced) {
      md += fmt::format("Position {}: `{}`\n\n", traced, root_fen);
      md += diff.diverged
                ? "```\n" + bench_diff::describe_divergence(diff.divergence, root_fen) + "```\n"
                : fmt::format("The traces are equal ({} records).\n", diff.records);
    }
    run.markdown = md;
    run.figures["passed"] = run.passed();
    report::write_run_report(run, paths);
    std::cout << fmt::format("reports: {}, {}\n", paths.junit, paths.json);
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness bench-diff", app.help().c_str());
  }
}

}  // namespace stk::harness
