// Independent models of harness/src/match_results, written from docs/match-results.md (sections
// 1, 4, 5 and 6): a game pair's score from PGN results and A's colours, the shard plan, the journal
// and its torn last line, the merge, the A/A mirror and the gate. Statistics come from the models in
// stats_model.h, not from harness/src/stats.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli_support.h"
#include "match_results/aa_mirror.h"
#include "match_results/match_analysis.h"
#include "match_results/match_journal.h"
#include "match_results/match_merge.h"
#include "match_results/match_report.h"
#include "match_results/match_result.h"
#include "match_results/match_result_file.h"
#include "stats/elo.h"
#include "stats_model.h"

using namespace stk::harness::match;
namespace model = stk::model;

namespace match_results_model_test {

// A's half points in one game: the PGN result is White's; A scores it when A had White.
int half_points(const GameRecord& g) {
  if (g.result == "1/2-1/2") return 1;
  const bool white_won = g.result == "1-0";
  const bool a_white = g.a_color == Color::White;
  return white_won == a_white ? 2 : 0;
}

struct Counts {
  std::array<std::uint64_t, 5> penta{};
  std::uint64_t w = 0, d = 0, l = 0;
};

Counts count_pairs(const std::vector<PairRecord>& pairs) {
  Counts c;
  for (const PairRecord& p : pairs) {
    int sum = 0;
    for (const GameRecord& g : p.games) {
      const int h = half_points(g);
      sum += h;
      (h == 2 ? c.w : h == 1 ? c.d : c.l)++;
    }
    ++c.penta[std::size_t(sum)];
  }
  return c;
}

void expect_counts(const MatchCounts& got, const Counts& want) {
  RC_ASSERT(got.penta.n == want.penta);
  RC_ASSERT(got.wdl.wins == want.w);
  RC_ASSERT(got.wdl.draws == want.d);
  RC_ASSERT(got.wdl.losses == want.l);
}

MatchDefinition make_def(std::uint64_t planned, int shards, std::optional<SprtParams> sprt,
                         GateSpec gate = {GateMode::Gain, std::nullopt},
                         std::string tc = "nodes=1000") {
  MatchDefinition d;
  d.config = "model";
  d.engines = {EngineSpec{"new", "/opt/new/stk", {{"Hash", "16"}}},
               EngineSpec{"main", "/opt/main/stk", {{"Hash", "16"}}}};
  d.time_control = std::move(tc);
  d.settings = {{"adjudication", "none"}};
  d.openings_file = "book.epd";
  d.openings_seed = 7;
  d.pairs_planned = planned;
  d.shard_count = shards;
  d.sprt = sprt;
  if (gate.mode == GateMode::Gain && !sprt) gate = {GateMode::NonRegression, -50.0};
  d.gate = gate;
  return d;
}

rc::Gen<GameRecord> game_gen(Color a) {
  return rc::gen::map(rc::gen::pair(rc::gen::element<std::string>("1-0", "0-1", "1/2-1/2"),
                                    rc::gen::inRange(1, 300)),
                      [a](const std::pair<std::string, int>& r) {
                        return GameRecord{a, r.first, "checkmate", r.second};
                      });
}

// A pair for opening i: A's colours reversed, either order.
PairRecord gen_pair(std::uint64_t opening) {
  const bool white_first = *rc::gen::arbitrary<bool>();
  const Color c0 = white_first ? Color::White : Color::Black;
  const Color c1 = white_first ? Color::Black : Color::White;
  return PairRecord{opening, {*game_gen(c0), *game_gen(c1)}};
}

// The openings planned for `shards` of `count` shards among `planned` pairs, ascending.
std::vector<std::uint64_t> planned_openings(std::uint64_t planned, int count,
                                            const std::set<int>& shards) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < planned; ++i)
    if (shards.count(int(i % std::uint64_t(count)) + 1)) out.push_back(i);
  return out;
}

SprtParams sprt_params() { return SprtParams{0, 25, 0.05, 0.05, EloModel::Normalized}; }

double model_llr(const Counts& c, const SprtParams& p) {
  std::uint64_t n = 0;
  for (auto k : c.penta) n += k;
  if (n == 0) return 0;
  return model::llr(model::penta_law(c.penta), p.elo0, p.elo1,
                    p.model == EloModel::Normalized ? model::Unit::Normalized
                                                    : model::Unit::Logistic);
}

