// stk-harness bench: the search signature. The node count of the fixed bench (engine/src/bench.cpp)
// must equal golden/bench.txt; a deliberate change is recorded with --update-golden, which
// prints the old and new values (CI never passes it).
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "bench.h"
#include "commands.h"
#include "common/cli.h"
#include "report/junit.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness bench [--golden FILE] [--depth N] [--update-golden] [--config NAME] [--out-dir DIR]\n"
    "  --golden FILE    signature file (default golden/bench.txt: 'depth D' and 'nodes N' lines)\n"
    "  --depth N        bench depth (default: the golden file's depth)\n";

struct Signature {
  int depth = 0;
  std::uint64_t nodes = 0;
};

Signature read_signature(const std::string& path) {
  Signature s;
  auto lines = read_lines(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::istringstream in(lines[i]);
    std::string key;
    if (!(in >> key) || key[0] == '#') continue;
    long long v = -1;
    std::string extra;
    if (!(in >> v) || v < 0 || (in >> extra) || (key != "depth" && key != "nodes"))
      throw InputError(path + ":" + std::to_string(i + 1) + ": expected 'depth N' or 'nodes N', got '" +
                       lines[i] + "'");
    if (key == "depth") s.depth = int(v);
    else s.nodes = std::uint64_t(v);
  }
  if (s.depth <= 0 || s.nodes == 0) throw InputError(path + ": needs both 'depth N' and 'nodes N' lines");
  return s;
}

}  // namespace

int run_bench_harness(int argc, char** argv) {
  try {
    Args args(argc, argv, {"golden", "depth", "config", "out-dir"}, {"help", "update-golden"});
    if (args.has("help")) return std::cout << kUsage, 0;
    std::string golden = args.get("golden", "golden/bench.txt");
    std::string config = args.get("config", "default");
    std::string out_dir = args.get("out-dir", "reports");
    std::string junit_path = out_dir + "/junit/bench-" + config + ".xml";
    bool update = args.has("update-golden");
    if (!update) declare_report(junit_path, "bench." + config);  // --update-golden writes no report
    Signature expected;
    if (!update || std::ifstream(golden)) expected = read_signature(golden);
    int depth = int(args.get_int("depth", expected.depth ? expected.depth : kBenchDefaultDepth, 1, 64));

    BenchResult r = run_bench(depth);
    double nps = r.time_s > 0 ? double(r.nodes) / r.time_s : 0;
    std::cout << fmt::format("bench depth {}: {} nodes, {:.0f} nodes/s\n", depth, r.nodes, nps);

    if (update) {
      if (expected.nodes == r.nodes && expected.depth == depth) {
        std::cout << golden << ": unchanged\n";
      } else {
        write_text_file(golden, fmt::format("# stk bench signature: total nodes of `stk bench {}` (engine/src/bench.cpp)\n"
                                            "depth {}\nnodes {}\n", depth, depth, r.nodes));
        std::cout << fmt::format("{}: updated\n- depth {}\n- nodes {}\n+ depth {}\n+ nodes {}\n", golden,
                                 expected.depth, expected.nodes, depth, r.nodes);
      }
      return 0;
    }

    junit::TestSuite suite;
    suite.name = "bench." + config;
    for (auto& [k, v] : args.echo()) suite.property("input." + k, v);
    suite.property("golden_file", golden);
    suite.property("depth", std::to_string(depth));
    junit::add_build_properties(suite);
    junit::TestCase tc;
    tc.classname = "bench.signature";
    tc.name = fmt::format("bench depth {}", depth);
    tc.time_s = r.time_s;
    tc.facts = {{"expected_nodes", std::to_string(expected.nodes)},
                {"actual_nodes", std::to_string(r.nodes)},
                {"nodes_per_second", fmt::format("{:.0f}", nps)}};
    bool ok = depth == expected.depth && r.nodes == expected.nodes;
    if (!ok) {
      tc.outcome = junit::Outcome::Failed;
      tc.message = depth != expected.depth
                       ? fmt::format("golden signature is for depth {}, ran depth {}", expected.depth, depth)
                       : fmt::format("bench signature changed: expected {} nodes, got {}", expected.nodes, r.nodes);
      tc.detail = tc.message +
                  "\nA search or evaluation change alters the signature. If the change is deliberate, run\n"
                  "  stk-harness bench --update-golden\nand commit golden/bench.txt saying why.";
      std::cerr << "bench: " << tc.message << "\n";
    }
    std::string per_position;
    for (std::size_t i = 0; i < r.nodes_per_position.size(); ++i)
      per_position += fmt::format("position {:2}: {}\n", i + 1, r.nodes_per_position[i]);
    tc.system_out = per_position;
    suite.cases.push_back(tc);
    suite.time_s = r.time_s;
    std::string err;
    if (!junit::write_report(junit_path, {suite}, &err)) throw InputError(err);
    write_text_file(out_dir + "/bench/" + config + ".json",
                    fmt::format("{{\n  \"depth\": {},\n  \"expected_nodes\": {},\n  \"nodes\": {},\n  \"passed\": {},\n"
                                "  \"nodes_per_second\": {:.0f}\n}}\n",
                                depth, expected.nodes, r.nodes, ok ? "true" : "false", nps));
    write_text_file(out_dir + "/bench/" + config + ".md",
                    fmt::format("# bench ({})\n\n| depth | expected | actual | result |\n|---|---|---|---|\n"
                                "| {} | {} | {} | {} |\n\n{:.0f} nodes/s\n",
                                config, depth, expected.nodes, r.nodes, ok ? "ok" : "**CHANGED**", nps));
    std::cout << "report: " << junit_path << "\n";
    return ok ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness bench", kUsage);
  }
}

}  // namespace stk::harness
