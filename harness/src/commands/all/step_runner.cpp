#include "commands/all/step_runner.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "cli/cli.h"
#include "proc/process.h"

namespace stk::harness {

namespace {

// What a report records: failures + errors over its <testsuites> root, or why it cannot say.
struct ReportVerdict {
  std::string problem;  // "" when readable
  int failures = 0, errors = 0;
};

ReportVerdict read_verdict(const std::string& path) {
  if (!std::filesystem::exists(path)) return {"wrote no report " + path};
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS)
    return {"its report " + path + " does not parse: " + std::string(doc.ErrorStr())};
  const auto* root = doc.FirstChildElement("testsuites");
  if (!root) return {"its report " + path + " has no <testsuites> root"};
  return {"", root->IntAttribute("failures"), root->IntAttribute("errors")};
}

// "" when the exit status and the reports agree, else the contradiction.
std::string judge(int code, const std::vector<ReportVerdict>& verdicts,
                  const std::vector<std::string>& paths) {
  int failures = 0, errors = 0;
  for (const ReportVerdict& v : verdicts) {
    if (!v.problem.empty()) return fmt::format("exit {} but {}", code, v.problem);
    failures += v.failures, errors += v.errors;
  }
  if (code == 0 && failures + errors > 0)
    return fmt::format("exit 0 but its report records {} failures and {} errors ({})", failures,
                       errors, fmt::join(paths, ", "));
  if (code == 1 && failures + errors == 0)
    return fmt::format("exit 1 but no report records a failure ({})", fmt::join(paths, ", "));
  return "";
}

// Runs the step's commands in order until one does not exit 0; its status as a shell gives it
// (128 + N for signal N). Stdout and stderr are the harness's. The children stay in the harness's
// process group: a step is a foreground job, so Ctrl-C at the terminal reaches it too.
int run_commands(const Step& step) {
  proc::RunOptions foreground;
  foreground.capture = false;
  foreground.stderr_to = proc::Stderr::Inherited;
  foreground.own_group = false;
  for (const Argv& argv : step.commands) {
    const proc::RunResult r = proc::run(argv, foreground);
    const int code = r.signal ? 128 + r.signal : r.exit_code;
    if (code != 0) return code;
  }
  return 0;
}

}  // namespace

std::vector<Step> select_steps(const std::vector<Step>& steps,
                               const std::vector<std::string>& only) {
  if (only.empty()) return steps;
  std::vector<std::string> names;
  for (const Step& s : steps) names.push_back(s.name);
  for (const std::string& o : only)
    if (std::find(names.begin(), names.end(), o) == names.end())
      throw UsageError(fmt::format("--only: no step named '{}' in this tier (steps: {})", o,
                                   fmt::join(names, ", ")));
  std::vector<Step> out;
  for (const Step& s : steps)
    if (std::find(only.begin(), only.end(), s.name) != only.end()) out.push_back(s);
  return out;
}

junit::TestCase run_step(const Step& step, const std::string& classname) {
  std::error_code ec;
  for (const std::string& r : step.reports)
    std::filesystem::remove(r, ec);  // no stale report can count
  auto t0 = std::chrono::steady_clock::now();
  std::cout.flush();  // the step's output follows the harness's
  const int code = run_commands(step);
  junit::TestCase tc;
  tc.classname = classname;
  tc.name = step.name;
  tc.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  tc.facts = {{"command", step.command_line()},
              {"exit_code", std::to_string(code)},
              {"reports", fmt::format("{}", fmt::join(step.reports, " "))}};
  if (code != 0 && code != 1) {
    tc.outcome = junit::Outcome::Error;
    tc.message = fmt::format("the harness could not run (exit {})", code);
    return tc;
  }
  std::vector<ReportVerdict> verdicts;
  for (const std::string& r : step.reports) verdicts.push_back(read_verdict(r));
  if (std::string why = judge(code, verdicts, step.reports); !why.empty()) {
    tc.outcome = junit::Outcome::Error;
    tc.message = why;
  } else if (code == 1) {
    tc.outcome = junit::Outcome::Failed;
    tc.message = "a gate failed (see its own report)";
  }
  return tc;
}

}  // namespace stk::harness
