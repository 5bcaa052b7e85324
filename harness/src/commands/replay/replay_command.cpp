// stk-harness replay BUNDLE [--full] [--engine CMD] [--out-dir D]: replays a reproducer bundle's
// minimized commands (every recorded command with --full) against its engine, or another one, and
// says whether the bundle's failure happens again. Exit 1 while it does (the defect is there), 0
// once it does not (fixed), 2 when the bundle cannot be read or the engine cannot be started.
#include <filesystem>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "proc/command_words.h"
#include "proc/process.h"
#include "repro/bundle.h"
#include "repro/uci_replay.h"
#include "report/junit.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

// Whether the replay ran the bundle's own engine: the program it recorded (its SHA-256, wherever
// the file now is) with the same arguments. A failure that does not happen again on the bundle's
// own engine is intermittent, not fixed. Unknown (nullopt) where either digest is missing.
struct ProgramMatch {
  std::string replayed;  // SHA-256 of the program the replay started, "" when unreadable
  std::optional<bool> same;
};

ProgramMatch program_match(const repro::LoadedBundle& b, const std::string& engine) {
  ProgramMatch m{repro::engine_sha256(engine), std::nullopt};
  if (!m.replayed.empty() && !b.engine_sha256.empty())
    m.same = m.replayed == b.engine_sha256 &&
             repro::engine_arguments(engine) == repro::engine_arguments(b.engine);
  return m;
}

std::string program_words(const ProgramMatch& m) {
  if (!m.same) return "an engine not known to be the bundle's (a SHA-256 missing)";
  return *m.same ? "the bundle's own engine" : "another engine than the bundle's";
}

report::RunReport replay_report(const repro::LoadedBundle& b, const std::string& engine, bool full,
                                const repro::Replay& r, const ProgramMatch& program,
                                const std::vector<std::pair<std::string, std::string>>& options) {
  report::RunReport run{"replay", b.id};
  junit::TestSuite& suite = run.suites.emplace_back();
  suite.name = "replay." + b.id;
  for (auto& [k, v] : options) suite.property("input." + k, v);
  suite.property("engine", engine);
  suite.property("engine_sha256", program.replayed);
  suite.property("bundle_engine_sha256", b.engine_sha256);
  suite.property("expected_symptom", b.symptom.describe());
  junit::add_build_properties(suite);
  junit::TestCase tc;
  tc.classname = "replay.bundle";
  tc.name = b.id;
  tc.time_s = r.ms / 1000;
  tc.facts = {{"commands", std::to_string(full ? b.commands.size() : b.minimized.size())},
              {"seen", r.symptom.describe()},
              {"engine", program_words(program)}};
  const bool again = r.symptom == b.symptom;
  if (again) {
    tc.outcome = junit::Outcome::Failed;
    tc.message = "the failure happens again: " + r.symptom.describe();
    for (const repro::TranscriptLine& l : r.transcript)
      tc.detail += fmt::format("{:10.3f} {} {}\n", l.t_ms, l.direction, l.text);
  }
  suite.cases.push_back(tc);
  suite.time_s = tc.time_s;  // the replay is the suite's one testcase
  run.figures["bundle"] = b.dir;
  run.figures["engine"] = engine;
  run.figures["commands"] = full ? "all" : "minimized";
  run.figures["expected"] = b.symptom.describe();
  run.figures["seen"] = r.symptom.describe();
  run.figures["reproduced"] = again;
  run.figures["engine_sha256"] = program.replayed;
  run.figures["bundle_engine_sha256"] = b.engine_sha256;
  run.figures["same_engine"] = program.same ? report::Json(*program.same) : report::Json();
  run.markdown = fmt::format("Replayed `{}` ({} commands) on {}: expected {}, seen {}.\n", b.dir,
                             full ? "all" : "minimized", program_words(program),
                             b.symptom.describe(), r.symptom.describe());
  return run;
}