template <class T>
std::vector<T> shuffled(std::vector<T> v) {
  for (std::size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[std::size_t(*rc::gen::inRange<std::size_t>(0, i))]);
  return v;
}

// MODEL match-result-pairs
// checks: harness/src/match_results/match_result.cpp  (a pair's score from PGN results and A's colours, the pentanomial and W/D/L counts, the shard plan)
// contract: docs/match-results.md#1-counts-statspentanomialh
// planted: ci/mutants/model-match-result-pairs.patch  (the PGN result taken as A's, whatever A's colour)
TEST_CASE("match results of generated pairs count A's half points as the model does",
          "[model][match_results]") {
  rc::prop("counts, remaining pairs, completeness and SPRT equal the model, in any order", [] {
    const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(1, 40);
    const int count = *rc::gen::inRange(1, 5);
    std::set<int> shards;
    for (int s = 1; s <= count; ++s)
      if (*rc::gen::arbitrary<bool>()) shards.insert(s);
    if (shards.empty()) shards.insert(*rc::gen::inRange(1, count + 1));
    const auto plan = planned_openings(planned, count, shards);
    std::vector<PairRecord> played;
    for (std::uint64_t i : plan)
      if (*rc::gen::inRange(0, 4) > 0) played.push_back(gen_pair(i));
    played = shuffled(played);

    const MatchDefinition def = make_def(planned, count, sprt_params());
    MatchResult r(def, shards);
    for (const PairRecord& p : played) {
      RC_ASSERT(p.score() ==
                half_points(p.games[0]) + half_points(p.games[1]));  // the pair's half points
      r.add_pair(p);
    }
    const Counts want = count_pairs(played);
    expect_counts(r.counts(), want);
    RC_ASSERT(r.pairs() == played);  // completion order kept
    std::vector<std::uint64_t> rest;
    for (std::uint64_t i : plan)
      if (std::none_of(played.begin(), played.end(),
                       [i](const PairRecord& p) { return p.opening == i; }))
        rest.push_back(i);
    RC_ASSERT(r.remaining() == rest);
    RC_ASSERT(r.complete() == rest.empty());
    for (std::uint64_t i = 0; i < planned + 3; ++i)
      RC_ASSERT(r.planned(i) == std::binary_search(plan.begin(), plan.end(), i));
    const double want_llr = model_llr(want, *def.sprt);
    RC_ASSERT(std::abs(r.sprt_result()->llr - want_llr) <=
              1e-7 * std::max(1.0, std::abs(want_llr)));

    // The same games with the engines swapped: every count mirrors, the LLR of the mirrored
    // hypothesis negates.
    MatchDefinition swapped = def;
    std::swap(swapped.engines[0], swapped.engines[1]);
    swapped.sprt = SprtParams{-25, 0, 0.05, 0.05, EloModel::Normalized};
    MatchResult m(swapped, shards);
    for (PairRecord p : shuffled(played)) {
      for (GameRecord& g : p.games)
        g.a_color = g.a_color == Color::White ? Color::Black : Color::White;
      m.add_pair(p);
    }
    RC_ASSERT(m.counts() == r.counts().mirrored());
    RC_ASSERT(std::abs(m.sprt_result()->llr + r.sprt_result()->llr) <=
              1e-7 * std::max(1.0, std::abs(want_llr)));
  });
  rc::prop("a pair not planned, recorded twice or in one colour is refused and changes nothing",
           [] {
             const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(2, 30);
             const int count = *rc::gen::inRange(2, 5);
             const int shard = *rc::gen::inRange(1, count + 1);
             MatchResult r(make_def(planned, count, sprt_params()), {shard});
             const auto plan = planned_openings(planned, count, {shard});
             RC_PRE(!plan.empty());
             const PairRecord ok = gen_pair(plan.front());
             r.add_pair(ok);
             const MatchCounts before = r.counts();
             RC_ASSERT_THROWS_AS(r.add_pair(ok), std::invalid_argument);
             PairRecord other = gen_pair(plan.front() + 1);  // the next opening is another shard's
             RC_ASSERT_THROWS_AS(r.add_pair(other), std::invalid_argument);
             RC_ASSERT_THROWS_AS(r.add_pair(gen_pair(planned)),
                                 std::invalid_argument);  // past the plan
             if (plan.size() > 1) {
               PairRecord same = gen_pair(plan[1]);
               same.games[1].a_color = same.games[0].a_color;
               RC_ASSERT_THROWS_AS(r.add_pair(same), std::invalid_argument);
             }
             RC_ASSERT(r.counts() == before);
             RC_ASSERT(r.pairs().size() == 1u);
           });
}

