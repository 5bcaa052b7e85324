// stk-harness perft-speed: our perft time as a ratio of a reference engine's "go perft" time,
// measured side by side in one run (alternating, median of --repeat runs). Not a gate: a
// measurement to record, since timings depend on the machine and its load.
#include <algorithm>
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "common/cli.h"
#include "perft.h"
#include "position.h"
#include "uci_client/uci_process.h"

namespace stk::harness {

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int run_perft_speed(int argc, char** argv) {
  try {
    Args args(argc, argv, {"reference", "repeat"}, {"help"});
    if (args.has("help")) {
      std::cout << "usage: stk-harness perft-speed [--reference UCI_ENGINE] [--repeat N]\n";
      return 0;
    }
    std::string ref_path = args.get("reference", "/usr/games/stockfish");
    int repeat = int(args.get_int("repeat", 3, 1, 50));
    UciProcess ref(ref_path);
    struct Case {
      const char* name;
      const char* fen;
      int depth;
    };
    const Case cases[] = {
        {"startpos", Position::kStartFen, 6},
        {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    };
    std::cout << fmt::format("reference: {} ({})\n{:<10} {:>5} {:>12} {:>10} {:>10} {:>8}\n",
                             ref.name(), ref_path, "position", "depth", "nodes", "stk s",
                             "ref s", "ratio");
    double sum_ours = 0, sum_ref = 0;
    for (const Case& c : cases) {
      std::vector<double> ours, theirs;
      std::uint64_t nodes = 0;
      for (int i = 0; i < repeat; ++i) {
        Position pos;
        pos.set(c.fen);
        auto t0 = std::chrono::steady_clock::now();
        nodes = perft(pos, c.depth);
        ours.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        ref.send(std::string("position fen ") + c.fen);
        ref.sync();
        t0 = std::chrono::steady_clock::now();
        ref.send("go perft " + std::to_string(c.depth));
        ref.read_until([](const std::string& l) { return l.rfind("Nodes searched", 0) == 0; },
                       std::chrono::seconds(600));
        theirs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      double a = median(ours), b = median(theirs);
      sum_ours += a, sum_ref += b;
      std::cout << fmt::format("{:<10} {:>5} {:>12} {:>10.3f} {:>10.3f} {:>7.2f}x\n", c.name,
                               c.depth, nodes, a, b, a / b);
    }
    std::cout << fmt::format("total time ratio stk/reference: {:.2f}x (below 1.0 means faster)\n",
                             sum_ours / sum_ref);
    return 0;
  } catch (...) {
    return input_failure("stk-harness perft-speed");
  }
}

}  // namespace stk::harness
