#include "search_audit/accumulator_audit.h"

#include <stdexcept>

#include "eval/evaluate.h"
#include "nnue/evaluate.h"
#include "search/worker.h"

namespace stk::harness {

namespace {

struct AccumulatorAuditPolicy : search::NoPolicy {
  static constexpr bool kEnabled = true;
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

AccumulatorAuditResult audit_accumulators_in_search(const std::vector<std::string>& fens, int depth,
                                                    std::uint64_t nodes) {
  if (!nnue::network()) throw std::runtime_error("accumulator search audit needs a loaded network");
  AccumulatorAuditResult result;
  AccumulatorAuditPolicy policy;
  policy.out = &result;
  search::TranspositionTable tt;
  tt.resize(16);
  search::Heuristics heuristics;
  eval::Evaluator evaluator;
  evaluator.set_use_nnue(true);
  std::atomic<bool> stop{false};
  for (const std::string& fen : fens) {
    Position pos;
    if (auto err = pos.set(fen, true)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
    tt.clear();
    heuristics.clear();
    search::Budget budget;
    budget.max_depth = depth > 0 ? depth : search::kMaxPly - 1;
    budget.node_limit = nodes;
    search::Worker<AccumulatorAuditPolicy> worker(tt, heuristics, evaluator, policy);
    worker.run(pos, budget, stop, nullptr);
  }
  return result;
}

}  // namespace stk::harness
