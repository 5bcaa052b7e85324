// In-search accumulator audit: a search whose compile-time policy compares, at every node, the
// live incremental NNUE accumulators with a full recompute. The normal build's policy is empty.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stk::nnue {
class Network;
}

namespace stk::harness {

struct AccumulatorAuditResult {
  std::uint64_t nodes_checked = 0;
  std::uint64_t mismatches = 0;
  std::string first_mismatch;  // FEN and the first differing lane, when any
};

// Searches each position (fresh state per position) to `depth`, or `nodes` when nonzero, with
// the network `net` and the audit policy. Throws if `net` is null.
AccumulatorAuditResult audit_accumulators_in_search(const std::shared_ptr<const nnue::Network>& net,
                                                    const std::vector<std::string>& fens, int depth,
                                                    std::uint64_t nodes);

}  // namespace stk::harness
