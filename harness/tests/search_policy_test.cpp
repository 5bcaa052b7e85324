// The search policy's two interfaces (search/policy.h) are concepts: every policy the harness
// runs satisfies both, and a policy that misspells a hook it means to write is rejected at
// compile time (Worker<P> static_asserts the same concepts).
#include <catch2/catch.hpp>

#include "commands/shadow/shadow_audit.h"
#include "fail_high/collect_policy.h"
#include "search/worker.h"

using namespace stk;

namespace {

// Means to observe pruning decisions, but writes `on_prunned`: the real `on_pruned` stays in
// the private empty base, out of reach.
struct MisspeltObserver : private search::NoObserver, search::NoShadowControl {
  using NoObserver::on_node, NoObserver::on_reduced_fail_low, NoObserver::on_node_cutoff,
      NoObserver::on_full_fail_low, NoObserver::on_node_fail_high, NoObserver::kCollectFh,
      NoObserver::fh_begin_node, NoObserver::fh_record;
  static constexpr bool kEnabled = true;
  static constexpr bool kPredictor = false;
  int pruned = 0;
  template <class W, class S, class P, class E, class M>
  void on_prunned(W&, S, search::Mechanism, P&, E*, M, const search::DecisionContext&, int, bool) {
    ++pruned;
  }
};

// The same policy spelt right.
struct PruneCounter : private search::NoObserver, search::NoShadowControl {
  using NoObserver::on_node, NoObserver::on_reduced_fail_low, NoObserver::on_node_cutoff,
      NoObserver::on_full_fail_low, NoObserver::on_node_fail_high, NoObserver::kCollectFh,
      NoObserver::fh_begin_node, NoObserver::fh_record;
  static constexpr bool kEnabled = true;
  static constexpr bool kPredictor = false;
  int pruned = 0;
  template <class W, class S, class P, class E, class M>
  void on_pruned(W&, S, search::Mechanism, P&, E*, M, const search::DecisionContext&, int, bool) {
    ++pruned;
  }
};

// Shadow control with a misspelt guard (`shadow_skip_irr`): the real one is missing.
struct MisspeltShadowControl : search::NoObserver {
  static constexpr bool kEnabled = true;
  static constexpr bool kPredictor = false;
  template <class W, class E>
  void on_search_begin(W&, search::JudgedSearch, E*, int) {}
  template <class W, class E>
  void on_search_end(W&, search::JudgedSearch, E*) {}
  template <class W, class P, class E, class M>
  void on_quiet_stats(W&, const P&, E*, M, const M*, int) {}
  template <class E>
  void on_killers_reset(E*) {}
  template <class E>
  void on_search_entry(E*, int) {}
  bool in_shadow() const { return false; }
  void shadow_fabricated() {}
  bool shadow_skip_node_cutoffs(int) const { return false; }
  bool shadow_skip_irr(int) const { return false; }
  bool shadow_skip_mate_distance() const { return false; }
  template <class T>
  T& table(T& real) {
    return real;
  }
};

static_assert(search::SearchPolicy<search::NoPolicy>);
static_assert(search::SearchPolicy<search::PredictorPolicy>);
static_assert(search::SearchPolicy<harness::shadow::ShadowPolicy<harness::shadow::Variant{}>>);
static_assert(search::SearchPolicy<harness::fhcollect::CollectPolicy>);
static_assert(search::SearchPolicy<PruneCounter>);

static_assert(!search::ObserverPolicy<MisspeltObserver>);
static_assert(search::ShadowControlPolicy<MisspeltObserver>);
static_assert(!search::SearchPolicy<MisspeltObserver>);
static_assert(search::ObserverPolicy<MisspeltShadowControl>);
static_assert(!search::ShadowControlPolicy<MisspeltShadowControl>);

}  // namespace

TEST_CASE(
    "search policy: a policy's hooks are called, and a misspelt hook is rejected at compile time",
    "[search][policy]") {
  // The static_asserts above are the test proper; this checks the spelt-right policy is called.
  Position pos;
  pos.set("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  search::FreshSearch fresh(4);
  PruneCounter counter;
  search::NoPolicy none;
  Position copy = pos;
  const search::Result observed = fresh.run(pos, counter, 7, 0);
  search::FreshSearch plain(4);
  const search::Result normal = plain.run(copy, none, 7, 0);
  CHECK(counter.pruned > 0);
  CHECK(observed.nodes == normal.nodes);  // observing changes nothing
  CHECK(observed.best == normal.best);
}
