#include <catch2/catch.hpp>

#include "commands/accumulator/accumulator_checks.h"
#include "commands/accumulator/planted_defects.h"
#include "nets/synthetic_net.h"
#include "nnue/accumulator.h"

using namespace stk;
using namespace stk::nnue;
using harness::NetStyle;

namespace {

// An independent integer oracle written from SPEC-NNUE.md straight onto the file bytes (its own
// offsets and decoding, wide sums wrapped as the spec says), to check the loader and the layers.
struct FileOracle {
  const std::vector<std::uint8_t>& b;
  std::size_t H;
  std::int64_t le(std::size_t off, int bytes) const {
    std::uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= std::uint64_t(b[off + std::size_t(k)]) << (8 * k);
    std::uint64_t sign = 1ULL << (8 * bytes - 1);
    return std::int64_t(v ^ sign) - std::int64_t(sign);  // sign-extend
  }
  static std::int64_t wrap(std::int64_t v, int bits) {
    std::int64_t m = std::int64_t(1) << bits, h = m / 2;
    return ((v + h) % m + m) % m - h;
  }
  EvalParts eval(const Position& pos) const {
    const std::size_t ft_w = 25, ft_b = ft_w + 2 * 22528 * H, psqt = ft_b + 2 * H,
                      dense = psqt + 4 * 22528 * 8, per_bucket = 16 * H + 64 + 512 + 128 + 32 + 4;
    std::vector<std::int64_t> acc[2], ps[2];
    for (Color c : {WHITE, BLACK}) {
      acc[c].assign(H, 0);
      ps[c].assign(8, 0);
      for (std::size_t j = 0; j < H; ++j) acc[c][j] = le(ft_b + 2 * j, 2);
      for (int f : active_features(pos, c)) {
        for (std::size_t j = 0; j < H; ++j) acc[c][j] += le(ft_w + 2 * (std::size_t(f) * H + j), 2);
        for (std::size_t k = 0; k < 8; ++k) ps[c][k] += le(psqt + 4 * (std::size_t(f) * 8 + k), 4);
      }
      for (auto& v : acc[c]) v = wrap(v, 16);
      for (auto& v : ps[c]) v = wrap(v, 32);
    }
    int bucket = std::clamp((popcount(pos.pieces()) - 1) / 4, 0, 7);
    Color us = pos.side_to_move();
    std::vector<std::int64_t> in;
    for (Color c : {us, ~us})
      for (std::size_t j = 0; j < H / 2; ++j)
        in.push_back((std::clamp<std::int64_t>(acc[c][j], 0, 127) *
                      std::clamp<std::int64_t>(acc[c][j + H / 2], 0, 127)) >>
                     7);
    std::size_t o = dense + std::size_t(bucket) * per_bucket;
    auto layer = [&](const std::vector<std::int64_t>& x, std::size_t outs, bool relu) {
      std::size_t w = o, bias = o + outs * x.size();
      std::vector<std::int64_t> y(outs);
      for (std::size_t i = 0; i < outs; ++i) {
        std::int64_t s = le(bias + 4 * i, 4);
        for (std::size_t j = 0; j < x.size(); ++j) s += le(w + i * x.size() + j, 1) * x[j];
        s = wrap(s, 32);
        y[i] = relu ? std::clamp<std::int64_t>(s >> 6, 0, 127) : s;
      }
      o = bias + 4 * outs;
      return y;
    };
    auto h1 = layer(in, 16, true);
    auto h2 = layer(h1, 32, true);
    auto out = layer(h2, 1, false);
    EvalParts e;
    e.bucket = bucket;
    e.positional = int(out[0] >> 4);
    e.psqt = int((ps[us][std::size_t(bucket)] - ps[~us][std::size_t(bucket)]) >> 4);
    e.eval = e.positional + e.psqt;
    return e;
  }
};

const std::vector<std::string>& sample() {
  static const auto fens = harness::sample_positions(11, 300);
  return fens;
}

}  // namespace

TEST_CASE("the engine matches an independent oracle written on the file bytes",
          "[nnue][inference]") {
  for (NetStyle style : {NetStyle::Typical, NetStyle::Extreme}) {
    auto bytes = harness::synthetic_net_bytes(128, harness::kDefaultNetSeed, style);
    auto net = harness::synthetic_network(128, harness::kDefaultNetSeed, style);
    FileOracle oracle{*bytes, 128};
    for (std::size_t i = 0; i < 60; ++i) {
      Position p;
      REQUIRE_FALSE(p.set(sample()[i]));
      INFO(sample()[i]);
      CHECK(evaluate_refresh<Simd::Scalar>(*net, p) == oracle.eval(p));
      CHECK(evaluate_refresh<kBestSimd>(*net, p) == oracle.eval(p));
    }
  }
}

