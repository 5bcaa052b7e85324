// CLI11 parsing under the harness's exit-status contract (cli_app.h, cli_owed_reports.h): the
// bodies live here so that only the files that declare options compile CLI11's templates.
#include <cmath>
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/cli_app.h"
#include "cli/cli_owed_reports.h"
#include "cli/file_names.h"
#include "report/report_paths.h"
#include "proc/command_words.h"

namespace stk::harness {

namespace {

// Every FLOAT option of every command refuses nan and +-inf as it parses (docs/cli.md): CLI11
// reads them as doubles, and a range check written as `x < lo || x > hi` lets nan through. Added
// here, not option by option, so that a new option cannot forget it; no help text changes.
void require_finite_floats(CLI::App& app) {
  static const CLI::Validator finite(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (end != text.c_str() && !*end && !std::isfinite(x))
          return "must be a finite number, got '" + text + "'";
        return "";
      },
      "", "finite");
  for (CLI::Option* opt : app.get_options())
    if (opt->get_type_name().rfind("FLOAT", 0) == 0) opt->check(finite);
}

// The hidden --parse-only flag: the options parse and are checked as in a run, are printed one per
// line (`--name=value`, a flag as `--name`, a positional as `name=value`), and nothing runs and no
// report is written (exit 0). For the test that every tier step's words parse under the command
// they run (docs/tiers.md), without running the tier. A flag, not an environment variable, so that
// nothing left in a shell can turn a real run into one that only parses.
constexpr const char* kParseOnly = "--parse-only";

// An option a run reports as given: given, and neither --help nor the hidden --parse-only.
bool given_by_user(const CLI::Option* opt) {
  return opt->count() > 0 && opt->get_single_name() != "help" &&
         opt->get_single_name() != "parse-only";
}

void add_parse_only_flag(CLI::App& app) {
  if (!app.get_option_no_throw(kParseOnly)) app.add_flag(kParseOnly)->group("");
}

std::optional<int> parsed_only(const CLI::App& app) {
  if (app.get_option(kParseOnly)->count() == 0) return std::nullopt;
  std::cout << "parse-only: " << app.get_name() << " parsed; nothing run\n";
  for (const CLI::Option* opt : app.get_options()) {
    if (!given_by_user(opt)) continue;
    const std::string dashes = opt->nonpositional() ? "--" : "";
    if (opt->get_type_size() == 0) {
      std::cout << dashes << opt->get_single_name() << "\n";
      continue;
    }
    for (const std::string& v : opt->results())
      std::cout << dashes << opt->get_single_name() << "=" << v << "\n";
  }
  return 0;
}

}  // namespace

std::optional<int> parse_cli(CLI::App& app, int argc, char** argv) {
  require_finite_floats(app);
  add_parse_only_flag(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << "\n" << app.help();
    return 2;
  }
  return parsed_only(app);
}

std::vector<std::pair<std::string, std::string>> given_options(const CLI::App& app) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const CLI::Option* opt : app.get_options()) {
    if (!given_by_user(opt)) continue;
    if (opt->get_type_size() == 0) {
      out.emplace_back(opt->get_single_name(), "true");
      continue;
    }
    for (const std::string& v : opt->results()) out.emplace_back(opt->get_single_name(), v);
  }
  return out;
}

std::string given_value(const CLI::App& app, const std::string& name, const std::string& fallback) {
  const CLI::Option* opt = app.get_option_no_throw(name);
  return opt && !opt->results().empty() ? opt->results().back() : fallback;
}

std::optional<int> parse_cli_or_report(CLI::App& app, int argc, char** argv,
                                       const std::function<void()>& declare) {
  require_finite_floats(app);
  add_parse_only_flag(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string why = e.what();
    if (const auto extra = app.remaining(); !extra.empty()) {
      why = "The following arguments were not expected:";
      for (const std::string& x : extra) why += " " + x;
    }
    try {
      if (declare) declare();
      throw UsageError(why);
    } catch (...) {
      return input_failure(app.get_name().c_str(), app.help().c_str());
    }
  }
  return parsed_only(app);
}

std::function<void()> declare_given_junit(const CLI::App& app, std::string harness,
                                          std::string default_config) {
  return [&app, harness = std::move(harness), fallback = std::move(default_config)] {
    const std::string config = given_value(app, "--config", fallback);
    if (config.empty() || !is_safe_name(config)) return;
    std::string junit = given_value(app, "--junit", "");
    if (junit.empty())
      junit = report::junit_path(given_value(app, "--out-dir", "reports"), harness, config);
    declare_report(junit, harness + "." + config);
  };
}

CLI::Validator shard_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          parse_shard(text);
          return "";
        } catch (const UsageError& e) {
          return e.what();
        }
      },
      "K/N", "shard");
}

CLI::Validator engine_command_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          proc::command_argv(text);
          return "";
        } catch (const proc::CommandSyntaxError& e) {
          return "engine command '" + text + "': " + e.what();
        }
      },
      "CMD", "engine command");
}

}  // namespace stk::harness