// MODEL match-merge-shards
// checks: harness/src/match_results/match_merge.cpp  (shards add exactly: pairs in opening order, counts, SPRT on the sum)
// contract: docs/match-results.md#6-merging-the-gate-junit
// planted: ci/mutants/model-match-merge-shards.patch  (pairs kept in file order, not sorted by opening)
TEST_CASE("merged shards of generated matches equal the one run that played every pair",
          "[model][match_results]") {
  rc::prop(
      "the merge equals the unsharded run, is byte-identical in any order and associative", [] {
        const int count = *rc::gen::inRange(1, 5);
        const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(1, 40);
        const MatchDefinition def = make_def(planned, count, sprt_params());
        std::set<int> all;
        for (int s = 1; s <= count; ++s) all.insert(s);
        // The one run: every planned pair (some missing: a partial match), in completion order.
        std::vector<PairRecord> played;
        for (std::uint64_t i = 0; i < planned; ++i)
          if (*rc::gen::inRange(0, 5) > 0) played.push_back(gen_pair(i));
        played = shuffled(played);
        MatchResult one(def, all);
        for (const PairRecord& p : played) one.add_pair(p);

        std::vector<NamedResult> parts;
        for (int s = 1; s <= count; ++s) {
          MatchResult part(def, {s});
          for (const PairRecord& p : played)
            if (part.planned(p.opening)) part.add_pair(p);
          parts.push_back({"shard" + std::to_string(s) + ".json", part});
        }
        const MatchResult merged = merge_match_results(shuffled(parts));
        // Model: the union of the pairs in opening order, the counts of the union, its LLR.
        std::vector<PairRecord> by_opening = played;
        std::sort(by_opening.begin(), by_opening.end(),
                  [](const PairRecord& a, const PairRecord& b) { return a.opening < b.opening; });
        RC_ASSERT(merged.pairs() == by_opening);
        RC_ASSERT(merged.shards() == all);
        expect_counts(merged.counts(), count_pairs(played));
        RC_ASSERT(merged.counts() == one.counts());
        const double want = model_llr(count_pairs(played), *def.sprt);
        RC_ASSERT(std::abs(merged.sprt_result()->llr - want) <=
                  1e-7 * std::max(1.0, std::abs(want)));
        RC_ASSERT(merged.complete() == (played.size() == planned));
        // Elo of the merge is the model's Elo of the union, and the gate reads the same.
        if (!played.empty()) {
          const model::Estimate e = model::estimate(model::penta_law(count_pairs(played).penta));
          const EloEstimate got = estimate(merged.counts().penta);
          RC_ASSERT(std::abs(got.elo - e.elo) <= 1e-9 * std::max(1.0, std::abs(e.elo)));
          RC_ASSERT(std::abs(got.elo_lower - e.lower) <= 1e-9 * std::max(1.0, std::abs(e.lower)));
          RC_ASSERT(evaluate_gate(merged).verdict == evaluate_gate(one).verdict);
          RC_ASSERT(evaluate_gate(merged).passed == evaluate_gate(one).passed);
        }

        // Byte-identical whatever the order of the files; associative.
        const std::string text = to_json_text(merged);
        RC_ASSERT(to_json_text(merge_match_results(shuffled(parts))) == text);
        if (parts.size() >= 3) {
          const MatchResult ab = merge_match_results({parts[0], parts[1]});
          std::vector<NamedResult> rest{{"ab.json", ab}};
          for (std::size_t i = 2; i < parts.size(); ++i) rest.push_back(parts[i]);
          RC_ASSERT(to_json_text(merge_match_results(shuffled(rest))) == text);
        }
      });
  rc::prop("files of another match, or a shard twice, are refused naming both files", [] {
    const MatchDefinition def = make_def(12, 3, sprt_params());
    MatchResult a(def, {1}), b(def, {2});
    a.add_pair(gen_pair(0));
    b.add_pair(gen_pair(1));
    MatchDefinition other = def;
    other.engines[1].options["Hash"] = "32";
    MatchResult c(other, {3});
    try {
      merge_match_results({{"a.json", a}, {"c.json", c}});
      RC_FAIL("a file of another match was merged");
    } catch (const stk::harness::InputError& e) {
      const std::string m = e.what();
      RC_ASSERT(m.find("a.json") != std::string::npos);
      RC_ASSERT(m.find("c.json") != std::string::npos);
      RC_ASSERT(m.find("engines[1].options.Hash") != std::string::npos);
    }
    try {
      merge_match_results({{"a.json", a}, {"b.json", b}, {"a2.json", a}});
      RC_FAIL("a shard given twice was merged");
    } catch (const stk::harness::InputError& e) {
      const std::string m = e.what();
      RC_ASSERT(m.find("a2.json") != std::string::npos);
      RC_ASSERT(m.find("a.json") != std::string::npos);
    }
  });
}

