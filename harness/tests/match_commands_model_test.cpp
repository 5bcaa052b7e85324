// Independent models of the verdicts of the match commands (sprt, sprt-sim, match-merge, merge,
// match), run as binaries on generated small inputs and judged by the models of stats_model.h and
// the documented contracts (docs/match-results.md, docs/harnesses/*.md).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "match_results/match_result.h"
#include "match_results/match_result_file.h"
#include "stats_model.h"

using namespace stk::harness::match;
namespace model = stk::model;
using stk::test::harness_bin;
using stk::test::run_command;

namespace match_commands_model_test {

// rc::prop with at most `cases` successful cases (the seed still from RC_PARAMS): every case here
// starts processes, so the default 100 would take tens of seconds.
template <typename Testable>
void prop_cases(const std::string& description, int cases, Testable&& testable) {
  SECTION(description) {
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = std::min(params.maxSuccess, cases);
    rc::detail::TestMetadata metadata;
    metadata.id = metadata.description = description;
    const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata,
                                                  params);
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    INFO(ss.str());
    CHECK(result.template is<rc::detail::SuccessResult>());
  }
}

bool cmd_near(double got, double want, double tol) {
  return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
}

std::string verdict_text(int v) {
  return v > 0 ? "H1 accepted" : v < 0 ? "H0 accepted" : "continue";
}

nlohmann::json parse(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    RC_FAIL("not JSON (" + std::string(e.what()) + "): " + text.substr(0, 400));
  }
}

// The counts of a pair list, as in the match results model (A's half points).
std::array<std::uint64_t, 5> penta_of(const nlohmann::json& pairs) {
  std::array<std::uint64_t, 5> n{};
  for (const auto& p : pairs) {
    int sum = 0;
    for (const auto& g : p["games"]) {
      const std::string r = g["result"], a = g["a"];
      sum += r == "1/2-1/2" ? 1 : (r == "1-0") == (a == "white") ? 2 : 0;
    }
    ++n[std::size_t(sum)];
  }
  return n;
}

MatchDefinition make_def(std::uint64_t planned, int shards, GateSpec gate,
                         std::optional<SprtParams> sprt) {
  MatchDefinition d;
  d.config = "cmdmodel";
  d.engines = {EngineSpec{"new", "/opt/new/stk", {{"Hash", "16"}}},
               EngineSpec{"main", "/opt/main/stk", {{"Hash", "16"}}}};
  d.time_control = "10+0.1";
  d.settings = {{"adjudication", "none"}};
  d.openings_file = "book.epd";
  d.openings_seed = 7;
  d.pairs_planned = planned;
  d.shard_count = shards;
  d.sprt = sprt;
  d.gate = gate;
  return d;
}

PairRecord gen_pair(std::uint64_t opening) {
  const bool white_first = *rc::gen::arbitrary<bool>();
  auto game = [](Color a) {
    return GameRecord{a, *rc::gen::element<std::string>("1-0", "0-1", "1/2-1/2", "1-0"),
                      "checkmate", *rc::gen::inRange(10, 200)};
  };
  return PairRecord{opening,
                    {game(white_first ? Color::White : Color::Black),
                     game(white_first ? Color::Black : Color::White)}};
}

