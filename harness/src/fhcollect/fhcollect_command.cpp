// stk-harness fhcollect: the fail-high predictor's collection run (records of the gate-1
// population, harness/docs/fail-high-predictor.md), and stk-harness fhdump: the C++ reader,
// printing records as JSON lines (the Python reader, stkref.fhrecords, prints the same).
#include <chrono>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "commands.h"
#include "common/cli.h"
#include "fhcollect/collect_policy.h"
#include "fhcollect/position_list.h"
#include "fhcollect/record_file.h"
#include "report/junit.h"
#include "report/summary_files.h"
#include "search/worker.h"

namespace stk::harness {

namespace {

constexpr const char* kCollectUsage =
    "usage: stk-harness fhcollect --positions FILE --depth D --out FILE.fhr [--seed S] [--full-depth K]\n"
    "                             [--shard K/N] [--predictor on|off] [--model FILE] [--hash MB]\n"
    "                             [--limit N] [--config NAME] [--out-dir DIR]\n"
    "  --positions FILE   one position per line (EPD: four FEN fields, optional id); position_id = index\n"
    "  --depth D          fixed search depth per position (fresh state per position)\n"
    "  --full-depth K     nodes at depth d < K are logged with probability 2^-(K-d) (default 6)\n"
    "  --seed S           sampling seed (default 1; printed and written to the file header)\n"
    "  --predictor on|off the search runs with the predictor on or off (default off: the engine's default)\n"
    "  --model FILE       model used for the search and the records' prediction field (default built-in)\n"
    "  --shard K/N        this run takes positions i with i % N == K-1; each shard writes its own file\n";

constexpr const char* kDumpUsage =
    "usage: stk-harness fhdump FILE.fhr [--model FILE]\n"
    "  prints one JSON object per record (byte offset, fields, the 18 features; with --model the\n"
    "  model's prediction recomputed in C++)\n";

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

// --model FILE: a loaded model, or null (the built-in one). A bad file is an input error.
std::unique_ptr<fh::Model> model_option(const Args& args) {
  if (!args.has("model")) return nullptr;
  try {
    return std::make_unique<fh::Model>(fh::Model::load_file(args.get("model")));
  } catch (const fh::ModelError& e) {
    throw InputError(e.what());
  }
}

}  // namespace

int run_fhcollect(int argc, char** argv) {
  try {
    Args args(argc, argv,
              {"positions", "depth", "out", "seed", "full-depth", "shard", "predictor", "model", "hash", "limit",
               "config", "out-dir"},
              {"help"});
    if (args.has("help")) return std::cout << kCollectUsage, 0;
    const std::string config = args.get("config", "default"), out_dir = args.get("out-dir", "reports");
    const std::string junit_path = out_dir + "/junit/fhcollect-" + config + ".xml";
    declare_report(junit_path, "fhcollect." + config);
    if (!args.has("positions") || !args.has("depth") || !args.has("out"))
      throw UsageError("--positions, --depth and --out are required");
    const std::string positions_path = args.get("positions"), out_path = args.get("out");
    const int depth = int(args.get_int("depth", 0, 1, 64));
    const int full_depth = int(args.get_int("full-depth", 6, 1, 16));
    const auto seed = std::uint32_t(args.get_int("seed", 1, 0, 0xFFFFFFFFll));
    const std::size_t hash = std::size_t(args.get_int("hash", 16, 1, 4096));
    const long long limit = args.get_int("limit", 0, 0, 1 << 30);
    const std::string predictor = args.get("predictor", "off");
    if (predictor != "on" && predictor != "off") throw UsageError("--predictor must be on or off");
    const Shard shard = args.has("shard") ? parse_shard(args.get("shard")) : Shard{};
    const std::unique_ptr<fh::Model> model = model_option(args);
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

    junit::TestSuite suite;
    suite.name = "fhcollect." + config;
    for (auto& [k, v] : args.echo()) suite.property("input." + k, v);
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
    std::string err;
    if (!junit::write_report(junit_path, {suite}, &err)) throw InputError(err);
    std::cout << "records: " << out_path << "\nreport: " << junit_path << "\n";
    return suite.all_passed() ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness fhcollect", kCollectUsage);
  }
}

int run_fhdump(int argc, char** argv) {
  try {
    Args args(argc, argv, {"model"}, {"help"});
    if (args.has("help")) return std::cout << kDumpUsage, 0;
    if (args.positional().size() != 1) throw UsageError("expected one record file");
    const std::unique_ptr<fh::Model> model = model_option(args);
    for (const Record& r : fhcollect::read_records(args.positional()[0])) {
      std::int32_t f[fh::kFeatureCount];
      fh::features(r.in, f);
      std::string feats;
      for (int i = 0; i < fh::kFeatureCount; ++i) feats += (i ? ", " : "") + std::to_string(f[i]);
      std::string line = fmt::format(
          "{{\"offset\": {}, \"position_id\": {}, \"node_id\": {}, \"side\": {}, \"whole_node\": {}, \"label\": {}, "
          "\"improving\": {}, \"opp_improving\": {}, \"cut_node\": {}, \"black\": {}, \"depth\": {}, \"ply\": {}, "
          "\"gap\": {}, \"tier\": {}, \"ordinal\": {}, \"legal\": {}, \"good_captures\": {}, \"move_value\": {}, "
          "\"fh_cuts\": {}, \"fh_tries\": {}, \"phase\": {}, \"prediction\": {}, \"weight\": {}, \"static_eval\": {}, "
          "\"features\": [{}]",
          r.offset, r.position_id, r.node_id, int(r.in.side), int(r.in.whole_node), int(r.label), int(r.in.improving),
          int(r.in.opp_improving), int(r.in.cut_node), int(r.black), r.in.depth, r.ply, r.in.gap, int(r.in.tier),
          r.in.ordinal, r.in.legal, r.in.good_captures, r.in.move_value, r.in.fh_cuts, r.in.fh_tries, r.in.phase,
          r.prediction, r.weight, r.static_eval, feats);
      if (model) line += fmt::format(", \"model_prediction\": {}", model->predict(r.in));
      std::cout << line << "}\n";
    }
    return 0;
  } catch (...) {
    return input_failure("stk-harness fhdump", kDumpUsage);
  }
}

}  // namespace stk::harness