// MODEL match-journal
// checks: harness/src/match_results/match_journal.cpp  (the runner's journal: one line per pair, a torn last line dropped and cut)
// contract: docs/match-results.md#4-api-for-the-match-runner
// planted: ci/mutants/model-match-journal.patch  (a journal torn before its first pair keeps the header's newline out of its good bytes)
TEST_CASE("journals of generated runs read back every recorded pair and drop only a torn last line",
          "[model][match_results]") {
  const auto dir = stk::test::scratch_dir("match-journal-model");
  int run = 0;
  rc::prop(
      "recorded pairs read back in order, a torn tail is dropped as documented, resume appends",
      [&] {
        const std::string path = (dir / ("j" + std::to_string(run++) + ".jsonl")).string();
        const int count = *rc::gen::inRange(1, 4), shard = *rc::gen::inRange(1, count + 1);
        const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(2, 30);
        const MatchDefinition def = make_def(planned, count, sprt_params());
        auto plan = shuffled(planned_openings(planned, count, {shard}));
        RC_PRE(plan.size() >= 2);
        const std::size_t n = *rc::gen::inRange<std::size_t>(0, plan.size());
        std::vector<PairRecord> recorded;
        {
          MatchJournal j(path, def, shard);
          for (std::size_t i = 0; i < n; ++i) {
            recorded.push_back(gen_pair(plan[i]));
            j.record(recorded.back());
          }
          j.open();
          j.close();
        }
        std::string text = stk::test::read_file(path);
        RC_ASSERT(std::count(text.begin(), text.end(), '\n') == std::ptrdiff_t(1 + n));
        JournalRead r = read_match_journal(path);
        RC_ASSERT(r.result.pairs() == recorded);
        expect_counts(r.result.counts(), count_pairs(recorded));
        RC_ASSERT(r.dropped.empty());
        RC_ASSERT(r.good_bytes == text.size());

        // A kill tears the next line: any proper prefix of it (at least one byte).
        const std::string next = pair_to_json(gen_pair(plan[n])).dump();
        const std::size_t torn = *rc::gen::inRange<std::size_t>(1, next.size() + 1);
        { std::ofstream(path, std::ios::app) << next.substr(0, torn); }
        r = read_match_journal(path);
        RC_ASSERT(r.result.pairs() == recorded);
        RC_ASSERT(r.good_bytes == text.size());
        const std::string says = "dropped a torn last line (" + std::to_string(torn) +
                                 " bytes at byte " + std::to_string(text.size()) + ", line " +
                                 std::to_string(n + 2) + ")";
        RC_ASSERT(r.dropped.find(says) != std::string::npos);

        // Resuming cuts the torn bytes; the next pair is one clean line after the others.
        {
          std::string notice;
          MatchJournal j(path, def, shard, &notice);
          RC_ASSERT(notice == r.dropped);
          RC_ASSERT(j.result().pairs() == recorded);
          recorded.push_back(gen_pair(plan[n]));
          j.record(recorded.back());
          j.close();
        }
        text = stk::test::read_file(path);
        RC_ASSERT(std::count(text.begin(), text.end(), '\n') == std::ptrdiff_t(2 + n));
        RC_ASSERT(text.back() == '\n');
        r = read_match_journal(path);
        RC_ASSERT(r.result.pairs() == recorded);
        RC_ASSERT(r.dropped.empty());
        expect_counts(r.result.counts(), count_pairs(recorded));
        std::filesystem::remove(path);
      });
}