// MODEL cmd-sprt
// checks: harness/src/commands/sprt/sprt_command.cpp  (stk-harness sprt: the figures and verdict of counts given on the command line)
// contract: docs/harnesses/sprt.md#recheck-any-report
// planted: ci/mutants/model-cmd-sprt.patch  (--pentanomial read with DW and DD+WL swapped)
TEST_CASE("stk-harness sprt prints the model's figures and verdict for generated counts",
          "[model][cli]") {
  prop_cases("--json figures and verdict equal the model", 40, [] {
    std::array<std::uint64_t, 5> n{};
    for (auto& k : n)
      k = *rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(0, 5),
                          rc::gen::inRange<std::uint64_t>(0, 400));
    RC_PRE(n[0] + n[1] + n[2] + n[3] + n[4] > 0);
    const bool logistic = *rc::gen::arbitrary<bool>();
    const int e0 = *rc::gen::inRange(-20, 10), e1 = e0 + *rc::gen::inRange(1, 30);
    std::ostringstream cmd;
    cmd << harness_bin() << " sprt --pentanomial " << n[0] << "," << n[1] << "," << n[2] << ","
        << n[3] << "," << n[4] << " --elo0 " << e0 << " --elo1 " << e1 << " --model "
        << (logistic ? "logistic" : "normalized") << " --json";
    const auto r = run_command(cmd.str());
    RC_ASSERT(r.exit_code == 0);
    const auto j = parse(r.output);
    const model::Law law = model::penta_law(n);
    const model::Estimate e = model::estimate(law);
    const auto& pe = j["pentanomial_estimate"];
    RC_ASSERT(j["pairs"].get<std::uint64_t>() == n[0] + n[1] + n[2] + n[3] + n[4]);
    RC_ASSERT(cmd_near(pe["score"].get<double>(), e.score, 1e-12));
    RC_ASSERT(cmd_near(pe["elo"].get<double>(), e.elo, 1e-9));
    RC_ASSERT(cmd_near(pe["elo_lower"].get<double>(), e.lower, 1e-9));
    RC_ASSERT(cmd_near(pe["elo_upper"].get<double>(), e.upper, 1e-9));
    RC_ASSERT(cmd_near(pe["los"].get<double>(), e.los, 1e-9));
    RC_ASSERT(cmd_near(pe["nelo"].get<double>(), e.nelo, 1e-8));
    const double l = model::llr(law, e0, e1,
                                logistic ? model::Unit::Logistic : model::Unit::Normalized);
    const auto& s = j["sprt"];
    RC_ASSERT(cmd_near(s["llr"].get<double>(), l, 1e-7));
    RC_ASSERT(cmd_near(s["upper_bound"].get<double>(), model::upper_bound(0.05, 0.05), 1e-15));
    RC_ASSERT(cmd_near(s["lower_bound"].get<double>(), model::lower_bound(0.05, 0.05), 1e-15));
    if (std::abs(std::abs(l) - model::upper_bound(0.05, 0.05)) > 1e-7)
      RC_ASSERT(s["verdict"].get<std::string>() == verdict_text(model::decide(l, 0.05, 0.05)));
  });
}

// MODEL cmd-sprt-sim
// checks: harness/src/commands/sprt-sim/sprt_sim_command.cpp  (stk-harness sprt-sim: error rates, Wilson intervals, the within-design verdict)
// contract: docs/harnesses/sprt-sim.md#measured-error-rates
// planted: ci/mutants/model-cmd-sprt-sim.patch  (within design judged on the measured rate instead of its Wilson lower bound)
TEST_CASE(
    "stk-harness sprt-sim reports the model's rates and verdict and each run equals a run alone",
    "[model][cli]") {
  // Few runs per truth and design rates of 25%, so that wrong verdicts are common and their rate is
  // often above the design rate while its Wilson interval still reaches it (the case that tells the
  // interval from the point estimate: 4 of 12 is 33%, Wilson [14%, 61%], within design).
  const int runs = 12;
  for (const int seed : {1, 2, 3, 4, 5, 6}) {
    CAPTURE(seed);
    const std::string base = harness_bin() +
                             " sprt-sim --elo0 0 --elo1 40 --alpha 0.25 --beta 0.25 --runs " +
                             std::to_string(runs) + " --json";
    const auto all = run_command(base + " --seed " + std::to_string(seed));
    REQUIRE((all.exit_code == 0 || all.exit_code == 1));
    const auto j = nlohmann::json::parse(all.output);
    bool ok = true;
    for (const char* truth : {"elo0", "elo1"}) {
      const auto& t = j[truth];
      const int h0 = t["accepted_h0"], h1 = t["accepted_h1"], und = t["undecided"];
      CHECK(h0 + h1 + und == runs);
      const int wrong = std::string(truth) == "elo0" ? h1 : h0;
      CHECK(t["error_rate"].get<double>() == Approx(double(wrong) / runs).epsilon(1e-15));
      const auto [lo, hi] = model::wilson(std::uint64_t(wrong), runs, model::phi_quantile(0.975));
      CHECK(t["error_wilson95"][0].get<double>() == Approx(lo).margin(1e-12));
      CHECK(t["error_wilson95"][1].get<double>() == Approx(hi).margin(1e-12));
      const bool within = lo <= 0.25;  // the design rate (alpha, beta)
      CHECK(t["within_design"].get<bool>() == within);
      ok = ok && within;
      // The strength of the simulated law is the target (nElo of its pair law, g = 2).
      std::vector<double> p = t["pentanomial_p"];
      model::Law law;
      law.a = {0, 0.25, 0.5, 0.75, 1};
      law.p = p;
      law.n = 1;
      law.games_per_sample = 2;
      CHECK(model::estimate(law).nelo == Approx(t["target"].get<double>()).margin(1e-6));
    }
    CHECK(j["within_design"].get<bool>() == ok);
    CHECK(all.exit_code == (ok ? 0 : 1));
    // Run r of a batch is the single run seeded seed + r: the batch's counts and pairs are the
    // sum and the mean of the single runs.
    if (seed > 2) continue;
    const char* truths[2] = {"elo0", "elo1"};
    int h0[2] = {0, 0}, h1[2] = {0, 0};
    double pairs[2] = {0, 0};
    std::vector<double> used[2];
    for (int r = 0; r < runs; ++r) {
      const auto one = run_command(
          harness_bin() +
          " sprt-sim --elo0 0 --elo1 40 --alpha 0.25 --beta 0.25 --runs 1 --json --seed " +
          std::to_string(seed + r));
      const auto oj = nlohmann::json::parse(one.output);
      for (int t = 0; t < 2; ++t) {
        const auto& x = oj[truths[t]];
        h0[t] += x["accepted_h0"].get<int>(), h1[t] += x["accepted_h1"].get<int>();
        pairs[t] += x["mean_pairs"].get<double>();
        used[t].push_back(x["mean_pairs"].get<double>());
      }
    }
    for (int t = 0; t < 2; ++t) {
      const auto& x = j[truths[t]];
      CHECK(x["accepted_h0"].get<int>() == h0[t]);
      CHECK(x["accepted_h1"].get<int>() == h1[t]);
      CHECK(x["mean_pairs"].get<double>() == Approx(pairs[t] / runs).epsilon(1e-12));
      std::sort(used[t].begin(), used[t].end());
      CHECK(x["median_pairs"].get<double>() == used[t][std::size_t(runs / 2)]);
      CHECK(x["max_pairs"].get<double>() == used[t].back());
    }
  }
}

