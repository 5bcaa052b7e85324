// stk-harness match-merge (and `merge` given match result files): adds shard results exactly,
// recomputes the SPRT on the sum and applies the gate recorded in the files.
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "match_results/match_merge.h"
#include "match_results/match_report.h"
#include "match_results/match_result_file.h"
#include "match_results/shard_homogeneity.h"
#include "report/run_report.h"

namespace stk::harness {

int run_match_merge(int argc, char** argv) {
  CLI::App app{
      "Adds match result files (shards of one match, or one finished match) exactly: refuses files of\n"
      "different matches, a shard given twice or an opening pair in two files; recomputes the SPRT\n"
      "on the summed counts and applies the gate fixed in the files (the bar is set before measuring:\n"
      "it cannot be changed here). Tests the files for one pentanomial law (chi-squared, permutation\n"
      "p-value, the file most out of line named): reported, not part of the gate. Writes reports/match/<config>.json (itself a match result file)\n"
      "and .md, and reports/junit/match-<config>.xml. Exit 0 gate passed, 1 failed, 2 bad input.",
      "stk-harness match-merge"};
  std::vector<std::string> args;
  std::string out_dir = "reports";
  bool quiet = false;
  app.add_option(
         "args", args,
         "[OUT_CONFIG] RESULT.json...: the report name (default: the match's config), then the files")
      ->required();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  app.add_flag("--quiet", quiet, "print only the verdict line");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    // A first argument that names no file (and does not look like one) is the report name: the
    // `merge OUT_CONFIG FILE...` form.
    std::string stem;
    std::size_t first_file = 0;
    const std::string& a0 = args[0];
    const bool looks_like_file = a0.find('/') != std::string::npos || a0.ends_with(".json");
    if (args.size() > 1 && !looks_like_file && !std::filesystem::exists(a0))
      stem = a0, first_file = 1;
    // The report is declared before any input can fail (a previous passing report never survives a
    // failed merge): named by OUT_CONFIG, else by the config of the first file that reads.
    if (!stem.empty()) declare_report(report::junit_path(out_dir, "match", stem), "match." + stem);
    std::vector<match::NamedResult> parts;
    std::exception_ptr unreadable;
    for (std::size_t i = first_file; i < args.size(); ++i) try {
        parts.push_back({args[i], match::read_match_result(args[i])});
      } catch (...) {
        if (!unreadable) unreadable = std::current_exception();
      }
    if (stem.empty() && !parts.empty()) {
      const std::string config = parts.front().result.definition().config;
      declare_report(report::junit_path(out_dir, "match", config), "match." + config);
    }
    if (unreadable) std::rethrow_exception(unreadable);
    const match::MatchResult merged = match::merge_match_results(parts);
    std::vector<std::pair<std::string, std::string>> props;
    for (std::size_t i = first_file; i < args.size(); ++i)
      props.emplace_back("input.file" + std::to_string(i - first_file + 1), args[i]);
    props.emplace_back("input.out_dir", out_dir);
    const match::HomogeneityResult spread = match::shard_homogeneity(parts);
    const match::MatchPublished pub = match::publish_match(merged, props, out_dir, stem,
                                                           {&spread, std::nullopt});
    if (quiet) {
      std::cout << pub.verdict_line();
    } else {
      std::cout << pub.summary << "reports: " << pub.junit_path << ", " << pub.json_path << "\n";
    }
    return pub.exit_code;
  } catch (...) {
    return input_failure("stk-harness match-merge");
  }
}

}  // namespace stk::harness