// MODEL match-aa-mirror
// checks: harness/src/match_results/aa_mirror.cpp  (the fixed-budget A/A: every pair mirrored, same result from White's view in the same plies)
// contract: docs/match-results.md#5-the-result-file-json-kind-stk-match-result-version-1
// planted: ci/mutants/model-match-aa-mirror.patch  (the plies not compared)
TEST_CASE(
    "the A/A mirror check of generated pairs names exactly the pairs the model finds unmirrored",
    "[model][match_results]") {
  CHECK(fixed_budget(
      make_def(1, 1, std::nullopt, {GateMode::AAControl, std::nullopt}, "nodes=20000")));
  CHECK(fixed_budget(make_def(1, 1, std::nullopt, {GateMode::AAControl, std::nullopt}, "depth=9")));
  CHECK_FALSE(
      fixed_budget(make_def(1, 1, std::nullopt, {GateMode::AAControl, std::nullopt}, "10+0.1")));
  rc::prop(
      "not_mirrored lists, in record order, the pairs whose games differ in result or plies", [] {
        const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(1, 60);
        const MatchDefinition def = make_def(planned, 1, std::nullopt,
                                             {GateMode::AAControl, std::nullopt}, "nodes=500");
        MatchResult r(def, {1});
        std::vector<std::uint64_t> want;
        for (std::uint64_t i : shuffled(planned_openings(planned, 1, {1}))) {
          if (*rc::gen::inRange(0, 3) == 0) continue;
          PairRecord p = gen_pair(i);
          p.games[1].result = p.games[0].result;  // mirrored: same result from White's view ...
          p.games[1].plies = p.games[0].plies;    // ... in the same plies
          switch (*rc::gen::inRange(0, 4)) {
            case 0: p.games[1].plies += *rc::gen::element(1, -1); break;  // one ply apart
            case 1: p.games[1].result = p.games[0].result == "1-0" ? "1/2-1/2" : "1-0"; break;
            default: break;
          }
          if (p.games[0].result != p.games[1].result || p.games[0].plies != p.games[1].plies)
            want.push_back(i);
          r.add_pair(p);
        }
        const MirrorCheck m = check_mirrored(r);
        RC_ASSERT(m.pairs == r.pairs().size());
        RC_ASSERT(m.not_mirrored == want);
        if (want.empty()) {
          RC_ASSERT(m.text() == "every one of " + std::to_string(m.pairs) + " pairs mirrored");
        } else if (want.size() <= 20) {
          std::string list;
          for (auto i : want) list += (list.empty() ? "" : ", ") + std::to_string(i);
          RC_ASSERT(m.text() == std::to_string(want.size()) + " of " + std::to_string(m.pairs) +
                                    " pairs not mirrored (openings " + list + ")");
        }
        // The aa-control gate at a fixed budget fails exactly when a pair is not mirrored (the
        // interval of a mirrored run contains 0: every pair scores 2 half points).
        if (!r.pairs().empty() && want.empty()) RC_ASSERT(evaluate_gate(r).passed);
        if (!want.empty()) RC_ASSERT(!evaluate_gate(r).passed);
      });
}