// MODEL cmd-match-merge
// checks: harness/src/commands/match-merge/match_merge_command.cpp  (stk-harness match-merge: the merged counts and the gate's exit code)
// contract: docs/match-results.md#6-merging-the-gate-junit
// planted: ci/mutants/model-cmd-match-merge.patch  (the last file given is left out of the merge)
TEST_CASE(
    "stk-harness match-merge and merge add generated shard files and exit by the model's gate",
    "[model][cli]") {
  const auto dir = stk::test::scratch_dir("match-merge-model");
  int run = 0;
  prop_cases("merged counts, pairs and exit code equal the model, whatever the file order", 8, [&] {
    const auto d = dir / std::to_string(run++);
    std::filesystem::create_directories(d);
    const int count = *rc::gen::inRange(2, 5);
    const std::uint64_t planned = *rc::gen::inRange<std::uint64_t>(count, 24);
    const bool gain = *rc::gen::arbitrary<bool>();
    const SprtParams sp{0, 200, 0.05, 0.05, EloModel::Logistic};
    const double bar = *rc::gen::inRange(-400, 100);
    const MatchDefinition def = gain ? make_def(planned, count, {GateMode::Gain, std::nullopt}, sp)
                                     : make_def(planned, count, {GateMode::NonRegression, bar},
                                                std::nullopt);
    std::vector<std::string> files;
    std::set<int> shards;
    std::array<std::uint64_t, 5> want{};
    std::vector<std::uint64_t> openings;
    for (int s = 1; s <= count; ++s) {
      if (s > 1 && *rc::gen::inRange(0, 4) == 0) continue;  // a partial set of shards
      shards.insert(s);
      MatchResult part(def, {s});
      for (std::uint64_t i = std::uint64_t(s - 1); i < planned; i += std::uint64_t(count)) {
        if (i > 0 && *rc::gen::inRange(0, 5) == 0) continue;  // opening 0 always
        const PairRecord p = gen_pair(i);
        part.add_pair(p);
        ++want[std::size_t(p.score())];
        openings.push_back(i);
      }
      files.push_back((d / ("shard" + std::to_string(s) + ".json")).string());
      save_match_result(files.back(), part);
    }
    std::uint64_t pairs = 0;
    for (auto k : want) pairs += k;
    RC_PRE(pairs > 0);
    std::sort(openings.begin(), openings.end());
    // The model's gate.
    const model::Law law = model::penta_law(want);
    int expect = 0;
    if (gain) {
      const double l = model::llr(law, sp.elo0, sp.elo1, model::Unit::Logistic);
      RC_PRE(std::abs(std::abs(l) - model::upper_bound(0.05, 0.05)) > 1e-6);
      expect = model::decide(l, 0.05, 0.05) == 1 ? 0 : 1;
    } else {
      const double lower = model::estimate(law).lower;
      RC_PRE(std::abs(lower - bar) > 1e-6);
      expect = lower > bar ? 0 : 1;
    }
    auto merged_by = [&](const std::string& cmd, std::vector<std::string> fs,
                         const std::string& out) {
      std::string c = harness_bin() + " " + cmd + " --quiet --out-dir " + (d / out).string() +
                      " merged";
      for (const auto& f : fs) c += " " + f;
      const auto r = run_command(c);
      if (r.exit_code != expect)
        RC_FAIL(cmd + " exit " + std::to_string(r.exit_code) + ", model " + std::to_string(expect) +
                ": " + r.output);
      auto j = parse(stk::test::read_file(d / out / "match" / "merged.json"));
      j.erase("report");  // the run report's envelope (timings)
      return j;
    };
    const auto j = merged_by("match-merge", files, "a");
    RC_ASSERT(j["counts"]["pentanomial"].get<std::vector<std::uint64_t>>() ==
              std::vector<std::uint64_t>(want.begin(), want.end()));
    RC_ASSERT(penta_of(j["pairs"]) == want);
    std::vector<std::uint64_t> got_openings;
    for (const auto& p : j["pairs"]) got_openings.push_back(p["opening"]);
    RC_ASSERT(got_openings == openings);
    RC_ASSERT(j["shards"].get<std::set<int>>() == shards);
    // Reversed file order, and `merge` (which hands match files to match-merge): the same file.
    std::vector<std::string> rev(files.rbegin(), files.rend());
    RC_ASSERT(merged_by("match-merge", rev, "b") == j);
    RC_ASSERT(merged_by("merge", rev, "c") == j);
  });
}

