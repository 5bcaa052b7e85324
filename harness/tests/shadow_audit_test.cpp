// Shadow-search audit: the audit never changes the real search (invariant), it sees every
// mechanism and its control, under exact isolation every control replays the real search, and
// its own checks catch planted defects (shadow writes to the real table, leaked history, shadow
// searches at the wrong depth; a fabricated-bound bailout: ci/mutants/shadow-null-bailout.patch).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "commands/shadow/shadow_audit.h"
#include "commands/shadow/shadow_gates.h"

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

SearchSettings settings(int depth, Isolation level = kExact) {
  SearchSettings s;
  s.depth = depth;
  s.hash_mb = 4;
  s.audit.isolation = level;
  return s;
}

template <Variant V>
std::string first_invariant_break(int depth, bool against_engine) {
  for (const auto& fen : fens()) {
    PositionAudit on = audit_position<V>(fen, "t", settings(depth), true);
    search::Result ref = against_engine
                             ? plain_search(fen, settings(depth))
                             : audit_position<V>(fen, "t", settings(depth), false).result;
    std::string diff = compare_results(ref, on.result);
    if (!diff.empty()) return fen + ": " + diff;
  }
  return "";
}

// Every test position audited with variant V: the per-position counts and all records.
struct SuiteAudit {
  Counts total{};
  std::vector<Counts> per_position;
  std::vector<Miss> misses, control_hits;
};
template <Variant V = Variant{}>
SuiteAudit audit_suite(int depth, Isolation level = kExact) {
  SuiteAudit out;
  for (const auto& fen : fens()) {
    PositionAudit a = audit_position<V>(fen, "t", settings(depth, level));
    out.total.add(a.counts);
    out.per_position.push_back(a.counts);
    out.misses.insert(out.misses.end(), a.misses.begin(), a.misses.end());
    out.control_hits.insert(out.control_hits.end(), a.control_hits.begin(), a.control_hits.end());
  }
  return out;
}

template <class C, class F>
std::uint64_t total(const std::array<C, kDepthCells>& cells, F C::*field) {
  std::uint64_t n = 0;
  for (const C& cell : cells) n += cell.*field;
  return n;
}
std::uint64_t decisions(const Counts& c, Mechanism m, std::uint64_t Cell::*f) {
  return total(c.decisions[int(m)], f);
}
std::uint64_t controls(const Counts& c, Control k, std::uint64_t ControlCell::*f) {
  return total(c.controls[int(k)], f);
}

Excess all_depths(const SuiteAudit& a, Mechanism m) {
  return excess_of(band_clusters(a.per_position, m, 0, kDepthCells - 1), BootstrapSettings{});
}

constexpr Mechanism kAll[] = {Mechanism::Lmr,      Mechanism::Lmp,      Mechanism::Futility,
                              Mechanism::SeePrune, Mechanism::NullMove, Mechanism::StaticNull};

}  // namespace

TEST_CASE("shadow audit: real search identical with the audit on and off", "[shadow]") {
  for (Isolation level : {kLegacy, kHeuristicsLevel, kTableLevel, kExact})
    for (const auto& fen : fens()) {
      PositionAudit on = audit_position<Variant{}>(fen, "t", settings(7, level));
      INFO(isolation_name(level) << " " << fen);
      CHECK(compare_results(plain_search(fen, settings(7)), on.result) == "");
      CHECK(on.shadow_nodes > 0);
      CHECK(on.control_nodes > 0);
    }
}

TEST_CASE(
    "shadow audit: every mechanism is audited beside its control, and records are well formed",
    "[shadow]") {
  SuiteAudit a = audit_suite(8);
  for (Mechanism m : kAll) {
    INFO(search::mechanism_name(m));
    CHECK(decisions(a.total, m, &Cell::audited) > 0);
    CHECK(decisions(a.total, m, &Cell::misses) <= decisions(a.total, m, &Cell::audited));
    CHECK(controls(a.total, control_of(m), &ControlCell::audited) > 0);
    CHECK(decisions(a.total, m, &Cell::depth_mismatches) == 0);
    CHECK(controls(a.total, control_of(m), &ControlCell::depth_mismatches) == 0);
  }
  for (int k = 0; k < kControlCount; ++k) CHECK(a.total.sampled[k] <= a.total.candidates[k]);
  std::vector<Miss> all = a.misses;
  all.insert(all.end(), a.control_hits.begin(), a.control_hits.end());
  for (const Miss& x : all) {
    CHECK(on_miss_side(x, x.shadow_score));
    // The path replays from the root to the deciding node.
    Position pos;
    REQUIRE(!pos.set(x.root_fen, true));
    for (Move p : x.path) p == Move::null() ? pos.make_null() : pos.make_move(p);
    CHECK(pos.fen() == x.fen);
  }
  classify(a.misses, 2, 2'000'000);
  for (const Miss& x : a.misses) CHECK(x.verdict != "");
}