// MODEL match-gate
// checks: harness/src/match_results/match_report.cpp  (the gate: gain, non-regression with and without SPRT, aa-control)
// contract: docs/match-results.md#5-the-result-file-json-kind-stk-match-result-version-1
// planted: ci/mutants/model-match-gate.patch  (a non-regression bar passed at lower95 equal to it)
TEST_CASE("gates of generated matches pass exactly when the model of the documented gate passes",
          "[model][match_results]") {
  auto result_of = [](const MatchDefinition& def, const std::array<std::uint64_t, 5>& n) {
    MatchResult r(def, {1});
    std::uint64_t opening = 0;
    for (int k = 0; k < 5; ++k)
      for (std::uint64_t j = 0; j < n[std::size_t(k)]; ++j) {
        // A's pair score k: (first, second) half points with A White first.
        static const char* white_view[3] = {"0-1", "1/2-1/2", "1-0"};
        // LL (0,0), LD (0,1), DD (1,1) or WL (2,0) in turn, DW (2,1), WW (2,2).
        static const int firsts[5] = {0, 0, 1, 2, 2};
        const int first = k == 2 && j % 2 ? 2 : firsts[k];
        const int second = k - first;
        r.add_pair(PairRecord{opening++,
                              {GameRecord{Color::White, white_view[first], "x", 50},
                               GameRecord{Color::Black, white_view[2 - second], "x", 60}}});
      }
    return r;
  };
  rc::prop("the gate's verdict is the model's", [&] {
    std::array<std::uint64_t, 5> n{};
    for (auto& k : n) k = *rc::gen::inRange<std::uint64_t>(0, 40);
    const std::uint64_t pairs = std::accumulate(n.begin(), n.end(), std::uint64_t(0));
    RC_PRE(pairs > 0);
    const GateMode mode = *rc::gen::element(GateMode::Gain, GateMode::NonRegression,
                                            GateMode::AAControl);
    std::optional<SprtParams> sprt;
    if (mode == GateMode::Gain || *rc::gen::arbitrary<bool>())
      sprt = *rc::gen::element(SprtParams{0, 25, 0.05, 0.05, EloModel::Normalized},
                               SprtParams{-30, 10, 0.05, 0.05, EloModel::Normalized},
                               SprtParams{-20, 20, 0.1, 0.1, EloModel::Logistic});
    std::optional<double> bar;
    if (mode == GateMode::NonRegression && (!sprt || *rc::gen::arbitrary<bool>()))
      bar = *rc::gen::inRange(-300, 100) * 1.0;
    const MatchDefinition def = make_def(pairs, 1, sprt, {mode, bar}, "10+0.1");
    const MatchResult r = result_of(def, n);
    RC_ASSERT(r.counts().penta.n == n);

    const model::Estimate e = model::estimate(model::penta_law(n));
    int v = 0;
    if (sprt) {
      Counts c;
      c.penta = n;
      const double l = model_llr(c, *sprt);
      RC_PRE(std::abs(l - model::upper_bound(sprt->alpha, sprt->beta)) > 1e-6 &&
             std::abs(l - model::lower_bound(sprt->alpha, sprt->beta)) > 1e-6);
      v = model::decide(l, sprt->alpha, sprt->beta);
    }
    bool pass = false;
    switch (mode) {
      case GateMode::Gain: pass = v == 1; break;
      case GateMode::NonRegression:
        if (sprt && (v != 0 || !bar)) {
          pass = v == 1;
        } else {
          RC_PRE(std::abs(e.lower - *bar) > 1e-6);
          pass = e.lower > *bar;
        }
        break;
      case GateMode::AAControl:
        RC_PRE(std::abs(e.lower) > 1e-6 && std::abs(e.upper) > 1e-6);
        pass = e.lower <= 0 && 0 <= e.upper && v != 1;
        break;
    }
    const GateOutcome g = evaluate_gate(r);
    RC_TAG(pass ? "pass" : "fail");
    if (g.passed != pass)
      RC_FAIL("gate says " + g.verdict + "; the model says " + (pass ? "pass" : "fail"));
  });
  SECTION(
      "the non-regression bar both ways: lower95 equal to the bar fails, one ulp above passes") {
    const std::array<std::uint64_t, 5> n{3, 10, 20, 12, 5};
    const double lower = estimate(PentanomialCounts{n}).elo_lower;
    CHECK(std::abs(lower - model::estimate(model::penta_law(n)).lower) < 1e-9);
    auto gate_at = [&](double bar) {
      return evaluate_gate(
          result_of(make_def(50, 1, std::nullopt, {GateMode::NonRegression, bar}), n));
    };
    CHECK_FALSE(gate_at(lower).passed);
    CHECK(gate_at(std::nextafter(lower, -1e9)).passed);
    // With an SPRT undecided at the budget the same bar decides; a decided SPRT overrides it.
    auto with_sprt = [&](double bar) {
      return evaluate_gate(
          result_of(make_def(50, 1, SprtParams{-3, 1, 0.05, 0.05, EloModel::Normalized},
                             {GateMode::NonRegression, bar}),
                    n));
    };
    CHECK(sprt(PentanomialCounts{n}, SprtParams{-3, 1, 0.05, 0.05, EloModel::Normalized}).verdict ==
          Verdict::Continue);
    CHECK_FALSE(with_sprt(lower).passed);
    CHECK(with_sprt(std::nextafter(lower, -1e9)).passed);
  }
}

