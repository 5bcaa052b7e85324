// stk-harness history: the headline figures of every `stk-harness all` run in
// reports/history.sqlite, printed, as CSV, or appended from a reports directory.
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "commands.h"
#include "commands/history/history.h"
#include "commands/review/review.h"
#include "io/input_file.h"

namespace stk::harness {

int run_history(int argc, char** argv) {
  CLI::App app{
      "The headline figures of every 'stk-harness all' run (reports/history.sqlite): printed, as CSV,\n"
      "or appended from a reports directory. Exit 2 naming the database when it is not usable\n"
      "(corrupt, not SQLite); nothing is appended then.",
      "stk-harness history"};
  std::string db = "reports/history.sqlite", append, tier = "quick";
  bool csv = false;
  app.add_option("--db", db, "the history database")->capture_default_str();
  app.add_flag("--csv", csv, "print CSV: run_id,revision,date,tier,cpu_model,cores,key,value");
  app.add_option("--append", append,
                 "append the headline figures of this reports directory as one run");
  app.add_option("--tier", tier, "tier recorded with --append")->capture_default_str();
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    if (!append.empty()) {
      io::require_input_folder(append);  // a missing or unreadable folder is bad input (exit 2)
      return review::record_history(append, db, tier, std::cout);
    }
    const auto rows = review::read_history(db);
    auto quoted = [](const std::string& s) {
      std::string q = "\"";
      for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
      return q + "\"";
    };
    if (csv) std::cout << "run_id,revision,date,tier,cpu_model,cores,key,value\n";
    long long last = -1;
    for (const auto& r : rows) {
      if (csv) {
        std::cout << fmt::format("{},{},{},{},{},{},{},{:.17g}\n", r.run_id, quoted(r.run.revision),
                                 r.run.date, r.run.tier, quoted(r.run.cpu_model), r.run.cores,
                                 quoted(r.key), r.value);
        continue;
      }
      if (r.run_id != last)
        std::cout << fmt::format("run {} {} {} {} ({}, {} cores)\n", r.run_id, r.run.date,
                                 r.run.revision, r.run.tier, r.run.cpu_model, r.run.cores);
      last = r.run_id;
      std::cout << fmt::format("  {} = {:.10g}\n", r.key, r.value);
    }
    return 0;
  } catch (...) {
    return input_failure("stk-harness history");
  }
}

}  // namespace stk::harness