TEST_CASE(
    "shadow audit: under exact isolation every control replays the real search, under legacy it does not",
    "[shadow]") {
  SuiteAudit exact = audit_suite(8, kExact);
  for (int k = 0; k < kControlCount; ++k) {
    const Control c = Control(k);
    INFO(control_name(c));
    const std::uint64_t n = controls(exact.total, c, &ControlCell::audited);
    CHECK(controls(exact.total, c, &ControlCell::hits) == 0);
    // The searched-node control skips the null move at its root (as the static-null miss search
    // does); the killers that null-move search left at ply+1 can change a node count, never more.
    if (c == Control::SearchedNode)
      CHECK(controls(exact.total, c, &ControlCell::replayed) * 100 >= n * 99);
    else CHECK(controls(exact.total, c, &ControlCell::replayed) == n);
  }
  SuiteAudit legacy = audit_suite(8, kLegacy);
  std::uint64_t hits = 0;
  for (int k = 0; k < kControlCount; ++k)
    hits += controls(legacy.total, Control(k), &ControlCell::hits);
  CHECK(hits > 0);
  CHECK(control_gate_fails(all_depths(legacy, Mechanism::Lmr), kDefaultMaxControl));
  CHECK_FALSE(control_gate_fails(all_depths(exact, Mechanism::Lmr), kDefaultMaxControl));
}

TEST_CASE(
    "shadow audit planted defect: an LMR shadow at the reduced depth fails the depth and sensitivity gates",
    "[shadow][planted]") {
  SuiteAudit ok = audit_suite(8);
  SuiteAudit bad = audit_suite<Variant{.lmr_at_reduced_depth = true}>(8);
  CHECK(decisions(ok.total, Mechanism::Lmr, &Cell::depth_mismatches) == 0);
  CHECK(decisions(bad.total, Mechanism::Lmr, &Cell::depth_mismatches) ==
        decisions(bad.total, Mechanism::Lmr, &Cell::audited));
  // At the reduced depth the miss search is its own control: no excess at all.
  const Excess e_ok = all_depths(ok, Mechanism::Lmr), e_bad = all_depths(bad, Mechanism::Lmr);
  INFO("LMR excess " << e_ok.excess << " [" << e_ok.bootstrap.lo << ", " << e_ok.bootstrap.hi
                     << "]; at the reduced "
                        "depth "
                     << e_bad.excess << " (misses " << e_bad.k1 << ", control hits " << e_bad.k2
                     << ")");
  CHECK(e_bad.k1 == e_bad.k2);
  CHECK_FALSE(sensitivity_gate_fails(e_ok));
  CHECK(sensitivity_gate_fails(e_bad));
}

TEST_CASE("shadow audit planted defect: pruned-move shadows one ply short fail the depth gate",
          "[shadow][planted]") {
  SuiteAudit bad = audit_suite<Variant{.pruned_depth_offset = -1}>(7);
  for (Mechanism m : {Mechanism::Lmp, Mechanism::Futility, Mechanism::SeePrune}) {
    INFO(search::mechanism_name(m));
    CHECK(decisions(bad.total, m, &Cell::depth_mismatches) > 0);
  }
  CHECK(decisions(bad.total, Mechanism::Lmr, &Cell::depth_mismatches) == 0);
}

TEST_CASE("shadow audit planted defect: shadow search writing the real table breaks the invariant",
          "[shadow][planted]") {
  CHECK(first_invariant_break<Variant{}>(7, true) == "");
  CHECK(first_invariant_break<Variant{.private_table = false}>(7, true) != "");
}

TEST_CASE(
    "shadow audit planted defect: shadow history leaking into the real search breaks the invariant",
    "[shadow][planted]") {
  CHECK(first_invariant_break<Variant{.restore_heuristics = false}>(7, true) != "");
}

// The fabricated-bound class of defect (a search path that returns a bound to signal its caller,
// inherited by a shadow search that has no such caller) lives in ci/mutants/shadow-null-bailout.patch:
// a null-move bailout that fabricates alpha - 1 under a reduced move. With it planted, this fails.
TEST_CASE("shadow audit: the real search passes the fabricated-bound artifact gate", "[shadow]") {
  std::vector<Miss> misses;
  for (const auto& fen : fens()) {
    PositionAudit a = audit_position<Variant{}>(fen, "t", settings(8));
    misses.insert(misses.end(), a.misses.begin(), a.misses.end());
  }
  classify(misses, 0, 2'000'000);
  const ArtifactShare share = artifact_share(misses, 3);
  INFO(share.signature << " of " << share.misses
                       << " misses (depth >= 3) with the fabricated-bound signature");
  CHECK(share.misses > 0);
  // The harness's artifact gate (default --max-artifact-share 0.3).
  CHECK(share.share() <= kDefaultMaxArtifactShare);
}