// MODEL match-analysis-line
// checks: harness/src/match_results/match_analysis.cpp  (the one-line summary of a match: the JUnit failure message and the verdict line)
// contract: docs/match-results.md#6-merging-the-gate-junit
// planted: ci/mutants/model-match-analysis-line.patch  (the Elo "+-" printed as the whole interval's width)
TEST_CASE("the one-line summary of generated counts prints the model's figures to two decimals",
          "[model][match_results]") {
  rc::prop(
      "counts, Elo +- [interval], nElo +-, LOS and LLR [bounds] (verdict) are the model's", [] {
        std::array<std::uint64_t, 5> n{};
        for (auto& k : n) k = *rc::gen::inRange<std::uint64_t>(0, 300);
        const std::uint64_t pairs = std::accumulate(n.begin(), n.end(), std::uint64_t(0));
        RC_PRE(pairs > 0);
        // W/D/L consistent with the pairs: DD+WL pairs split between the two.
        const std::uint64_t wl = *rc::gen::inRange<std::uint64_t>(0, n[2] + 1);
        const WdlCounts wdl{n[3] + 2 * n[4] + wl, n[1] + 2 * (n[2] - wl) + n[3],
                            2 * n[0] + n[1] + wl};
        const bool logistic = *rc::gen::arbitrary<bool>();
        const SprtParams sp{-5, 15, 0.05, 0.1,
                            logistic ? EloModel::Logistic : EloModel::Normalized};
        const bool trinomial_only = *rc::gen::arbitrary<bool>();
        const MatchAnalysis a = analyse(trinomial_only ? std::nullopt
                                                       : std::optional<PentanomialCounts>(
                                                             PentanomialCounts{n}),
                                        wdl, sp);
        const std::string line = one_line(a);
        RC_LOG() << line << "\n";
        const model::Law law = trinomial_only ? model::wdl_law(wdl.wins, wdl.draws, wdl.losses)
                                              : model::penta_law(n);
        const model::Estimate e = model::estimate(law);
        const double l = model::llr(law, sp.elo0, sp.elo1,
                                    logistic ? model::Unit::Logistic : model::Unit::Normalized);
        RC_ASSERT(a.sprt_on_trinomial == trinomial_only);
        const std::string num = "(-?[0-9]+\\.[0-9]+)";
        const std::regex re(
            (trinomial_only ? std::to_string(wdl.games()) + " games"
                            : std::to_string(pairs) + " pairs \\(ptnml " + std::to_string(n[0]) +
                                  "," + std::to_string(n[1]) + "," + std::to_string(n[2]) + "," +
                                  std::to_string(n[3]) + "," + std::to_string(n[4]) + "\\)") +
            " W " + std::to_string(wdl.wins) + " D " + std::to_string(wdl.draws) + " L " +
            std::to_string(wdl.losses) + ", Elo " + num + " \\+- " + num + " \\[" + num + ", " +
            num + "\\], nElo " + num + " \\+- " + num + ", LOS " + num + "%, LLR " + num + " \\[" +
            num + ", " + num +
            "\\] on (nElo|Elo) \\[-5.00, 15.00\\] \\((continue|H0 accepted|H1 accepted)\\)");
        std::smatch m;
        if (!std::regex_match(line, m, re)) RC_FAIL("not the documented form: " + line);
        auto printed = [&](int i) { return std::stod(m[i].str()); };
        auto shows = [&](int i, double want, double half_unit, const char* what) {
          if (std::abs(printed(i) - want) > half_unit + 1e-9)
            RC_FAIL(std::string(what) + " printed " + m[i].str() + ", model " +
                    std::to_string(want));
        };
        shows(1, e.elo, 0.005, "Elo");
        shows(2, e.error, 0.005, "Elo +-");
        shows(3, e.lower, 0.005, "Elo lower");
        shows(4, e.upper, 0.005, "Elo upper");
        shows(5, e.nelo, 0.005, "nElo");
        shows(6, e.nelo_error, 0.005, "nElo +-");
        shows(7, 100 * e.los, 0.05, "LOS %");
        shows(8, l, 0.005, "LLR");
        shows(9, model::lower_bound(0.05, 0.1), 0.005, "lower bound");
        shows(10, model::upper_bound(0.05, 0.1), 0.005, "upper bound");
        RC_ASSERT(m[11].str() == (logistic ? "Elo" : "nElo"));
        if (std::abs(l - model::upper_bound(0.05, 0.1)) > 1e-6 &&
            std::abs(l - model::lower_bound(0.05, 0.1)) > 1e-6) {
          const int v = model::decide(l, 0.05, 0.1);
          RC_ASSERT(m[12].str() == (v > 0 ? "H1 accepted" : v < 0 ? "H0 accepted" : "continue"));
        }
      });
}

}  // namespace match_results_model_test

