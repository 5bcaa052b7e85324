// stk-harness bench-diff BASE CANDIDATE: where two builds' bench searches part. The per-position
// node counts of both benches (`stk bench D --positions`), then the search traces of the first
// position whose count differs (`stk bench D --trace N`, engine/src/search/trace.h) compared record
// by record as the two engines write them (trace_diff.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/bench-diff/trace_diff.h"

namespace stk::harness::bench_diff {

struct BenchCounts {
  std::uint64_t nodes = 0;                  // "Nodes searched"
  std::vector<std::uint64_t> per_position;  // "Position N : nodes", N = 1, 2, ...
};

// Parses `stk bench D --positions` output; nullopt when the "Nodes searched" line or the
// per-position lines are missing or out of order, or when they do not add up.
std::optional<BenchCounts> parse_bench_counts(const std::string& output);

// The first position (1-based) whose counts differ, or 0 when every one is equal (counts of
// different lengths differ at the first position one of them lacks).
std::size_t first_differing_position(const BenchCounts& base, const BenchCounts& candidate);

// The FEN at the end of `path` from `fen` (UCI moves, 0000 the null move), or "" when a move is
// not legal there.
std::string fen_after(const std::string& fen, const std::vector<PathStep>& path);

// The divergence as the console and the reports show it (several lines).
std::string describe_divergence(const Divergence& d, const std::string& root_fen);

}  // namespace stk::harness::bench_diff