TEST_CASE("shadow excess intervals on hand-computed examples", "[shadow]") {
  // Wilson 81/263 and Newcombe's method 10 for 56/70 - 48/80 (Newcombe 1998, both papers' examples).
  const Interval w = wilson(81, 263);
  CHECK(w.lo == Approx(0.2553).margin(5e-5));
  CHECK(w.hi == Approx(0.3662).margin(5e-5));
  const Interval d = newcombe_difference(56, 70, 48, 80);
  CHECK(d.lo == Approx(0.0524).margin(5e-5));
  CHECK(d.hi == Approx(0.3339).margin(5e-5));
  CHECK(newcombe_difference(1, 0, 0, 5).lo == -1);

  // Cluster bootstrap, two positions: A has 1 miss in 10 decisions and 0 control hits in 10,
  // B nothing in either. Resamples AA, AB/BA, BB give 0.10, 0.05, 0 with probabilities 1/4, 1/2,
  // 1/4: the 95% percentile interval is [0, 0.10]; the point estimate is 1/20.
  const std::vector<ClusterCounts> two = {{1, 10, 0, 10}, {0, 10, 0, 10}};
  int used = 0;
  const Interval b = cluster_bootstrap_difference(two, BootstrapSettings{7, 2000}, &used);
  CHECK(used == 2000);
  CHECK(b.lo == 0.0);
  CHECK(b.hi == Approx(0.1));
  const Excess e = excess_of(two, BootstrapSettings{7, 2000});
  CHECK(e.excess == Approx(0.05));
  CHECK(e.k1 == 1);
  CHECK(e.n2 == 20);
  // One position: every resample is that position.
  const Interval one = cluster_bootstrap_difference({{3, 40, 1, 40}}, BootstrapSettings{});
  CHECK(one.lo == Approx(0.05));
  CHECK(one.hi == Approx(0.05));
  // Same seed, same interval.
  const std::vector<ClusterCounts> many = {{3, 50, 1, 60},
                                           {0, 20, 2, 30},
                                           {5, 70, 0, 10},
                                           {1, 5, 1, 8}};
  CHECK(cluster_bootstrap_difference(many, {11, 500}).lo ==
        cluster_bootstrap_difference(many, {11, 500}).lo);
  // The gates on the same numbers.
  CHECK_FALSE(excess_gate_fails(e, 0.0));  // lower bound 0 is not above 0
  CHECK(sensitivity_gate_fails(e));        // ... nor significantly above 0
  CHECK(excess_gate_fails(excess_of({{1, 10, 0, 0}}, BootstrapSettings{}), 0.5));  // no control
  // As the report's tables show them: a band without decisions says so, one decision is a rate
  // (planted: the "no decisions" test made n1 == 1).
  CHECK(excess_text(e) == "+5.000% [+0.000, +10.000]%");
  CHECK(excess_text(excess_of({{0, 0, 0, 5}}, BootstrapSettings{})) == "no decisions");
  CHECK(excess_text(excess_of({{1, 1, 0, 5}}, BootstrapSettings{})) ==
        "+100.000% [+100.000, +100.000]%");
}

TEST_CASE("stk-harness shadow: reports with controls, JUnit valid, gates on isolation",
          "[shadow][cli]") {
  auto dir = stk::test::scratch_dir("shadow-cli");
  std::string epd;
  const char* kBest[] = {"Nd5", "O-O", "Rc2"};  // any legal move: the harness reads no bm
  for (std::size_t i = 0; i < 3; ++i) {         // EPD: the FEN's first four fields, then operations
    const std::string& f = fens()[i];
    epd += f.substr(0, f.rfind(' ', f.rfind(' ') - 1)) + " bm " + kBest[i] + "; id \"t" +
           std::to_string(i) + "\";\n";
  }
  stk::test::write_file(dir / "t.epd", epd);
  const std::string base = stk::test::harness_bin() + " shadow --quiet --epd '" +
                           (dir / "t.epd").string() + "' --depth 7 --classify-max 50 --out-dir '" +
                           dir.string() + "'";
  // Three positions are too few clusters for the sensitivity gate (one has no LMR miss).
  auto r = stk::test::run_command(base + " --config exact --require-excess none");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(stk::test::validate_junit((dir / "junit/shadow-exact.xml").string()) == "");
  std::ifstream in(dir / "shadow/exact.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["isolation"] == "exact");
  CHECK(j["bootstrap"]["seed"] == 1);
  for (const auto& c : j["cells"]) {
    CHECK(c.contains("control_rate"));
    CHECK(c.contains("excess_lo"));
  }
  CHECK(j["mechanisms"].size() == 6);
  // The legacy shadow's noise fails the control gate; everything else still runs.
  auto legacy = stk::test::run_command(base + " --config legacy --isolation legacy");
  CHECK(legacy.exit_code == 1);
  CHECK(legacy.output.find("control rate") != std::string::npos);
  CHECK(stk::test::validate_junit((dir / "junit/shadow-legacy.xml").string()) == "");
  CHECK(stk::test::run_command(base + " --isolation nonsense").exit_code == 2);
  CHECK(stk::test::run_command(base + " --max-excess lmr:3-x=0.1").exit_code == 2);
}
