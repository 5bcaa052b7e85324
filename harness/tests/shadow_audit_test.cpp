// Shadow-search audit: the audit never changes the real search (invariant), it sees every
// mechanism, and its own checks catch planted defects (shadow writes to the real table, leaked
// history, a fabricated-bound null-move bailout left active in the shadow search).
#include <catch2/catch.hpp>

#include "shadow/shadow_audit.h"

using namespace stk;
using namespace stk::harness::shadow;

namespace {

const std::vector<std::string>& fens() {
  static const std::vector<std::string> f = {
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
      "2r3k1/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/2R3K1 w - - 0 20",
      "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",  // back-rank mate in one
  };
  return f;
}

SearchSettings settings(int depth) {
  SearchSettings s;
  s.depth = depth;
  s.hash_mb = 4;
  return s;
}

template <Variant V>
std::string first_invariant_break(int depth, bool against_engine) {
  for (const auto& fen : fens()) {
    PositionAudit on = audit_position<V>(fen, "t", settings(depth), true);
    search::Result ref = against_engine ? plain_search(fen, settings(depth))
                                        : audit_position<V>(fen, "t", settings(depth), false).result;
    std::string diff = compare_results(ref, on.result);
    if (!diff.empty()) return fen + ": " + diff;
  }
  return "";
}

std::uint64_t total(const Counts& c, Mechanism m, std::uint64_t Cell::*field) {
  std::uint64_t n = 0;
  for (const Cell& cell : c.decisions[int(m)]) n += cell.*field;
  return n;
}

}  // namespace

TEST_CASE("shadow audit: real search identical with the audit on and off", "[shadow]") {
  for (const auto& fen : fens()) {
    PositionAudit on = audit_position<Variant{}>(fen, "t", settings(7));
    INFO(fen);
    CHECK(compare_results(plain_search(fen, settings(7)), on.result) == "");
    CHECK(on.shadow_nodes > 0);
  }
}

TEST_CASE("shadow audit: every mechanism is audited and misses are well formed", "[shadow]") {
  Counts all{};
  std::vector<Miss> misses;
  for (const auto& fen : fens()) {
    PositionAudit a = audit_position<Variant{}>(fen, "t", settings(8));
    all.add(a.counts);
    misses.insert(misses.end(), a.misses.begin(), a.misses.end());
  }
  for (Mechanism m : {Mechanism::Lmr, Mechanism::Lmp, Mechanism::Futility, Mechanism::SeePrune,
                      Mechanism::NullMove, Mechanism::StaticNull}) {
    INFO(search::mechanism_name(m));
    CHECK(total(all, m, &Cell::audited) > 0);
    CHECK(total(all, m, &Cell::misses) <= total(all, m, &Cell::audited));
  }
  for (const Miss& x : misses) {
    CHECK(on_miss_side(x, x.shadow_score));
    // The path replays from the root to the deciding node.
    Position pos;
    REQUIRE(!pos.set(x.root_fen, true));
    for (Move p : x.path) p == Move::null() ? pos.make_null() : pos.make_move(p);
    CHECK(pos.fen() == x.fen);
  }
  classify(misses, 2, 2'000'000);
  for (const Miss& x : misses) CHECK(x.verdict != "");
}

TEST_CASE("shadow audit planted defect: shadow search writing the real table breaks the invariant",
          "[shadow][planted]") {
  CHECK(first_invariant_break<Variant{}>(7, true) == "");
  CHECK(first_invariant_break<Variant{.private_table = false}>(7, true) != "");
}

TEST_CASE("shadow audit planted defect: shadow history leaking into the real search breaks the invariant",
          "[shadow][planted]") {
  CHECK(first_invariant_break<Variant{.restore_heuristics = false}>(7, true) != "");
}

TEST_CASE("shadow audit planted defect: a fabricated-bound null-move bailout left active in the shadow "
          "search is caught by the artifact classifier",
          "[shadow][planted]") {
  constexpr Variant kNeutralized{.null_bailout = true, .neutralize_bailout = true};
  constexpr Variant kLeftActive{.null_bailout = true, .neutralize_bailout = false};
  // The shadow search is isolated in both: the invariant holds, so it cannot see this defect.
  CHECK(first_invariant_break<kNeutralized>(7, false) == "");
  CHECK(first_invariant_break<kLeftActive>(7, false) == "");
  auto artifacts = [](auto audit_fn) {
    std::vector<Miss> misses;
    for (const auto& fen : fens()) {
      PositionAudit a = audit_fn(fen);
      misses.insert(misses.end(), a.misses.begin(), a.misses.end());
    }
    classify(misses, 0, 2'000'000);
    return artifact_share(misses, 3);
  };
  ArtifactShare ok = artifacts([](const std::string& f) { return audit_position<kNeutralized>(f, "t", settings(8)); });
  ArtifactShare bad = artifacts([](const std::string& f) { return audit_position<kLeftActive>(f, "t", settings(8)); });
  INFO("neutralized: " << ok.signature << " of " << ok.misses << " misses (depth >= 3) with the fabricated-bound "
       "signature; left active: " << bad.signature << " of " << bad.misses);
  CHECK(bad.misses > ok.misses);
  CHECK(bad.signature > ok.signature);
  // The harness's artifact gate (default --max-artifact-share 0.3) passes on the neutralized
  // search and fails on the defect.
  CHECK(ok.share() <= kDefaultMaxArtifactShare);
  CHECK(bad.share() > kDefaultMaxArtifactShare);
}