// MODEL cmd-merge
// checks: harness/src/commands/merge/merge_command.cpp  (stk-harness merge given match result files: the match merge, wherever the files stand)
// contract: docs/harnesses/merge.md#what-it-proves
// planted: ci/mutants/model-cmd-merge.patch  (only the first argument looked at for a match result file)
TEST_CASE("stk-harness merge of match shards equals match-merge with options first or last",
          "[model][cli]") {
  const auto d = stk::test::scratch_dir("merge-model");
  const MatchDefinition def = make_def(6, 2, {GateMode::NonRegression, -1000.0}, std::nullopt);
  MatchResult a(def, {1}), b(def, {2});
  a.add_pair(
      {0, {GameRecord{Color::White, "1-0", "x", 40}, GameRecord{Color::Black, "0-1", "x", 41}}});
  b.add_pair(
      {1,
       {GameRecord{Color::Black, "1/2-1/2", "x", 80}, GameRecord{Color::White, "0-1", "x", 61}}});
  save_match_result((d / "a.json").string(), a);
  save_match_result((d / "b.json").string(), b);
  const std::string files = (d / "a.json").string() + " " + (d / "b.json").string();
  // Pentanomial: pair 0 WW (4), pair 1 D + L = 1 (LD); lower95 is far above -1000: passes.
  for (const std::string& args :
       {"--out-dir " + (d / "x").string() + " --quiet merged " + files,
        "merged " + files + " --out-dir " + (d / "x").string() + " --quiet",
        files + " --quiet --out-dir " + (d / "x").string()}) {
    CAPTURE(args);
    const auto r = run_command(harness_bin() + " merge " + args);
    CHECK(r.exit_code == 0);
    const std::string stem = args.find("merged") != std::string::npos ? "merged" : "cmdmodel";
    const auto text = stk::test::read_file(d / "x" / "match" / (stem + ".json"));
    REQUIRE(!text.empty());
    const auto j = nlohmann::json::parse(text);
    CHECK(j["counts"]["pentanomial"].get<std::vector<int>>() == std::vector<int>{0, 1, 0, 0, 1});
    CHECK(j["counts"]["wdl"]["w"] == 2);
    CHECK(j["counts"]["wdl"]["d"] == 1);
    CHECK(j["counts"]["wdl"]["l"] == 1);
    std::filesystem::remove_all(d / "x");
  }
  // --quiet prints only the verdict line: the line the full output prints last before its
  // "reports:" line (the closing draw: the quiet cut one byte off printed an empty line).
  const std::string out = " --out-dir " + (d / "q").string() + " merged " + files;
  const auto full = run_command(harness_bin() + " match-merge" + out);
  const auto quiet = run_command(harness_bin() + " match-merge --quiet" + out);
  REQUIRE(full.exit_code == 0);
  REQUIRE(quiet.exit_code == 0);
  const auto at = full.output.find("\nreports: ");
  REQUIRE(at != std::string::npos);
  const std::string verdict = full.output.substr(full.output.rfind('\n', at - 1) + 1,
                                                 at - full.output.rfind('\n', at - 1));
  CHECK(quiet.output == verdict);
  CHECK(verdict.size() > 1);
}

