// stk-harness fhcollect: the fail-high predictor's collection run (records of the gate-1
// population, docs/fail-high-predictor.md), read back and checked.
#include <chrono>
#include <iostream>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "fail_high/collect_policy.h"
#include "fail_high/model_option.h"
#include "positions/position_list.h"
#include "fail_high/record_file.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "search/worker.h"

namespace stk::harness {

namespace {

using fhcollect::Record;
namespace fh = search::fh;

struct Collected {
  std::uint64_t nodes = 0, nodes_logged = 0, nodes_seen = 0;
  int searched = 0;
};

// One fresh search per position of this shard, logging through the collection policy (with the
// predictor's decisions compiled in when `Predictor`: fhcollect --predictor on).
template <bool Predictor>
Collected collect(const std::vector<fhcollect::ListedPosition>& positions, const Shard& shard,
                  long long limit, std::size_t hash, const fh::Model* model, std::uint32_t seed,
                  int full_depth, int depth, fhcollect::RecordWriter& writer) {
  fhcollect::CollectPolicyT<Predictor> policy;
  policy.writer = &writer;
  policy.full_depth = full_depth;
  Collected out;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!shard.takes(i)) continue;
    if (limit && out.searched >= limit) break;
    Position pos;
    pos.set(positions[i].fen);
    search::FreshSearch fresh(hash);
    fresh.fh.enabled = Predictor;
    fresh.fh.model = model;
    policy.start_position(std::uint32_t(i), seed);
    out.nodes += fresh.run(pos, policy, depth, 0).nodes;
    ++out.searched;
  }
  out.nodes_logged = policy.nodes_logged;
  out.nodes_seen = policy.nodes_seen;
  return out;
}

struct FhcollectSettings {
  std::string positions_path, out_path, shard_text = "1/1", predictor = "off", model_path,
                                        config = "default", out_dir = "reports";
  int depth = 0, full_depth = 6;
  std::uint32_t seed = 1;
  std::size_t hash = 16;
  long long limit = 0;
};

void add_fhcollect_options(CLI::App& app, FhcollectSettings& s) {
  app.add_option("--positions", s.positions_path,
                 "one position per line (EPD: four FEN fields, optional id); "
                 "position_id = index")
      ->required();
  app.add_option("--depth", s.depth, "fixed search depth per position (fresh state per position)")
      ->required()
      ->check(CLI::Range(1, 64));
  app.add_option("--out", s.out_path, "the record file (.fhr)")->required();
  app.add_option("--seed", s.seed, "sampling seed (printed and written to the file header)")
      ->capture_default_str();
  app.add_option("--full-depth", s.full_depth,
                 "nodes at depth d < K are logged with probability 2^-(K-d)")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  app.add_option("--shard", s.shard_text,
                 "this run takes positions i with i % N == K-1; each shard writes its own file")
      ->check(shard_check());
  app.add_option("--predictor", s.predictor,
                 "the search runs with the predictor on or off (off: the engine's default)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--model", s.model_path,
                 "model used for the search and the records' prediction field (default built-in)");
  app.add_option("--hash", s.hash, "hash size in MB")
      ->check(CLI::Range(std::size_t(1), std::size_t(4096)))
      ->capture_default_str();
  app.add_option("--limit", s.limit, "search at most N positions (0: all)")
      ->check(CLI::Range(0LL, 1LL << 30));
  app.add_option("--config", s.config, "report name")->capture_default_str();
  app.add_option("--out-dir", s.out_dir, "reports folder")->capture_default_str();
}

void declare_fhcollect_report(const std::string& dir, const std::string& cfg) {
  declare_report(report::junit_path(dir, "fhcollect", cfg), "fhcollect." + cfg);
}

// The collection run: the record file written (and closed), what the searches saw, how long.
struct CollectionRun {
  Collected got;
  std::uint64_t records_written = 0;
  double secs = 0;
};

CollectionRun write_records(const FhcollectSettings& s, const Shard& shard, const fh::Model* model,
                            const std::vector<fhcollect::ListedPosition>& positions) {
  fhcollect::SegmentHeader header;
  header.search_depth = s.depth;
  header.full_depth = s.full_depth;
  header.seed = s.seed;
  header.shard_index = shard.index - 1;
  header.shard_count = shard.count;
  fhcollect::RecordWriter writer(s.out_path, header);
  const auto t0 = std::chrono::steady_clock::now();
  CollectionRun run;
  run.got = s.predictor == "on" ? collect<true>(positions, shard, s.limit, s.hash, model, s.seed,
                                                s.full_depth, s.depth, writer)
                                : collect<false>(positions, shard, s.limit, s.hash, model, s.seed,
                                                 s.full_depth, s.depth, writer);
  writer.close();
  run.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.records_written = writer.count();
  return run;
}

// The record file as read back, counted by what a record file promises.
struct ReadBack {
  std::vector<Record> records;
  std::map<std::string, std::pair<long, long>> by_kind;  // kind -> (records, fail highs)
  long mispredicted = 0, mate_window = 0;
};

// Reads the file back with the C++ reader; `m` is the model the records' predictions must match.
ReadBack read_back(const std::string& out_path, const fh::Model& m) {
  ReadBack b;
  b.records = fhcollect::read_records(out_path);
  for (const Record& r : b.records) {
    auto& [n, k] = b.by_kind[fmt::format("{}.{}", r.in.side == fh::kAlpha ? "alpha" : "beta",
                                         r.in.whole_node ? "node" : "move")];
    ++n;
    k += r.label;
    b.mispredicted += m.predict(r.in) != r.prediction;
    b.mate_window += std::abs(r.static_eval) >= search::kValueMateInMaxPly;
  }
  return b;
}

