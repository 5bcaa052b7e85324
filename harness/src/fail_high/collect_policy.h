// The collection build of the search: a compile-time policy (search/policy.h, kCollectFh) that
// logs the gate-1 population to a record file with depth-aware sampling. The normal build never
// instantiates it.
#pragma once

#include <cstdint>

#include "common/splitmix.h"
#include "fail_high/record_file.h"
#include "position.h"
#include "search/policy.h"

namespace stk::harness::fhcollect {

// `Predictor`: the search being collected runs with the predictor's decisions (fhcollect
// --predictor on), as the engine does with FHPredictor on.
// The fail-high collection hooks of the observer; its decision hooks empty, no shadow control.
template <bool Predictor>
struct CollectPolicyT : private search::NoObserver, search::NoShadowControl {
  using NoObserver::on_node, NoObserver::on_reduced_fail_low, NoObserver::on_pruned,
      NoObserver::on_node_cutoff, NoObserver::on_full_fail_low, NoObserver::on_node_fail_high;
  static constexpr bool kEnabled = false;
  static constexpr bool kCollectFh = true;
  static constexpr bool kPredictor = Predictor;

  RecordWriter* writer = nullptr;
  std::uint32_t position_id = 0;
  int full_depth = 6;  // K: nodes at depth d < K are kept with probability 2^-(K-d)
  SplitMix rng;
  std::uint32_t next_node = 0;
  std::uint64_t nodes_seen = 0, nodes_logged = 0;

  // Per position: the sampling stream depends only on the seed and the position, so a shard
  // reproduces its positions' records whatever else runs.
  void start_position(std::uint32_t id, std::uint32_t seed) {
    position_id = id;
    rng = SplitMix((std::uint64_t(seed) << 32 | id) * 0x9E3779B97F4A7C15ull +
                   0x632BE59BD9B4E019ull);
    next_node = 0;
  }
  static int weight_at(int depth, int full_depth) {
    return depth >= full_depth ? 1 : 1 << (full_depth - depth);
  }

  long fh_begin_node(int depth) {
    ++nodes_seen;
    const int w = weight_at(depth, full_depth);
    if (w > 1 && rng.below(std::size_t(w)) != 0) return -1;
    ++nodes_logged;
    return long(next_node++);
  }

  template <class P, class M, class I>
  void fh_record(const P& pos, long node_id, M, const I& in, bool label, int prediction, int ply,
                 int static_eval) {
    Record r;
    r.position_id = position_id;
    r.node_id = std::uint32_t(node_id);
    r.in = in;
    r.label = label;
    r.black = pos.side_to_move() == BLACK;
    r.ply = ply;
    r.prediction = prediction;
    r.weight = weight_at(in.depth, full_depth);
    r.static_eval = static_eval;
    writer->write(r);
  }
};

using CollectPolicy = CollectPolicyT<false>;

}  // namespace stk::harness::fhcollect