// A scenario bundle: its check run again by this stk-harness (the bundle's rerun command line,
// --engine replaced when another is given); the scenario failing again is the symptom again.
repro::Replay rerun_scenario(const repro::LoadedBundle& b, const std::string& engine,
                             const std::string& out_dir) {
  std::vector<std::string> argv{std::filesystem::canonical("/proc/self/exe").string()};
  for (std::size_t i = 0; i < b.rerun.size(); ++i) {
    argv.push_back(b.rerun[i]);
    if (b.rerun[i] == "--engine" && i + 1 < b.rerun.size()) argv.push_back(engine), ++i;
  }
  argv.insert(argv.end(), {"--config", "replay", "--out-dir", out_dir + "/replay-runs/" + b.id});
  const auto t0 = std::chrono::steady_clock::now();
  const proc::RunResult r = proc::run(argv);
  std::cout << r.output;
  if (r.exit_code != 0 && r.exit_code != 1)
    throw InputError(fmt::format("the scenario's run ended with {}: {}", r.exit_code,
                                 proc::display_command(argv)));
  repro::Replay out;
  if (r.exit_code == 1) out.symptom = b.symptom;
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace

int run_replay(int argc, char** argv) {
  CLI::App app{
      "Replays a reproducer bundle (reports/repro/<id>/, docs/reproducers.md): its minimized UCI\n"
      "commands (--full: every recorded one) sent to its engine (or --engine CMD). Exit 1 while the\n"
      "bundle's failure happens again, 0 once it does not, 2 when the bundle cannot be read.",
      "stk-harness replay"};
  std::string dir, engine, out_dir = "reports";
  bool full = false;
  int answer_ms = 5000;
  app.add_option("BUNDLE", dir, "the bundle's folder")->required();
  app.add_flag("--full", full, "replay every recorded command, not the minimized ones");
  app.add_option("--engine", engine, "replay against this engine (CMD ARGS) instead")
      ->check(engine_command_check());
  app.add_option("--answer-ms", answer_ms,
                 "longest wait for an answer beyond a command's own time limit")
      ->check(CLI::Range(1, 600000));
  app.add_option("--out-dir", out_dir, "where the report goes (default reports)");
  if (auto status = parse_cli_or_report(app, argc, argv)) return *status;
  try {
    repro::LoadedBundle b = repro::load_bundle(dir);
    const report::ReportPaths paths = report::report_paths(out_dir, "replay", b.id);
    declare_report(paths, "replay." + b.id);
    if (engine.empty()) engine = b.engine;
    repro::ReplayLimits limits;
    limits.answer = std::chrono::milliseconds(answer_ms);
    const auto& commands = full ? b.commands : b.minimized;
    const bool scenario = b.symptom.kind == "scenario";
    std::cout << (scenario ? fmt::format("replay: scenario {} of {} against {}\n", b.symptom.detail,
                                         dir, engine)
                           : fmt::format("replay: {} commands of {} against {}\n", commands.size(),
                                         dir, engine))
              << std::flush;
    const repro::Replay r = scenario ? rerun_scenario(b, engine, out_dir)
                                     : repro::replay_commands(engine, commands, limits);
    const ProgramMatch program = program_match(b, engine);
    std::cout << fmt::format("replay: expected {}, seen {}: {}\n", b.symptom.describe(),
                             r.symptom.describe(),
                             r.symptom == b.symptom ? "the failure happens again"
                                                    : "not reproduced")
              << fmt::format("replay: on {}{}\n", program_words(program),
                             program.same == true && r.symptom != b.symptom
                                 ? ": the failure did not happen again on the same engine"
                                   " (intermittent, or it depends on time or the machine)"
                                 : "");
    const report::RunReport run = replay_report(b, engine, full, r, program, given_options(app));
    report::write_run_report(run, paths);
    return report::exit_status(run);
  } catch (...) {
    return input_failure("stk-harness replay", app.help().c_str());
  }
}

}  // namespace stk::harness
