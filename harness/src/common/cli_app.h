// CLI11 parsing under the harness's exit-status contract.
#pragma once

#include <iostream>
#include <optional>

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

}  // namespace stk::harness
