#include <cstdio>
#include <iostream>
#include <string_view>

#include "bench.h"
#include "nnue/embedded_net.h"
#include "tools/arguments.h"
#include "tools/commands.h"

namespace stk::tools {

namespace {

int bench_usage() {
  std::cerr << "usage: stk bench [depth] [--positions | --trace N]\n"
               "  --positions  also print each position's node count ('Position N : nodes')\n"
               "  --trace N    search bench position N (1-based) alone and write its search trace\n"
               "               to stdout, one line per record (stk-harness bench-diff)\n";
  return 2;
}

}  // namespace

// stk bench [depth]: prints the node-count signature and the speed. --positions adds the count of
// each position; --trace N writes the search trace of position N (docs/harnesses/bench-diff.md).
int bench_command(int argc, char** argv) {
  int depth = kBenchDefaultDepth;
  bool positions = false, depth_given = false;
  long trace = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--positions" && !positions && !trace) {
      positions = true;
    } else if (arg == "--trace" && !positions && !trace && i + 1 < argc) {
      trace = parse_decimal(argv[++i], 1, long(bench_positions().size()));
      if (trace < 0) {
        std::cerr << "stk bench: --trace takes a position 1.." << bench_positions().size()
                  << ", got '" << argv[i] << "'\n";
        return 2;
      }
    } else if (!depth_given && !arg.empty() && arg[0] != '-') {
      const long d = parse_decimal(argv[i], 1, 64);
      if (d < 0) {
        std::cerr << "stk bench: depth must be an integer 1..64, got '" << argv[i] << "'\n";
        return 2;
      }
      depth = int(d);
      depth_given = true;
    } else {
      return bench_usage();
    }
  }
  if (trace && nnue::has_embedded_network()) {
    // The trace (search/trace.h) follows the classical evaluation: it would not be this build's.
    std::cerr << "stk bench --trace: not in a build with a built-in net (its evaluation is the "
                 "net's; the trace is the classical evaluation's)\n";
    return 2;
  }
  if (trace) {
    static char buffer[1 << 20];
    std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    const std::uint64_t nodes = run_bench_trace(depth, std::size_t(trace - 1), stdout);
    std::fflush(stdout);
    std::cerr << "Position " << trace << " : " << nodes << "\n";
    return std::ferror(stdout) ? 1 : 0;
  }
  // The build's own evaluation: the built-in net in a -nnue build (golden/bench-nnue.txt), else
  // the classical one (golden/bench.txt).
  BenchResult r = run_bench(depth, nnue::embedded_network());
  std::cerr << "Positions      : " << bench_positions().size() << "\nDepth          : " << depth
            << "\nTotal time (ms): " << std::uint64_t(r.time_s * 1000) << "\n";
  if (positions)
    for (std::size_t i = 0; i < r.nodes_per_position.size(); ++i)
      std::cout << "Position " << i + 1 << " : " << r.nodes_per_position[i] << "\n";
  std::cout << "Nodes searched : " << r.nodes
            << "\nNodes/second   : " << std::uint64_t(r.time_s > 0 ? double(r.nodes) / r.time_s : 0)
            << std::endl;
  return 0;
}

}  // namespace stk::tools
