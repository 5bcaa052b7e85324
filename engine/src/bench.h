// The bench: a fixed search over fixed positions from a cleared state. Its node count is the
// search signature: any change to search or evaluation behaviour changes it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace stk {

namespace nnue {
class Network;
}

constexpr int kBenchDefaultDepth = 13;

struct BenchResult {
  std::uint64_t nodes = 0;
  double time_s = 0;
  std::vector<std::uint64_t> nodes_per_position;
};

const std::vector<std::string>& bench_positions();
// Searches every bench position to `depth` with a fresh 16 MB hash and cleared histories,
// evaluating with `net` (null: the classical evaluation, the signature's).
BenchResult run_bench(int depth, std::shared_ptr<const nnue::Network> net = nullptr);

// The search of bench position `index` (0-based) exactly as run_bench searches it (fresh 16 MB
// hash, cleared histories, classical evaluation), with the search trace (search/trace.h) written
// to `out`, one line per record. Returns the node count, equal to run_bench's for that position.
// stk-harness bench-diff compares two builds' traces (docs/harnesses/bench-diff.md).
std::uint64_t run_bench_trace(int depth, std::size_t index, std::FILE* out);

}  // namespace stk
