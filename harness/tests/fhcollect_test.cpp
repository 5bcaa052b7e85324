// The fail-high predictor: model file and integer inference, the collection build's records,
// and the collection policy's zero effect on the search where it logs nothing.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "cli_support.h"
#include "cli/cli.h"
#include "fail_high/collect_policy.h"
#include "fail_high/record_file.h"
#include "search/search.h"
#include "notation.h"
#include "search/worker.h"

using namespace stk;
using Catch::Matchers::Contains;
namespace fh = search::fh;
namespace fc = harness::fhcollect;

namespace {

std::string builtin_text() {
  std::ifstream f(test::source_dir() + "/engine/src/search/fhmodel_default.txt");
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// A policy that logs nothing: the collection build must then search exactly like the normal one.
struct SilentCollect : fc::CollectPolicy {
  long fh_begin_node(int) { return -1; }
};

// A policy that logs every gate node and checks each move record's move against gate 1 (the
// population the model is consulted on; a broader one overstates fail-high risk many times).
struct GateCheckingCollect : fc::CollectPolicy {
  long fh_begin_node(int) { return long(next_node++); }
  long moves = 0, nodes = 0;
  std::vector<std::string> violations;
  template <class P, class I>
  void fh_record(const P& pos, long, Move m, const I& in, bool, int, int, int) {
    if (m == Move::none()) {
      ++nodes;
      return;
    }
    ++moves;
    auto bad = [&](const char* why) {
      violations.push_back(pos.fen() + " " + to_uci(m) + ": " + why);
    };
    if (pos.in_check()) bad("node in check");
    if (pos.gives_check(m)) bad("move gives check");
    if (pos.is_capture_or_promotion(m) && pos.see_ge(m, 0))
      bad("not quiet and not a losing capture");
    if (in.side != fh::kAlpha || in.legal < 2 || in.ordinal < 1)
      bad("not an alpha-side node with a choice");
  }
};

}  // namespace

TEST_CASE("lg is the contract's piecewise-linear log2", "[fhmodel]") {
  CHECK(fh::lg(1) == 0);
  CHECK(fh::lg(2) == 256);
  CHECK(fh::lg(3) == 384);
  CHECK(fh::lg(5) == 512 + 64);
  CHECK(fh::lg(7) == 512 + 192);
  CHECK(fh::lg(1024) == 2560);
}

TEST_CASE("the built-in model parses and predicts by the integer formula", "[fhmodel]") {
  const fh::Model& m = fh::Model::builtin();
  fh::Inputs in;
  in.side = fh::kAlpha;
  in.depth = 4, in.gap = 100, in.tier = fh::kQuiet, in.ordinal = 6, in.legal = 30;
  std::int32_t f[fh::kFeatureCount];
  fh::features(in, f);
  std::int64_t acc = m.weights(fh::kAlpha)[0];
  for (int i = 0; i < fh::kFeatureCount; ++i)
    acc += std::int64_t(m.weights(fh::kAlpha)[i + 1]) * f[i];
  const std::int64_t idx = std::clamp<std::int64_t>((acc >> m.shift()) + 1024, 0, 2047);
  CHECK(m.predict(in) == m.lut_at(int(idx)));
  // The built-in LUT is a sigmoid saturated at a fitted floor and ceiling (stktrain.fhfit): between
  // them it follows the logistic curve, so its midpoint sits at logit 0.
  CHECK(std::abs(int(m.lut_at(1024)) - 32768) < 400);
  CHECK(m.lut_at(0) < 64);
  CHECK(m.lut_at(2047) > 65535 - 1000);
}

TEST_CASE("the move-tier features are one-hot at 256, the flags 256 or 0", "[fhmodel]") {
  // The contract's scale (stkref.fhmodel.features): a one-hot feature is 256, never another
  // value, or the weights fitted in Python meet other inputs in C++ (planted: 256 made 257).
  const std::pair<fh::Tier, int> hot[] = {{fh::kNoMove, -1},
                                          {fh::kTableMove, 5},
                                          {fh::kCountermove, 6},
                                          {fh::kQuiet, -1},
                                          {fh::kLosingCapture, 7}};
  for (auto [tier, index] : hot) {
    fh::Inputs in;
    in.tier = tier;
    std::int32_t f[fh::kFeatureCount];
    fh::features(in, f);
    INFO("tier " << int(tier));
    for (int i : {5, 6, 7}) CHECK(f[i] == (i == index ? 256 : 0));
  }
  fh::Inputs flags;
  flags.whole_node = flags.improving = flags.opp_improving = flags.cut_node = true;
  std::int32_t f[fh::kFeatureCount];
  fh::features(flags, f);
  for (int i : {4, 9, 10, 11}) CHECK(f[i] == 256);
}

TEST_CASE("model files are rejected with file:line and loads are transactional", "[fhmodel]") {
  const std::string good = builtin_text();
  CHECK_NOTHROW(fh::Model::parse(good, "good"));
  CHECK_THROWS_WITH(fh::Model::parse(replace_once(good, "stk-fhmodel 1", "stk-fhmodel 2"), "m"),
                    Contains("version 2 out of range"));
  CHECK_THROWS_WITH(fh::Model::parse(replace_once(good, " gap_lg ", " gap "), "m"),
                    Contains("feature 'gap' where 'gap_lg' was expected"));
  CHECK_THROWS_WITH(fh::Model::parse(replace_once(good, "\nend", "\n1\nend"), "m"),
                    Contains("expected 'end'"));
  CHECK_THROWS_WITH(fh::Model::parse(good + "extra\n", "m"), Contains("trailing data"));
  // Planted defects in the lookup table: a decreasing entry, a value beyond 65535.
  auto with_first_lut_entry = [&](const std::string& value) {
    std::string t = good;
    const auto first = t.find("lut 2048\n") + 9;
    return t.replace(first, t.find(' ', first) - first, value);
  };
  CHECK_THROWS_WITH(fh::Model::parse(with_first_lut_entry("65535"), "m"),
                    Contains("lut entry 1 decreases"));
  CHECK_THROWS_WITH(fh::Model::parse(with_first_lut_entry("65536"), "m"),
                    Contains("lut entry 65536 out of range"));
  // The beta side cannot use the legal-move count (unknown before move generation).
  auto beta_at = good.find("\nbeta ");
  auto beta_end = good.find('\n', beta_at + 1);
  std::string beta_line = good.substr(beta_at, beta_end - beta_at);
  std::istringstream words(beta_line);
  std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
  w[2 + fh::kLegalLg] = "7";  // "beta", the bias, then the weights
  std::string bad_beta = "\n";
  for (const auto& x : w) bad_beta += (bad_beta.size() > 1 ? " " : "") + x;
  CHECK_THROWS_WITH(fh::Model::parse(replace_once(good, beta_line, bad_beta), "bad.txt"),
                    Contains("bad.txt:") && Contains("beta legal_lg weight must be 0"));

  search::Searcher s;
  auto dir = test::scratch_dir("fhmodel");
  test::write_file(dir / "ok.txt", replace_once(good, "\nalpha ", "\n# a loaded copy\nalpha "));
  test::write_file(dir / "bad.txt", replace_once(good, "\nshift 18\n", "\nshift 99\n"));
  std::string error;
  REQUIRE(s.load_fh_model((dir / "ok.txt").string(), &error));
  const fh::Model* loaded = s.fh_settings().model;
  REQUIRE(loaded != nullptr);
  CHECK_FALSE(s.load_fh_model((dir / "bad.txt").string(), &error));
  CHECK_THAT(error, Contains("bad.txt:") && Contains("shift 99 out of range"));
  CHECK(s.fh_settings().model == loaded);  // the previous model stays
}

TEST_CASE("collection records a tiny run with a forced mate, the C++ reader reads it back",
          "[fhcollect]") {
  auto dir = test::scratch_dir("fhcollect");
  test::write_file(
      dir / "pos.epd",
      "# a forced mate (Kc7 Ka7 Ra1#: mate in 2) and two middlegames\n"
      "k7/8/2K5/8/8/8/8/1R6 w - - id \"mate-in-2\";\n"
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - id \"scholar\";\n"
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id \"kiwipete\";\n");
  auto r = test::run_command(test::harness_bin() + " fhcollect --positions " +
                             (dir / "pos.epd").string() + " --depth 7 --seed 3 --out " +
                             (dir / "a.fhr").string() + " --out-dir " + dir.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(test::validate_junit((dir / "junit" / "fhcollect-default.xml").string()) == "");

  std::vector<fc::SegmentHeader> segs;
  auto recs = fc::read_records((dir / "a.fhr").string(), &segs);
  REQUIRE(segs.size() == 1);
  CHECK(segs[0].seed == 3);
  CHECK(segs[0].search_depth == 7);
  REQUIRE(recs.size() > 100);
  std::set<std::pair<std::uint32_t, std::uint32_t>> nodes, moves;
  std::set<std::uint32_t> positions;
  bool labels[2] = {false, false};
  for (const auto& rec : recs) {
    CHECK(std::abs(rec.static_eval) < search::kValueMateInMaxPly);
    CHECK(rec.prediction == fh::Model::builtin().predict(rec.in));
    CHECK(rec.weight == fc::CollectPolicy::weight_at(rec.in.depth, 6));
    if (rec.in.whole_node) nodes.insert({rec.position_id, rec.node_id});
    else {
      moves.insert({rec.position_id, rec.node_id});
      CHECK(rec.in.side == fh::kAlpha);
    }
    positions.insert(rec.position_id);
    labels[rec.label] = true;
  }
  // The mate in 2 contributes records until its mate is proven; the mate in 1 (Qxf7#) none: once
  // depth 1 finds it, every null-window node sits in the mate window, which is excluded.
  CHECK(positions == std::set<std::uint32_t>{0, 2});
  CHECK((labels[0] && labels[1]));
  for (auto& key : moves) CHECK(nodes.count(key) == 1);  // every move record has its node's record

  // Shards concatenate: two files are one file with two segments.
  auto r2 = test::run_command(test::harness_bin() + " fhcollect --positions " +
                              (dir / "pos.epd").string() + " --depth 5 --shard 1/2 --out " +
                              (dir / "b.fhr").string() + " --out-dir " + dir.string());
  REQUIRE(r2.exit_code == 0);
  auto b = fc::read_records((dir / "b.fhr").string());
  test::run_command("cat " + (dir / "a.fhr").string() + " " + (dir / "b.fhr").string() + " > " +
                    (dir / "ab.fhr").string());
  CHECK(fc::read_records((dir / "ab.fhr").string(), &segs).size() == recs.size() + b.size());
  CHECK(segs.size() == 2);
  CHECK(segs[1].shard_index == 0);
  CHECK(segs[1].shard_count == 2);
}

TEST_CASE("the record reader names the byte offset of malformed input", "[fhcollect]") {
  auto dir = test::scratch_dir("fhrecords-bad");
  fc::SegmentHeader h;
  {
    fc::RecordWriter w((dir / "ok.fhr").string(), h);
    fc::Record r;
    r.in.whole_node = true;
    w.write(r);
    r.in.whole_node = false, r.in.tier = fh::kQuiet, r.in.ordinal = 3;
    w.write(r);
    w.close();
  }
  std::ifstream in(dir / "ok.fhr", std::ios::binary);
  const std::string ok(std::istreambuf_iterator<char>(in), {});
  REQUIRE(ok.size() == 32 + 2 * 32);
  REQUIRE(fc::read_records((dir / "ok.fhr").string()).size() == 2);
  auto expect_error = [&](std::string bytes, const std::string& what) {
    test::write_file(dir / "bad.fhr", bytes);
    CHECK_THROWS_WITH(fc::read_records((dir / "bad.fhr").string()), Contains(what));
  };
  std::string s = ok;
  s[0] = 'X';
  expect_error(s, "byte 0: bad magic");
  expect_error(ok.substr(0, ok.size() - 1),
               "byte 24: segment declares 2 records but only 1 follow");
  s = ok, s[32 + 8] = 2;
  expect_error(s, "byte 40: side 2");
  s = ok, s[64 + 14] = 0;
  expect_error(s, "byte 78: move record without a move tier");
  s = ok, s[32 + 10] = 0;
  expect_error(s, "byte 42: depth 0");
  s = ok, s[8] = 9;
  expect_error(s, "byte 8: unsupported version 9");
  expect_error(ok + "STKFH", "byte 96: truncated segment header");
  expect_error("", "bad.fhr: byte 0: empty file (no segment header)");
  s = ok, s[10] = 31;
  expect_error(s, "byte 10: record size 31, expected 32");
}

TEST_CASE("the collection build searches exactly like the normal build where it logs nothing",
          "[fhcollect]") {
  // Zero cost by construction: the fail-high statistics it keeps and the gate it evaluates change
  // nothing unless a node is logged, so node counts are identical (the bench signature is the
  // normal build's own check).
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}) {
    Position a, b;
    a.set(fen), b.set(fen);
    search::FreshSearch normal(16), collect(16);
    search::NoPolicy none;
    SilentCollect silent;
    const auto ra = normal.run(a, none, 9, 0);
    const auto rb = collect.run(b, silent, 9, 0);
    CHECK(ra.nodes == rb.nodes);
    CHECK(ra.best == rb.best);
    CHECK(silent.nodes_seen == 0);  // the silent policy's own counter is never touched
  }
}

