// stk-harness search-speed: our search nodes/s against a reference UCI engine's on the bench
// positions, side by side in one run (both single-threaded, same hash, fixed node budget per
// position). A measurement to record, not a gate.
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "bench.h"
#include "nnue/evaluate.h"
#include "commands.h"
#include "common/cli.h"
#include "position.h"
#include "search/search.h"
#include "uci_client/uci_process.h"

namespace stk::harness {

int run_search_speed(int argc, char** argv) {
  try {
    Args args(argc, argv, {"reference", "nodes", "option", "hash", "net"}, {"help"});
    if (args.has("help")) {
      std::cout << "usage: stk-harness search-speed [--reference ENGINE] [--nodes N] [--hash MB]\n"
                   "       [--option NAME=VALUE]... [--net FILE.nnue]\n"
                   "  Without --net: our classical eval vs the reference with --option 'Use NNUE=false'.\n"
                   "  With --net: our NNUE (that network) vs the reference's default NNUE.\n";
      return 0;
    }
    std::string ref_path = args.get("reference", "/usr/games/stockfish");
    auto nodes = std::uint64_t(args.get_int("nodes", 1000000, 1000, 1LL << 40));
    int hash = int(args.get_int("hash", 16, 1, 4096));
    auto options = args.all("option");
    const bool nnue = args.has("net");
    if (options.empty() && !nnue) options.push_back("Use NNUE=false");
    if (nnue) {
      std::string error;
      if (!nnue::load_network(args.get("net"), false, &error)) throw InputError(error);
    }
    UciProcess ref(ref_path);
    ref.set_option("Threads", "1");
    ref.set_option("Hash", std::to_string(hash));
    for (const auto& o : options) {
      auto eq = o.find('=');
      if (eq == std::string::npos) throw UsageError("--option must be NAME=VALUE, got '" + o + "'");
      ref.set_option(o.substr(0, eq), o.substr(eq + 1));
    }
    search::Options so;
    so.hash_mb = std::size_t(hash);
    so.use_nnue = nnue;
    search::Searcher ours(so);
    double our_time = 0, ref_time = 0;
    std::uint64_t our_nodes = 0, ref_nodes = 0;
    for (const std::string& fen : bench_positions()) {
      Position pos;
      pos.set(fen);
      ours.clear();
      search::Limits l;
      l.nodes = nodes;
      auto r = ours.go(pos, l);
      our_time += r.time_s;
      our_nodes += r.nodes;

      ref.send("ucinewgame");
      ref.send("position fen " + fen);
      ref.sync();
      auto t0 = std::chrono::steady_clock::now();
      ref.send("go nodes " + std::to_string(nodes));
      std::uint64_t searched = 0;
      for (const auto& line : ref.read_until([](const std::string& s) { return s.rfind("bestmove", 0) == 0; },
                                             std::chrono::seconds(600))) {
        auto p = line.find(" nodes ");
        if (line.rfind("info", 0) == 0 && p != std::string::npos) searched = std::stoull(line.substr(p + 7));
      }
      ref_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ref_nodes += searched;
    }
    double a = our_nodes / our_time, b = ref_nodes / ref_time;
    std::cout << fmt::format("reference: {} ({}), options: {}\nstk evaluation: {}\n", ref.name(), ref_path,
                             options.empty() ? "defaults" : fmt::format("{}", fmt::join(options, ", ")),
                             nnue ? "NNUE " + args.get("net") : std::string("classical"));
    std::cout << fmt::format("{:<10} {:>12} {:>9} {:>12}\n", "engine", "nodes", "time s", "nodes/s");
    std::cout << fmt::format("{:<10} {:>12} {:>9.2f} {:>12.0f}\n", "stk", our_nodes, our_time, a);
    std::cout << fmt::format("{:<10} {:>12} {:>9.2f} {:>12.0f}\n", "reference", ref_nodes, ref_time, b);
    std::cout << fmt::format("speed ratio stk/reference (nodes/s): {:.2f}x (above 1.0 means faster)\n", a / b);
    return 0;
  } catch (...) {
    return input_failure("stk-harness search-speed");
  }
}

}  // namespace stk::harness
