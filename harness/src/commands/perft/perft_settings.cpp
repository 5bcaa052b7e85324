#include "commands/perft/perft_settings.h"

#include <filesystem>
#include <map>

#include <CLI/CLI.hpp>

#include "cli/cli_owed_reports.h"
#include "commands/perft/perft_subject.h"

namespace stk::harness::perft_harness {

void add_perft_options(CLI::App& app, PerftSettings& s) {
  app.add_option("--epd", s.files,
                 "perft EPD ('FEN ;D1 n ;D2 n ...'), repeatable; default golden/perft.epd");
  app.add_option("--depth", s.max_depth, "deepest depth to run")
      ->check(CLI::Range(1, 15))
      ->capture_default_str();
  app.add_option("--max-nodes", s.max_nodes_option,
                 "skip depths whose expected count exceeds N (-1: no limit)")
      ->check(CLI::Range(-1LL, 1LL << 62))
      ->capture_default_str();
  app.add_option("--invariants-depth", s.inv_depth,
                 "walk each tree to N plies checking make/unmake invariants (0 off)")
      ->check(CLI::Range(0, 6))
      ->capture_default_str();
  app.add_option("--reference", s.reference_path,
                 "UCI engine answering 'go perft' to bisect mismatches (e.g. stockfish): a path or "
                 "CMD ARGS (docs/uci.md)")
      ->check(engine_command_check());
  app.add_option("--config", s.config, "report name")->capture_default_str();
  app.add_option("--shard", s.shard_text, "take the checks of positions i with i % N == K-1")
      ->check(shard_check());
  app.add_option("--junit", s.junit_option, "JUnit file (default OUT_DIR/junit/perft-CONFIG.xml)");
  app.add_option("--out-dir", s.out_dir, "reports folder")->capture_default_str();
  app.add_option("--timeout", s.timeout, "seconds per check (each check runs in a child process)")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  app.add_option("--plant", s.plant,
                 "test policy: a perft that crashes or hangs at an under-promotion capture")
      ->check(CLI::IsMember(perft_plants()))
      ->capture_default_str();
}

std::string report_name(const std::string& cfg, const std::string& shard) {
  const Shard s = parse_shard(shard);
  return cfg + (s.count > 1 ? "-shard" + std::to_string(s.index) : "");
}

report::ReportPaths report_files(const std::string& dir, const std::string& cfg,
                                 const std::string& shard, const std::string& junit) {
  report::ReportPaths paths = report::report_paths(dir, "perft", report_name(cfg, shard));
  if (!junit.empty()) paths.junit = junit;
  return paths;
}

void declare_given_report(const CLI::App& app) {
  std::string shard = given_value(app, "--shard", "1/1");
  try {
    parse_shard(shard);
  } catch (const UsageError&) {
    shard = "1/1";
  }
  const std::string cfg = given_value(app, "--config", "default");
  declare_report(report_files(given_value(app, "--out-dir", "reports"), cfg, shard,
                              given_value(app, "--junit", ""))
                     .junit,
                 "perft." + cfg);
}

void resolve_settings(PerftSettings& s) {
  if (s.files.empty()) s.files.push_back("golden/perft.epd");
  s.max_nodes = std::uint64_t(s.max_nodes_option);  // -1: no limit
  s.timeout_s = double(s.timeout);

  // A file's stem names its testcase class: two files of one stem would repeat testcase names.
  std::map<std::string, std::string> stems;
  for (const auto& f : s.files)
    if (auto [it, fresh] = stems.emplace(std::filesystem::path(f).stem().string(), f); !fresh)
      throw UsageError("--epd " + it->second + " and --epd " + f + " share the name '" + it->first +
                       "' (testcase class perft." + it->first + "): give files of different names");
}

}  // namespace stk::harness::perft_harness
