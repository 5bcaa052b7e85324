// stk-harness fhcollect: the fail-high predictor's collection run (records of the gate-1
// population, docs/fail-high-predictor.md), read back and checked.
#include <chrono>
#include <iostream>
#include <map>
#include <memory>

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
Collected collect(const std::vector<fhcollect::ListedPosition>& positions, const Shard& shard, long long limit,
                  std::size_t hash, const fh::Model* model, std::uint32_t seed, int full_depth, int depth,
                  fhcollect::RecordWriter& writer) {
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

}  // namespace

int run_fhcollect(int argc, char** argv) {
  CLI::App app{"The fail-high predictor's collection run: records of the gate-1 population\n"
               "(docs/fail-high-predictor.md), read back and checked.\n"
               "Report: reports/junit/fhcollect-CONFIG.xml, reports/fhcollect/CONFIG.{json,md}.",
               "stk-harness fhcollect"};
  std::string positions_path, out_path, shard_text = "1/1", predictor = "off", model_path, config = "default",
                                        out_dir = "reports";
  int depth = 0, full_depth = 6;
  std::uint32_t seed = 1;
  std::size_t hash = 16;
  long long limit = 0;
  app.add_option("--positions", positions_path, "one position per line (EPD: four FEN fields, optional id); "
                                                "position_id = index")->required();
  app.add_option("--depth", depth, "fixed search depth per position (fresh state per position)")
      ->required()->check(CLI::Range(1, 64));
  app.add_option("--out", out_path, "the record file (.fhr)")->required();
  app.add_option("--seed", seed, "sampling seed (printed and written to the file header)")->capture_default_str();
  app.add_option("--full-depth", full_depth, "nodes at depth d < K are logged with probability 2^-(K-d)")
      ->check(CLI::Range(1, 16))->capture_default_str();
  app.add_option("--shard", shard_text, "this run takes positions i with i % N == K-1; each shard writes its own file")
      ->check(shard_check());
  app.add_option("--predictor", predictor, "the search runs with the predictor on or off (off: the engine's default)")
      ->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  app.add_option("--model", model_path, "model used for the search and the records' prediction field (default built-in)");
  app.add_option("--hash", hash, "hash size in MB")->check(CLI::Range(std::size_t(1), std::size_t(4096)))->capture_default_str();
  app.add_option("--limit", limit, "search at most N positions (0: all)")->check(CLI::Range(0LL, 1LL << 30));
  app.add_option("--config", config, "report name")->capture_default_str();
  app.add_option("--out-dir", out_dir, "reports folder")->capture_default_str();
  auto declare = [](const std::string& dir, const std::string& cfg) {
    declare_report(report::junit_path(dir, "fhcollect", cfg), "fhcollect." + cfg);
  };
  auto declare_given = [&] { declare(given_value(app, "--out-dir", "reports"), given_value(app, "--config", "default")); };
  if (auto status = parse_cli_or_report(app, argc, argv, declare_given)) return *status;
  try {
    const report::ReportPaths paths = report::report_paths(out_dir, "fhcollect", config);
    declare(out_dir, config);
    const Shard shard = parse_shard(shard_text);
    const std::unique_ptr<fh::Model> model = fhcollect::model_option(model_path);
    const auto positions = fhcollect::read_position_list(positions_path);
    std::cout << fmt::format("fhcollect: {} positions from {}, depth {}, full-depth {}, seed {}, shard {}, predictor {}\n",
                             positions.size(), positions_path, depth, full_depth, seed, shard.label(), predictor);

    fhcollect::SegmentHeader header;
    header.search_depth = depth;
    header.full_depth = full_depth;
    header.seed = seed;
    header.shard_index = shard.index - 1;
    header.shard_count = shard.count;
    fhcollect::RecordWriter writer(out_path, header);
    const auto t0 = std::chrono::steady_clock::now();
    Collected got = predictor == "on"
                        ? collect<true>(positions, shard, limit, hash, model.get(), seed, full_depth, depth, writer)
                        : collect<false>(positions, shard, limit, hash, model.get(), seed, full_depth, depth, writer);
    const std::uint64_t nodes = got.nodes;
    const int searched = got.searched;
    writer.close();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Read the file back with the C++ reader and check what a record file promises.
    const auto records = fhcollect::read_records(out_path);
    const fh::Model& m = model ? *model : fh::Model::builtin();
    std::map<std::string, std::pair<long, long>> by_kind;  // kind -> (records, fail highs)
    long mispredicted = 0, mate_window = 0;
    for (const Record& r : records) {
      auto& [n, k] = by_kind[fmt::format("{}.{}", r.in.side == fh::kAlpha ? "alpha" : "beta",
                                         r.in.whole_node ? "node" : "move")];
      ++n;
      k += r.label;
      mispredicted += m.predict(r.in) != r.prediction;
      mate_window += std::abs(r.static_eval) >= search::kValueMateInMaxPly;
    }
    std::cout << fmt::format("{} records from {} positions, {} nodes, {:.1f} s; logged {} of {} gate nodes\n",
                             records.size(), searched, nodes, secs, got.nodes_logged, got.nodes_seen);
    for (auto& [kind, nk] : by_kind)
      std::cout << fmt::format("  {:<11} {:>9} records, fail-high rate {:.4f}\n", kind, nk.first,
                               nk.first ? double(nk.second) / double(nk.first) : 0.0);

    report::RunReport collected{"fhcollect", config};
    junit::TestSuite& suite = collected.suites.emplace_back();
    suite.name = "fhcollect." + config;
    for (auto& [k, v] : given_options(app)) suite.property("input." + k, v);
    suite.property("seed", std::to_string(seed));
    junit::add_build_properties(suite);
    auto add = [&](const std::string& name, bool ok, const std::string& message) {
      junit::TestCase tc;
      tc.classname = "fhcollect." + config;
      tc.name = name;
      if (!ok) tc.outcome = junit::Outcome::Failed, tc.message = message;
      tc.system_out = message;
      suite.cases.push_back(tc);
      if (!ok) std::cerr << "fhcollect: " << name << ": " << message << "\n";
    };
    add("records written and read back", records.size() == writer.count() && !records.empty(),
        fmt::format("{} written, {} read back", writer.count(), records.size()));
    add("recorded prediction equals the model's", mispredicted == 0,
        fmt::format("{} of {} records disagree", mispredicted, records.size()));
    add("mate window excluded", mate_window == 0, fmt::format("{} records with a mate-range eval", mate_window));
    add("both sides populated", by_kind.count("alpha.move") && by_kind.count("beta.node"),
        fmt::format("{} record kinds", by_kind.size()));
    suite.time_s = secs;

    report::Json kinds = report::Json::object();
    std::string table = "| kind | records | fail-high rate |\n|---|---|---|\n";
    for (auto& [kind, nk] : by_kind) {
      const double rate = nk.first ? double(nk.second) / double(nk.first) : 0.0;
      kinds[kind] = {{"records", nk.first}, {"fail_highs", nk.second}, {"fail_high_rate", rate}};
      table += fmt::format("| {} | {} | {:.4f} |\n", kind, nk.first, rate);
    }
    collected.figures["records_file"] = out_path;
    collected.figures["records"] = records.size();
    collected.figures["positions_searched"] = searched;
    collected.figures["nodes"] = nodes;
    collected.figures["gate_nodes_seen"] = got.nodes_seen;
    collected.figures["gate_nodes_logged"] = got.nodes_logged;
    collected.figures["depth"] = depth;
    collected.figures["full_depth"] = full_depth;
    collected.figures["seed"] = seed;
    collected.figures["shard"] = shard.label();
    collected.figures["predictor"] = predictor;
    collected.figures["by_kind"] = std::move(kinds);
    collected.figures["mispredicted"] = mispredicted;
    collected.figures["mate_window"] = mate_window;
    collected.markdown = fmt::format("{} records from {} positions ({}), depth {}, full-depth {}, seed {}, shard {}, "
                                     "predictor {}\n\n", records.size(), searched, positions_path, depth, full_depth,
                                     seed, shard.label(), predictor) + table;
    report::write_run_report(collected, paths);
    std::cout << "records: " << out_path << "\nreport: " << paths.junit << "\n";
    return collected.passed() ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness fhcollect", app.help().c_str());
  }
}

}  // namespace stk::harness
