// stk-harness uci-check --engine CMD: drives any UCI engine the way a GUI or match runner does
// (commands during a search, zero clocks, the table kept between moves, garbage input) and
// checks what it prints with stk's move generator as the legality oracle. One JUnit testcase per
// scenario; a fresh engine process per scenario, so one failure never hides the next.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <set>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "report/run_report.h"
#include "commands/uci-check/repro_bundles.h"
#include "commands/uci-check/documented_differences.h"
#include "commands/uci-check/ucicheck_report.h"

namespace stk::harness {

namespace {

using namespace ucicheck;

std::vector<Scenario> select(std::vector<Scenario> all, const std::vector<std::string>& only) {
  if (only.empty()) return all;
  std::vector<Scenario> chosen;
  for (const std::string& want : only) {
    std::size_t before = chosen.size();
    for (const Scenario& s : all)
      if (s.id() == want || s.group == want) chosen.push_back(s);
    if (chosen.size() == before)
      throw UsageError("--only '" + want +
                       "' names no scenario or group (stk-harness uci-check --list)");
  }
  std::set<std::string> seen;  // a scenario named twice runs once
  std::vector<Scenario> unique;
  for (const Scenario& s : chosen)
    if (seen.insert(s.id()).second) unique.push_back(s);
  return unique;
}

ScenarioResult run_scenario(const Scenario& sc, const Settings& settings,
                            const std::string& engine_id) {
  ScenarioResult r;
  r.group = sc.group;
  r.name = sc.name;
  auto t0 = SteadyClock::now();
  std::unique_ptr<Session> session;
  try {
    session = std::make_unique<Session>(settings);
    session->start();
    sc.run(*session, r);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  if (session) r.transcript = session->transcript();
  session.reset();  // quit, or kill: the time includes shutting the engine down
  r.time_s = ms_between(t0, SteadyClock::now()) / 1000;
  if (!r.error.empty()) {
    r.verdict = Verdict::Error;
  } else if (r.failed()) {
    r.verdict = Verdict::Fail;
    std::vector<std::string> behaviours;
    for (const Failure& f : r.failures) behaviours.push_back(f.behaviour);
    if (settings.documented_differences)
      if (const DocumentedDifference* d = find_documented_difference(engine_id, sc.id(),
                                                                     behaviours)) {
        r.verdict = Verdict::Difference;
        r.difference = d->text;
      }
  } else if (!r.not_applicable.empty()) {
    r.verdict = Verdict::NotApplicable;
  }
  return r;
}

void print_result(const ScenarioResult& r) {
  const char* tag = r.verdict == Verdict::Pass            ? "pass"
                    : r.verdict == Verdict::Fail          ? "FAIL"
                    : r.verdict == Verdict::Error         ? "ERROR"
                    : r.verdict == Verdict::NotApplicable ? "n/a"
                                                          : "diff";
  std::string why = r.verdict == Verdict::Error           ? r.error
                    : r.failed()                          ? r.failures.front().text
                    : r.verdict == Verdict::NotApplicable ? r.not_applicable
                                                          : "";
  if (why.size() > 200) why = why.substr(0, 200) + "...";
  std::cout << fmt::format("  {:5} {:45} {:7.0f} ms{}{}\n", tag, r.group + "." + r.name,
                           r.time_s * 1000, why.empty() ? "" : "  ", printable(why));
}

}  // namespace

int run_uci_check(int argc, char** argv) {
  CLI::App app{
      "UCI conformance of any engine, driven as a GUI drives it (stk's move generator is the "
      "legality oracle). Exit 0 all scenarios pass (or are documented differences), 1 one failed, "
      "2 usage error or an engine that does not start or answer uci/isready.",
      "stk-harness uci-check"};
  Settings settings;
  std::vector<std::string> option_args, only;
  std::string config = "default", out_dir = "reports";
  bool list = false, no_differences = false;
  app.add_option(
         "--engine", settings.engine,
         "the engine: a path, or a command line CMD ARGS (split into words as a shell quotes "
         "them, never run by one: docs/uci.md)")
      ->check(engine_command_check());
  app.add_option("--option", option_args,
                 "NAME=VALUE sent as setoption before every scenario (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--only", only, "a scenario id or a group to run (repeatable; --list shows them)")
      ->allow_extra_args(false);
  app.add_option("--config", config,
                 "report name: reports/junit/uci-check-<config>.xml (default 'default')");
  app.add_option("--out-dir", out_dir, "reports folder (default 'reports')");
  app.add_option("--seed", settings.seed,
                 "seed of the random positions, junk and random mover (default 1)");
  app.add_option("--nodes-tolerance", settings.nodes_tolerance,
                 "allowed 'go nodes N' overshoot as a fraction of N (default 0: exact)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--timeout-scale", settings.timeout_scale,
                 "multiply every timeout (slow or sanitizer builds; default 1)")
      ->check(CLI::Range(0.1, 100.0));
  app.add_flag("--strict-pv", settings.strict_pv, "a truncated mate PV fails instead of warning");
  app.add_flag("--no-documented-differences", no_differences,
               "documented differences fail like any other failure");
  app.add_flag("--list", list, "list the scenarios and exit");
  if (auto status = parse_cli_or_report(app, argc, argv,
                                        declare_given_junit(app, "uci-check", "default")))
    return *status;
  settings.documented_differences = !no_differences;
  try {
    for (const std::string& o : option_args) {
      auto eq = o.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError("--option '" + o + "': expected NAME=VALUE");
      settings.options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
    }
    std::vector<Scenario> scenarios = select(all_scenarios(settings), only);
    if (list) {
      for (const Scenario& s : scenarios) std::cout << fmt::format("{:45} {}\n", s.id(), s.summary);
      return 0;
    }
    if (settings.engine.empty()) throw UsageError("--engine is required");
    const report::ReportPaths paths = report::report_paths(out_dir, "uci-check", config);
    declare_report(paths,
                   "uci-check." + config);  // an engine that does not start leaves an error report

    RunSummary run;
    run.config = config;
    run.settings = settings;
    run.inputs = {{"engine", settings.engine},
                  {"config", config},
                  {"out-dir", out_dir},
                  {"seed", std::to_string(settings.seed)}};
    for (const auto& [k, v] : settings.options) run.inputs.emplace_back("option", k + "=" + v);
    for (const std::string& o : only) run.inputs.emplace_back("only", o);
    auto t0 = SteadyClock::now();
    try {
      Session probe(settings);
      probe.start();
      run.engine_id = probe.id_name();
    } catch (const StartError& e) {
      throw InputError(e.what());
    }
    std::cout << fmt::format("uci-check: engine '{}' (id name '{}'), {} scenarios, seed {}\n",
                             settings.engine, printable(run.engine_id), scenarios.size(),
                             settings.seed);
    for (const Scenario& sc : scenarios) {
      run.results.push_back(run_scenario(sc, settings, run.engine_id));
      print_result(run.results.back());
    }
    run.time_s = ms_between(t0, SteadyClock::now()) / 1000;
    leave_reproducers(run.results, settings, out_dir, config);

    report::RunReport out{"uci-check", config};
    out.suites.push_back(to_junit(run));
    out.figures = to_json(run);
    out.markdown = to_markdown(run);
    report::write_run_report(out, paths);
    std::cout << fmt::format(
        "uci-check: {} pass, {} fail, {} documented difference, {} not applicable, {} error in "
        "{:.1f} s\nreport: {}\n",
        run.count(Verdict::Pass), run.count(Verdict::Fail), run.count(Verdict::Difference),
        run.count(Verdict::NotApplicable), run.count(Verdict::Error), run.time_s, paths.junit);
    return report::exit_status(out);
  } catch (...) {
    return input_failure("stk-harness uci-check");
  }
}

}  // namespace stk::harness
