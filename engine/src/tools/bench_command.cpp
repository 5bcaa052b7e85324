#include <cstdlib>
#include <iostream>

#include "bench.h"
#include "tools/commands.h"

namespace stk::tools {

// stk bench [depth]: prints the node-count signature and the speed.
int bench_command(int argc, char** argv) {
  int depth = kBenchDefaultDepth;
  if (argc > 2) {
    std::cerr << "usage: stk bench [depth]\n";
    return 2;
  }
  if (argc == 2) {
    char* end = nullptr;
    long d = std::strtol(argv[1], &end, 10);
    if (*end || d < 1 || d > 64) {
      std::cerr << "stk bench: depth must be an integer 1..64, got '" << argv[1] << "'\n";
      return 2;
    }
    depth = int(d);
  }
  BenchResult r = run_bench(depth);
  std::cerr << "Positions      : " << bench_positions().size() << "\nDepth          : " << depth
            << "\nTotal time (ms): " << std::uint64_t(r.time_s * 1000) << "\n";
  std::cout << "Nodes searched : " << r.nodes
            << "\nNodes/second   : " << std::uint64_t(r.time_s > 0 ? double(r.nodes) / r.time_s : 0)
            << std::endl;
  return 0;
}

}  // namespace stk::tools
