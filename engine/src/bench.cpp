#include "bench.h"

#include "nnue/network.h"
#include "position.h"
#include "search/search.h"
#include "search/trace.h"

namespace stk {

const std::vector<std::string>& bench_positions() {
  // Openings, middlegames, endgames and a few tactical shots; legal, varied, fixed forever
  // (changing this list changes the signature).
  static const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
      "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
      "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
      "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
      "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
      "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
      "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
      "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
      "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
      "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R w KQ - 2 8",
      "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
      "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
      "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
      "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
      "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
      "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
      "6k1/1R6/8/8/8/8/5q2/K7 b - - 0 1",  // mate in one for black
      "2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
  };
  return fens;
}

namespace {
constexpr std::size_t kBenchHashMb = 16;
}  // namespace

BenchResult run_bench(int depth, std::shared_ptr<const nnue::Network> net) {
  BenchResult r;
  search::Options opts;
  opts.hash_mb = kBenchHashMb;
  opts.use_nnue = net != nullptr;
  opts.network = std::move(net);
  search::Searcher searcher(opts);
  search::Limits limits;
  limits.depth = depth;
  for (const std::string& fen : bench_positions()) {
    Position pos;
    pos.set(fen);
    searcher.clear();
    search::Result res = searcher.go(pos, limits);
    r.nodes += res.nodes;
    r.time_s += res.time_s;
    r.nodes_per_position.push_back(res.nodes);
  }
  return r;
}

std::uint64_t run_bench_trace(int depth, std::size_t index, std::FILE* out) {
  Position pos;
  pos.set(bench_positions().at(index));
  return search::trace_search(pos, depth, kBenchHashMb, out).nodes;
}

}  // namespace stk