void print_collection(const CollectionRun& run, const ReadBack& b) {
  std::cout << fmt::format(
      "{} records from {} positions, {} nodes, {:.1f} s; logged {} of {} gate nodes\n",
      b.records.size(), run.got.searched, run.got.nodes, run.secs, run.got.nodes_logged,
      run.got.nodes_seen);
  for (auto& [kind, nk] : b.by_kind)
    std::cout << fmt::format("  {:<11} {:>9} records, fail-high rate {:.4f}\n", kind, nk.first,
                             nk.first ? double(nk.second) / double(nk.first) : 0.0);
}

// The four checks of a record file, as testcases of `suite`; a failed one is printed to stderr.
void add_record_checks(junit::TestSuite& suite, const std::string& config, const CollectionRun& run,
                       const ReadBack& b) {
  auto add = [&](const std::string& name, bool ok, const std::string& message) {
    junit::TestCase tc;
    tc.classname = "fhcollect." + config;
    tc.name = name;
    if (!ok) tc.outcome = junit::Outcome::Failed, tc.message = message;
    tc.system_out = message;
    suite.cases.push_back(tc);
    if (!ok) std::cerr << "fhcollect: " << name << ": " << message << "\n";
  };
  add("records written and read back",
      b.records.size() == run.records_written && !b.records.empty(),
      fmt::format("{} written, {} read back", run.records_written, b.records.size()));
  add("recorded prediction equals the model's", b.mispredicted == 0,
      fmt::format("{} of {} records disagree", b.mispredicted, b.records.size()));
  add("mate window excluded", b.mate_window == 0,
      fmt::format("{} records with a mate-range eval", b.mate_window));
  add("both sides populated", b.by_kind.count("alpha.move") && b.by_kind.count("beta.node"),
      fmt::format("{} record kinds", b.by_kind.size()));
}

// The figures and the Markdown of the report.
void add_figures(report::RunReport& collected, const FhcollectSettings& s, const Shard& shard,
                 const CollectionRun& run, const ReadBack& b) {
  report::Json kinds = report::Json::object();
  std::string table = "| kind | records | fail-high rate |\n|---|---|---|\n";
  for (auto& [kind, nk] : b.by_kind) {
    const double rate = nk.first ? double(nk.second) / double(nk.first) : 0.0;
    kinds[kind] = {{"records", nk.first}, {"fail_highs", nk.second}, {"fail_high_rate", rate}};
    table += fmt::format("| {} | {} | {:.4f} |\n", kind, nk.first, rate);
  }
  collected.figures["records_file"] = s.out_path;
  collected.figures["records"] = b.records.size();
  collected.figures["positions_searched"] = run.got.searched;
  collected.figures["nodes"] = run.got.nodes;
  collected.figures["gate_nodes_seen"] = run.got.nodes_seen;
  collected.figures["gate_nodes_logged"] = run.got.nodes_logged;
  collected.figures["depth"] = s.depth;
  collected.figures["full_depth"] = s.full_depth;
  collected.figures["seed"] = s.seed;
  collected.figures["shard"] = shard.label();
  collected.figures["predictor"] = s.predictor;
  collected.figures["by_kind"] = std::move(kinds);
  collected.figures["mispredicted"] = b.mispredicted;
  collected.figures["mate_window"] = b.mate_window;
  collected.markdown =
      fmt::format(
          "{} records from {} positions ({}), depth {}, full-depth {}, seed {}, shard {}, "
          "predictor {}\n\n",
          b.records.size(), run.got.searched, s.positions_path, s.depth, s.full_depth, s.seed,
          shard.label(), s.predictor) +
      table;
}

}  // namespace

int run_fhcollect(int argc, char** argv) {
  CLI::App app{
      "The fail-high predictor's collection run: records of the gate-1 population\n"
      "(docs/fail-high-predictor.md), read back and checked.\n"
      "Report: reports/junit/fhcollect-CONFIG.xml, reports/fhcollect/CONFIG.{json,md}.",
      "stk-harness fhcollect"};
  FhcollectSettings s;
  add_fhcollect_options(app, s);
  auto declare_given = [&] {
    declare_fhcollect_report(given_value(app, "--out-dir", "reports"),
                             given_value(app, "--config", "default"));
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const report::ReportPaths paths = report::report_paths(s.out_dir, "fhcollect", s.config);
    declare_fhcollect_report(s.out_dir, s.config);
    const Shard shard = parse_shard(s.shard_text);
    const std::unique_ptr<fh::Model> model = fhcollect::model_option(s.model_path);
    const auto positions = fhcollect::read_position_list(s.positions_path);
    std::cout << fmt::format(
        "fhcollect: {} positions from {}, depth {}, full-depth {}, seed {}, shard {}, predictor {}\n",
        positions.size(), s.positions_path, s.depth, s.full_depth, s.seed, shard.label(),
        s.predictor);

    const CollectionRun run = write_records(s, shard, model.get(), positions);
    // Read the file back with the C++ reader and check what a record file promises.
    const ReadBack back = read_back(s.out_path, model ? *model : fh::Model::builtin());
    print_collection(run, back);

    report::RunReport collected{"fhcollect", s.config};
    junit::TestSuite& suite = collected.suites.emplace_back();
    suite.name = "fhcollect." + s.config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("seed", std::to_string(s.seed));
    junit::add_build_properties(suite);
    add_record_checks(suite, s.config, run, back);
    suite.time_s = run.secs;
    add_figures(collected, s, shard, run, back);
    report::write_run_report(collected, paths);
    std::cout << "records: " << s.out_path << "\nreport: " << paths.junit << "\n";
    return report::exit_status(collected);
  } catch (...) {
    return input_failure("stk-harness fhcollect", app.help().c_str());
  }
}

}  // namespace stk::harness
