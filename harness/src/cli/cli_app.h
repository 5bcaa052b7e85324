// CLI11 parsing under the harness's exit-status contract.
#pragma once

#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace stk::harness {

// --help prints the help (exit 0); a parse error prints "<app name>: <error>" and the help (exit 2).
// Returns the status to exit with now, or nullopt when the options parsed and the command goes on.
inline std::optional<int> parse_cli(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << "\n" << app.help();
    return 2;
  }
  return std::nullopt;
}

// Every option given on the command line as (long name without dashes, value), in declaration
// order; a repeated option gives one pair per value, a flag the value "true". For the report's
// "input.<name>" properties, so a report says how it was produced.
inline std::vector<std::pair<std::string, std::string>> given_options(const CLI::App& app) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_single_name() == "help") continue;
    if (opt->get_type_size() == 0) {
      out.emplace_back(opt->get_single_name(), "true");
      continue;
    }
    for (const std::string& v : opt->results()) out.emplace_back(opt->get_single_name(), v);
  }
  return out;
}

}  // namespace stk::harness
