#include "epd/suite_run.h"

#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/cli.h"
#include "cli/cli_app.h"
#include "report/build_info.h"

namespace stk::harness::epd {

const CLI::Validator kNameValue(
    [](std::string& o) -> std::string {
      const auto eq = o.find('=');
      return eq == std::string::npos || eq == 0 ? "must be NAME=VALUE, got '" + o + "'" : "";
    },
    "NAME=VALUE", "NAME=VALUE");

void add_suite_options(CLI::App& app, SuiteOptions& o, const std::string& option_help) {
  app.add_option("--epd", o.epd_file,
                 "suite with bm/am (SAN) and id operations, e.g. $STK_SHARED/suites/ECM.epd")
      ->required();
  app.add_option("--depth", o.depth,
                 "fixed depth per position (sd: tests tree shape at fixed effort)")
      ->check(CLI::Range(std::uint64_t(1), kMaxSearchDepth));
  app.add_option("--nodes", o.nodes,
                 "fixed node budget per position (sn: tests accuracy at fixed cost)")
      ->check(CLI::Range(std::uint64_t(1), kMaxSearchNodes));
  app.add_option("--option", o.options, option_help)->check(kNameValue);
  app.add_option("--hash", o.hash_mb,
                 "hash size in MB; Threads is always 1; state is cleared per position")
      ->check(CLI::Range(std::size_t(1), std::size_t(65536)))
      ->capture_default_str();
  app.add_option("--stride", o.stride, "take every S-th position of the file (index % S == 0)")
      ->check(CLI::Range(1, kMaxStride))
      ->capture_default_str();
  app.add_option("--out-dir", o.out_dir, "reports folder")->capture_default_str();
  app.add_flag("--quiet", o.quiet, "no line per position");
}

std::vector<std::pair<std::string, std::string>> parse_options(
    const std::vector<std::string>& raw) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& o : raw) {
    auto eq = o.find('=');
    out.emplace_back(o.substr(0, eq), o.substr(eq + 1));
  }
  return out;
}

Budget parse_budget(const CLI::App& app, const SuiteOptions& o) {
  const bool depth = app.count("--depth") > 0, nodes = app.count("--nodes") > 0;
  if (depth == nodes) throw UsageError("give exactly one of --depth N (sd) and --nodes N (sn)");
  Budget b;
  b.kind = depth ? Budget::Kind::Depth : Budget::Kind::Nodes;
  b.value = depth ? o.depth : o.nodes;
  return b;
}

// The report name when --config is not given: "<prefix><suite>-<sd|sn><N>".
std::string default_config(const std::string& prefix, const std::string& epd_file,
                           const Budget& budget) {
  return prefix + std::filesystem::path(epd_file).stem().string() + "-" + budget.tag() +
         std::to_string(budget.value);
}

// Searches each position with fresh engine state and judges the answer.
std::vector<PositionResult> run_positions(EngineDriver& engine,
                                          const std::vector<const EpdPosition*>& todo,
                                          const Budget& budget, bool quiet) {
  std::vector<PositionResult> out;
  int solved = 0;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const EpdPosition& p = *todo[i];
    Position pos;
    pos.set(p.full_fen());
    PositionResult r;
    try {
      r = judge(p, engine.search(pos, p.full_fen(), budget));
    } catch (const std::runtime_error& e) {
      r = judge(p, SearchOutcome{});
      r.error = std::string("engine failed: ") + e.what();
    }
    solved += r.solved;
    if (!quiet)
      std::cout
          << fmt::format(
                 "[{}/{}] {:<10} {:<14} best {:<8} {:<8} depth {:>2} nodes {:>9} {:.2f}s  ({} solved)\n",
                 i + 1, todo.size(), r.name,
                 (r.bm.empty() ? "am " + fmt::format("{}", fmt::join(r.am, " "))
                               : "bm " + fmt::format("{}", fmt::join(r.bm, " "))),
                 r.best_san.empty() ? r.best_uci : r.best_san,
                 r.error.empty() ? (r.solved ? "solved" : "-") : "ERROR", r.depth, r.nodes,
                 r.time_s, solved)
          << std::flush;
    out.push_back(std::move(r));
  }
  return out;
}

std::unique_ptr<EngineDriver> open_engine(
    const std::string& which, std::size_t hash_mb,
    const std::vector<std::pair<std::string, std::string>>& opts) {
  if (which == "inprocess") return make_inprocess_engine(hash_mb, opts);
  try {
    return make_uci_engine(which, hash_mb, opts);
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

std::vector<const EpdPosition*> select_stride(const std::vector<EpdPosition>& all, int stride) {
  std::vector<const EpdPosition*> out;
  for (const EpdPosition& p : all)
    if (p.index % stride == 0) out.push_back(&p);
  return out;
}

RunMeta base_meta(const std::string& epd_file, const std::string& config,
                  const EngineDriver& engine, const Budget& budget, int stride, int selected) {
  RunMeta m;
  m.config = config;
  m.suite = std::filesystem::path(epd_file).stem().string();
  m.epd_file = epd_file;
  m.engine = engine.name();
  m.engine_settings = engine.settings();
  m.budget = budget;
  m.stride = stride;
  m.selected = selected;
  m.git_revision = build_info::git_revision();
  return m;
}

std::vector<std::pair<std::string, std::string>> echo(const CLI::App& app) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [k, v] : given_options(app)) out.emplace_back("input." + k, v);
  return out;
}

}  // namespace stk::harness::epd
