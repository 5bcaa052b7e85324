// CLI11 parsing under the harness's exit-status contract.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_fwd.h"

namespace stk::harness {

// --help prints the help (exit 0); a parse error prints "<app name>: <error>" and the help (exit 2).
// Returns the status to exit with now, or nullopt when the options parsed and the command goes on.
std::optional<int> parse_cli(CLI::App& app, int argc, char** argv);

// Every option given on the command line as (long name without dashes, value), in declaration
// order; a repeated option gives one pair per value, a flag the value "true". For the report's
// "input.<name>" properties, so a report says how it was produced.
std::vector<std::pair<std::string, std::string>> given_options(const CLI::App& app);

// An engine command ("CMD ARGS", or the path of an executable) checked as it parses: one that does
// not split into words (an unbalanced quote, a trailing backslash, no word) is a usage error naming
// the option (proc/command_words.h has the rule).
CLI::Validator engine_command_check();

}  // namespace stk::harness
