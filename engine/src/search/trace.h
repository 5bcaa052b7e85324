// The search trace (stk-harness bench-diff, docs/harnesses/bench-diff.md): a search policy that
// writes every TraceRecord of search/policy.h as one line of text, in the order the search meets
// them. Two builds whose searches agree write the same lines; the first line where their streams
// differ is the first place their searches part. Only `stk bench --trace` instantiates it: the
// engine's own search (Worker<NoPolicy>) compiles none of the trace calls.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "position.h"
#include "search/policy.h"

namespace stk::search {

// One record's line, without the newline: "<ply> <event> <fields>", e.g.
//   "3 node depth=7 window=[-20,-19] cut key=1f2e3d4c5b6a7988"
//   "3 move g1f3 n=4 lmr-table=2 lmr-depth=4 check=0"
// The event names and fields: docs/harnesses/bench-diff.md ("The trace").
std::string format_trace_record(const TraceRecord& r);

// The policy: the engine's search as it is (both audit interfaces empty), each record written to
// `out` as a line.
class TraceWriter : public NoPolicy {
 public:
  static constexpr bool kTrace = true;
  explicit TraceWriter(std::FILE* out) : out_(out) {}
  void trace(const TraceRecord& r);
  std::uint64_t records() const { return records_; }
  std::uint64_t nodes() const { return nodes_; }  // node and qnode records

 private:
  std::FILE* out_;
  std::uint64_t records_ = 0, nodes_ = 0;
};

struct TraceSearchResult {
  std::uint64_t nodes = 0;
  std::uint64_t records = 0;
};

// Searches `pos` to `depth` from fresh state (a `hash_mb` table, cleared histories, classical
// evaluation): what the bench does for each of its positions, so the node count equals the
// bench's for that position. Every record goes to `out` as a line.
TraceSearchResult trace_search(Position& pos, int depth, std::size_t hash_mb, std::FILE* out);

}  // namespace stk::search