TEST_CASE("the predictor changes the search only when on, its thresholds matter", "[fhmodel]") {
  // Wiring check (fails if the LMR tiers or the static null move ignore the predictor).
  const char* fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  auto nodes = [&](bool on, int tier1, int tier2, int static_null) {
    search::Searcher s;
    s.fh_settings().enabled = on;
    s.fh_settings().lmr_tier1 = tier1, s.fh_settings().lmr_tier2 = tier2,
    s.fh_settings().static_null = static_null;
    Position pos;
    pos.set(fen);
    search::Limits l;
    l.depth = 9;
    return s.go(pos, l).nodes;
  };
  const auto off = nodes(false, 200, 50, 9900);
  CHECK(nodes(false, 10000, 10000, 0) == off);  // thresholds are inert while off
  const auto on = nodes(true, 200, 50, 9900);
  CHECK(on != off);
  CHECK(nodes(true, 10000, 10000, 9900) <
        nodes(true, 0, 0, 9900));  // every move reduced 2 more plies
  CHECK(nodes(true, 0, 0, 0) <
        nodes(true, 0, 0, 10000));  // static null at p >= 0: every beta node cut

  auto dir = test::scratch_dir("fh-options");
  test::write_file(dir / "one.epd", "k7/8/2K5/8/8/8/8/1R6 w - - bm Kb6; id \"m\";\n");
  auto bad = test::run_command(test::harness_bin() + " epd --epd " + (dir / "one.epd").string() +
                               " --depth 3 --option FHPredictor=maybe --out-dir " + dir.string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("FHPredictor must be true or false"));
  auto unknown = test::run_command(test::harness_bin() + " epd --epd " +
                                   (dir / "one.epd").string() +
                                   " --depth 3 --option Contempt=3 --out-dir " + dir.string());
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.output, Contains("takes no --option 'Contempt'"));
}

TEST_CASE("collection logs only the gate-1 population", "[fhcollect]") {
  // Planted defect (ci/mutants/fhcollect-logs-checks.patch): a gate that forgets "no check".
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
    Position pos;
    pos.set(fen);
    search::FreshSearch fresh(16);
    GateCheckingCollect policy;
    fresh.run(pos, policy, 7, 0);
    INFO(fen);
    CHECK(policy.moves > 100);
    CHECK(policy.nodes > 10);
    CHECK(policy.violations.empty());
    if (!policy.violations.empty()) WARN(policy.violations.front());
  }
}
