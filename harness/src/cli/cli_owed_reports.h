// CLI11 parsing for a harness that owes reports (common/cli.h declare_report): options that do not
// parse still leave the <error> report, at the path that the options given so far name.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "cli/cli_fwd.h"

namespace stk::harness {

// The last value given for option `name` ("--config") as typed, before any conversion or check, or
// `fallback` when it was not given. Valid after a failed parse too: CLI11 collects every option's
// text before it converts and checks them.
std::string given_value(const CLI::App& app, const std::string& name, const std::string& fallback);

// parse_cli for a harness that may owe reports. An argument that is no option is named first, before
// a missing required option (CLI11 checks requirements first). On a parse error `declare` (when
// given: it declares every report the run owes, naming them through given_value) runs, then each
// declared report gets the <error> report with the parse error (input_failure), and the status is 2.
// On success `declare` is not called: the harness declares its reports from the parsed values.
std::optional<int> parse_cli_or_report(CLI::App& app, int argc, char** argv,
                                       const std::function<void()>& declare = nullptr);

// The `declare` of parse_cli_or_report for a harness that writes one JUnit report: --junit when the
// harness has that option and it was given, else <--out-dir>/junit/<harness>-<config>.xml, where
// config is --config as given, else `default_config`. A default computed from other options
// ("<suite>-sd<N>") is "" here: those options may not have parsed, so only a given --config names
// the report then. A name that is not a safe file name declares nothing.
std::function<void()> declare_given_junit(const CLI::App& app, std::string harness,
                                          std::string default_config);

// "--shard K/N" checked as it parses (parse_shard's rule).
CLI::Validator shard_check();

}  // namespace stk::harness
