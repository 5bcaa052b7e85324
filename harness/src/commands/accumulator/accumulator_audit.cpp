#include "commands/accumulator/accumulator_audit.h"

#include <stdexcept>

#include "eval/evaluate.h"
#include "nnue/network.h"
#include "search/worker.h"

namespace stk::harness {

namespace {

// Observes every node; the other observer hooks empty, no shadow control.
struct AccumulatorAuditPolicy : private search::NoObserver, search::NoShadowControl {
  using NoObserver::on_reduced_fail_low, NoObserver::on_pruned, NoObserver::on_node_cutoff,
      NoObserver::on_full_fail_low, NoObserver::on_node_fail_high, NoObserver::kCollectFh,
      NoObserver::fh_begin_node, NoObserver::fh_record;
  static constexpr bool kEnabled = true;
  static constexpr bool kPredictor = false;
  AccumulatorAuditResult* out = nullptr;

  template <class W, class P>
  void on_node(W& worker, P& pos) {
    // Evaluating brings the lazy stack's top entry up to date; it changes no search decision.
    worker.evaluator().evaluate(pos);
    ++out->nodes_checked;
    std::string why;
    if (!nnue::accumulator_matches_recompute(worker.evaluator().accumulators(), pos, &why)) {
      if (out->mismatches++ == 0) out->first_mismatch = pos.fen() + ": " + why;
    }
  }
};

}  // namespace

AccumulatorAuditResult audit_accumulators_in_search(const std::shared_ptr<const nnue::Network>& net,
                                                    const std::vector<std::string>& fens, int depth,
                                                    std::uint64_t nodes) {
  if (!net) throw std::runtime_error("accumulator search audit needs a network");
  AccumulatorAuditResult result;
  AccumulatorAuditPolicy policy;
  policy.out = &result;
  for (const std::string& fen : fens) {
    Position pos;
    if (auto err = pos.set(fen, true)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
    search::FreshSearch fresh(16, net);
    fresh.run(pos, policy, depth, nodes);
  }
  return result;
}

}  // namespace stk::harness