TEST_CASE("scalar and AVX2 kernels give identical results", "[nnue][inference][simd]") {
  if (!kHasAvx2) {
    WARN("this build has no AVX2 kernels: nothing to compare");
    return;
  }
  for (int hidden : {128, 1024})
    for (NetStyle style : {NetStyle::Typical, NetStyle::Extreme}) {
      auto net = harness::synthetic_network(hidden, harness::kDefaultNetSeed, style);
      auto r = harness::compare_evaluators(
          sample(), [&](const Position& p) { return evaluate_refresh<Simd::Scalar>(*net, p); },
          [&](const Position& p) { return evaluate_refresh<Simd::Avx2>(*net, p); });
      INFO("hidden " << hidden << ": " << r.first_failure);
      CHECK(r.compared == sample().size());
      CHECK(r.mismatches == 0);
    }
  // Incremental AVX2 and incremental scalar stacks agree too (accumulator add/sub kernels).
  auto net = harness::synthetic_network(128, harness::kDefaultNetSeed, NetStyle::Extreme);
  Position pos;
  pos.set(harness::walk_start_fens()[1]);
  BasicAccumulatorStack<DefaultAccumulatorPolicy, Simd::Scalar> scalar;
  BasicAccumulatorStack<DefaultAccumulatorPolicy, Simd::Avx2> avx2;
  scalar.reset(pos, *net);
  avx2.reset(pos, *net);
  harness::SplitMix rng(3);
  for (int i = 0; i < 40; ++i) {
    MoveList list(pos);
    if (list.size() == 0) break;
    pos.make_move(list.begin()[rng.below(list.size())].move);
    scalar.push(pos.state().dirty);
    avx2.push(pos.state().dirty);
    REQUIRE(scalar.evaluate(pos) == avx2.evaluate(pos));
  }
}

TEST_CASE("colour and horizontal mirrors leave the evaluation unchanged",
          "[nnue][inference][mirror]") {
  for (int hidden : {128, 1024}) {
    auto net = harness::synthetic_network(hidden);
    harness::Evaluator eval = [&](const Position& p) { return evaluate_refresh(*net, p); };
    auto colour = harness::check_colour_mirror(sample(), eval);
    INFO(colour.first_failure);
    CHECK(colour.compared == sample().size());
    CHECK(colour.mismatches == 0);
    auto files = harness::check_horizontal_mirror(sample(), eval);
    INFO(files.first_failure);
    CHECK(files.compared > 100);
    CHECK(files.mismatches == 0);
  }
}

TEST_CASE("planted evaluator defects are caught by the SIMD and mirror checks",
          "[nnue][inference][planted]") {
  auto net = harness::synthetic_network(128);
  harness::Evaluator good = [&](const Position& p) {
    return evaluate_refresh<Simd::Scalar>(*net, p);
  };
  auto clamp = harness::compare_evaluators(sample(), good, [&](const Position& p) {
    return harness::eval_planted_no_low_clamp(*net, p);
  });
  CHECK(clamp.mismatches > 0);
  auto white = harness::check_colour_mirror(sample(), [&](const Position& p) {
    return harness::eval_planted_white_relative(*net, p);
  });
  CHECK(white.mismatches > 0);
  auto files = harness::check_horizontal_mirror(sample(), [&](const Position& p) {
    return harness::eval_planted_no_file_mirror(*net, p);
  });
  CHECK(files.mismatches > 0);
}

TEST_CASE("eval is positional + psqt and psqt is side-to-move relative", "[nnue][inference]") {
  auto net = harness::synthetic_network(128);
  Position p;
  REQUIRE_FALSE(p.set("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1"));  // white far ahead in material
  EvalParts w = evaluate_refresh(*net, p);
  CHECK(w.eval == w.positional + w.psqt);
  CHECK(w.psqt > 1000);  // synthetic PSQT rows carry material values
  REQUIRE_FALSE(p.set("4k3/8/8/8/8/8/8/QQQQK3 b - - 0 1"));
  CHECK(evaluate_refresh(*net, p).psqt < -1000);
}