namespace match_results_model_test {

// MODEL match-result-file
// checks: harness/src/match_results/match_result_file.cpp  (the result file: written and read back exactly, every documented inconsistency refused)
// contract: docs/match-results.md#5-the-result-file-json-kind-stk-match-result-version-1
// planted: ci/mutants/model-match-result-file.patch  (the stored W/D/L counts not compared with the pairs)
TEST_CASE(
    "result files of generated matches read back exactly and refuse each documented inconsistency",
    "[model][match_results]") {
  rc::prop("write, read: the same match; a changed count, score, colour or pair is refused", [] {
    const int count = *rc::gen::inRange(1, 4), shard = *rc::gen::inRange(1, count + 1);
    const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(4, 40);
    const MatchDefinition def = make_def(planned, count, sprt_params());
    MatchResult r(def, {shard});
    const auto plan = shuffled(planned_openings(planned, count, {shard}));
    RC_PRE(plan.size() >= 2);
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, plan.size());
    for (std::size_t i = 0; i < n; ++i) r.add_pair(gen_pair(plan[i]));
    const std::string text = to_json_text(r);
    const MatchResult back = parse_match_result(text, "f.json");
    RC_ASSERT(back.definition() == def);
    RC_ASSERT(back.shards() == r.shards());
    RC_ASSERT(back.pairs() == r.pairs());
    expect_counts(back.counts(), count_pairs(r.pairs()));
    RC_ASSERT(to_json_text(back) == text);

    const nlohmann::json j = nlohmann::json::parse(text);
    auto refused = [&](const nlohmann::json& bad, const char* what) {
      try {
        parse_match_result(bad.dump(), "f.json");
      } catch (const stk::harness::InputError& e) {
        RC_ASSERT(std::string(e.what()).find("f.json") != std::string::npos);
        return;
      }
      RC_FAIL(std::string("accepted a file with ") + what);
    };
    const std::size_t i = *rc::gen::inRange<std::size_t>(0, n);
    const Counts c = count_pairs(r.pairs());
    {  // W/D/L that differ from the pairs (wins and losses swapped, or one more draw)
      nlohmann::json bad = j;
      if (c.w != c.l) {
        bad["counts"]["wdl"]["w"] = c.l, bad["counts"]["wdl"]["l"] = c.w;
      } else {
        bad["counts"]["wdl"]["d"] = c.d + 1;
      }
      refused(bad, "W/D/L counts that differ from its pairs");
    }
    {  // a pentanomial count moved to the neighbouring class
      nlohmann::json bad = j;
      const std::size_t k = *rc::gen::inRange<std::size_t>(0, 4);
      auto penta = bad["counts"]["pentanomial"].get<std::vector<std::uint64_t>>();
      if (penta[k] > 0) {
        --penta[k], ++penta[k + 1];
      } else {
        ++penta[k];
      }
      bad["counts"]["pentanomial"] = penta;
      refused(bad, "pentanomial counts that differ from its pairs");
    }
    {  // a pair score other than its games'
      nlohmann::json bad = j;
      bad["pairs"][i]["score"] = (bad["pairs"][i]["score"].get<int>() + 1) % 5;
      refused(bad, "a pair score that disagrees with its games");
    }
    {  // both games with A in one colour
      nlohmann::json bad = j;
      bad["pairs"][i]["games"][1]["a"] = bad["pairs"][i]["games"][0]["a"];
      refused(bad, "a pair in one colour");
    }
    {  // a pair twice
      nlohmann::json bad = j;
      bad["pairs"].push_back(bad["pairs"][i]);
      refused(bad, "a pair recorded twice");
    }
    {  // a pair outside the file's shards (the next opening, or past the plan)
      nlohmann::json bad = j;
      const std::uint64_t outside = count > 1 ? plan[n] + 1 : planned;
      bad["pairs"][i]["opening"] = outside;
      if (count > 1 && outside < planned &&
          outside % std::uint64_t(count) == std::uint64_t(shard - 1))
        return;
      refused(bad, "a pair outside its shards");
    }
  });
}

}  // namespace match_results_model_test