// MODEL cmd-match
// checks: harness/src/commands/match/match_runner.cpp  (stk-harness match: an unsharded run stops at the pair whose SPRT decides, and exits by the gate)
// contract: docs/harnesses/match.md#self-play
// planted: ci/mutants/model-cmd-match.patch  (the run stops early only when H1 is accepted)
TEST_CASE(
    "stk-harness match stops exactly at the pair the model's SPRT decides in both engine orders",
    "[model][cli]") {
  const auto d = stk::test::scratch_dir("match-model");
  // A short book: pair i plays opening i mod 3.
  stk::test::write_file(d / "book.epd",
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n"
                        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n");
  const std::string stk = stk::test::engine_bin();
  const std::string fake = stk::test::binary_dir() + "/harness/stk-fake-uci";
  struct Case {
    std::string a, b;
    int elo0, elo1;
    int exit;
  };
  // stk at 1000 nodes against an engine that plays its first legal move: A wins (H1, gain passes),
  // or with the engines swapped and the hypothesis mirrored, A loses (H0, gain fails).
  for (const Case& c :
       {Case{stk, fake, 0, 300, 0}, Case{fake, stk, -300, 0, 1}, Case{stk, fake, 0, 500, 0}}) {
    CAPTURE(c.a, c.elo1);
    const std::string out =
        (d / ("out" + std::to_string(c.elo1) + c.a.substr(c.a.size() - 3))).string();
    const auto r = run_command(
        harness_bin() + " match --engine cmd=" + c.a + " name=a --engine cmd=" + c.b +
        " name=b --nodes 1000 --pairs 24 --maxmoves 100 --openings " + (d / "book.epd").string() +
        " --sprt elo0=" + std::to_string(c.elo0) + " elo1=" + std::to_string(c.elo1) +
        " model=logistic --quiet --config m --out-dir " + out);
    CHECK(r.exit_code == c.exit);
    const auto j = nlohmann::json::parse(stk::test::read_file(out + "/match/m.json"));
    // The model: the SPRT after each recorded pair (in opening order); the run must stop at the
    // first pair where it decides, and not one pair before.
    std::array<std::uint64_t, 5> n{};
    int decided_at = -1, v = 0;
    std::size_t k = 0;
    for (const auto& p : j["pairs"]) {
      const auto one = penta_of(nlohmann::json::array({p}));
      for (int i = 0; i < 5; ++i) n[std::size_t(i)] += one[std::size_t(i)];
      v = model::decide(model::llr(model::penta_law(n), c.elo0, c.elo1, model::Unit::Logistic),
                        0.05, 0.05);
      CHECK(p["opening"].get<std::size_t>() == k);
      ++k;
      if (v != 0) {
        decided_at = int(k);
        break;
      }
    }
    REQUIRE(decided_at > 0);
    CHECK(j["pairs"].size() == std::size_t(decided_at));
    CHECK(v == (c.exit == 0 ? 1 : -1));
  }
}

}  // namespace match_commands_model_test
