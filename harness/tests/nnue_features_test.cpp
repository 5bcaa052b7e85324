#include <algorithm>
#include <catch2/catch.hpp>

#include "cli_support.h"
#include "nnue/features.h"
#include "position.h"
#include "test_support.h"

using namespace stk;
using namespace stk::nnue;

namespace {
std::vector<int> features_of(const std::string& fen, Color c) {
  Position p;
  auto err = p.set(fen);
  INFO(fen << ": " << err.value_or(""));
  REQUIRE_FALSE(err);
  return active_features(p, c);
}
}  // namespace

TEST_CASE("spec test vectors: start position, white perspective", "[nnue][features]") {
  auto w = features_of(Position::kStartFen, WHITE);
  CHECK(w.size() == 31);
  CHECK(orientation(WHITE, parse_square("e1")).bucket == 3);  // e1 mirrors to d1
  CHECK(std::binary_search(w.begin(), w.end(), 2127));        // pawn a2 -> h2 (15)
  CHECK(std::binary_search(w.begin(), w.end(), 2120));        // pawn h2 -> a2 (8)
  CHECK(std::binary_search(w.begin(), w.end(), 2811));        // enemy king e8 -> d8, kind 10
  for (int f : w) CHECK(f / (64 * kNumKinds) == 3);           // every feature in bucket 3
}

TEST_CASE("spec test vectors: black perspective of the start position gives the same indices",
          "[nnue][features]") {
  CHECK(features_of(Position::kStartFen, BLACK) == features_of(Position::kStartFen, WHITE));
}

TEST_CASE("orientation: ranks flip for black, files mirror for a king on e-h", "[nnue][features]") {
  CHECK(orientation(WHITE, parse_square("a1")).xor_mask == 0);
  CHECK(orientation(WHITE, parse_square("a1")).bucket == 0);
  CHECK(orientation(WHITE, parse_square("h1")).xor_mask == 7);
  CHECK(orientation(WHITE, parse_square("h1")).bucket == 0);
  CHECK(orientation(WHITE, parse_square("d8")).bucket == 31);
  CHECK(orientation(WHITE, parse_square("e8")).bucket == 31);
  CHECK(orientation(BLACK, parse_square("a8")).xor_mask == 56);
  CHECK(orientation(BLACK, parse_square("a8")).bucket == 0);
  CHECK(orientation(BLACK, parse_square("h8")).xor_mask == (56 ^ 7));
  CHECK(orientation(BLACK, parse_square("e1")).bucket == 31);
  CHECK(orientation(BLACK, parse_square("c3")).bucket == 5 * 4 + 2);
}

TEST_CASE("hand-computed indices on positions that separate the perspectives", "[nnue][features]") {
  // White king g3 (files e-h: mirror), black king b6; white knight d4, black pawn h7.
  const std::string fen = "8/7p/1k6/8/3N4/6K1/8/8 w - - 0 1";
  // White: o = 7, k = g3^7 = b3 (17): bucket 2*4+1 = 9.
  //   knight d4 (27) kind 1 -> 27^7 = 28; pawn h7 (55) kind 5 -> 48; king b6 (41) kind 10 -> 46.
  std::vector<int> w = {(9 * 11 + 1) * 64 + 28, (9 * 11 + 5) * 64 + 48, (9 * 11 + 10) * 64 + 46};
  std::sort(w.begin(), w.end());
  CHECK(features_of(fen, WHITE) == w);
  // Black: o = 56, k = b6^56 = b3 (17), file b: no mirror, bucket 9.
  //   pawn h7 own kind 0 -> 55^56 = 15; knight d4 kind 6 -> 27^56 = 35; king g3 (22) kind 10 -> 46.
  std::vector<int> b = {(9 * 11 + 0) * 64 + 15, (9 * 11 + 6) * 64 + 35, (9 * 11 + 10) * 64 + 46};
  std::sort(b.begin(), b.end());
  CHECK(features_of(fen, BLACK) == b);
}

TEST_CASE("feature counts and ranges on tricky positions, colour mirror swaps the perspectives",
          "[nnue][features]") {
  for (const auto& fen : test::tricky_fens()) {
    Position p;
    REQUIRE_FALSE(p.set(fen));
    for (Color c : {WHITE, BLACK}) {
      auto f = active_features(p, c);
      CHECK(int(f.size()) == popcount(p.pieces()) - 1);
      CHECK(std::adjacent_find(f.begin(), f.end()) == f.end());
      CHECK(f.front() >= 0);
      CHECK(f.back() < kNumFeatures);
      CHECK(active_features(p.mirrored(), ~c) == f);
    }
  }
}

TEST_CASE("output bucket counts kings", "[nnue][features]") {
  Position p;
  REQUIRE_FALSE(p.set(Position::kStartFen));
  CHECK(output_bucket(p) == 7);
  REQUIRE_FALSE(p.set("8/8/8/8/8/8/8/K6k w - - 0 1"));
  CHECK(output_bucket(p) == 0);
  REQUIRE_FALSE(p.set("8/8/8/8/8/8/PPP5/K6k w - - 0 1"));  // 5 pieces: (5-1)/4 = 1
  CHECK(output_bucket(p) == 1);
}

TEST_CASE("stk features: JSON lines for FEN and EPD batches, a bad line names file and line",
          "[nnue][features][cli]") {
  auto dir = test::scratch_dir("nnue-features");
  test::write_file(dir / "ok.epd", std::string(Position::kStartFen) + "\n\n" +
                                       "8/7p/1k6/8/3N4/6K1/8/8 w - - bm Kf4; id \"x\";\n");
  auto r = test::run_command(test::engine_bin() + " features --batch " + (dir / "ok.epd").string());
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find(
            "{\"line\": 1, \"fen\": \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", "
            "\"white\": [") == 0);
  CHECK(
      r.output.find(
          "{\"line\": 3, \"fen\": \"8/7p/1k6/8/3N4/6K1/8/8 w - -\", \"white\": [6428, 6704, 7022], "
          "\"black\": [6351, 6755, 7022]}") != std::string::npos);
  test::write_file(dir / "bad.epd", std::string(Position::kStartFen) + "\nnot a fen at all\n");
  r = test::run_command(test::engine_bin() + " features --batch " + (dir / "bad.epd").string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("bad.epd:2:") != std::string::npos);
}
