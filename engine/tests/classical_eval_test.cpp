// The classical evaluation's symmetries: colours swapped (ranks flipped, side to move flipped) and
// files mirrored (no castling rights, kings off their back rank) give the same score for the side to move. Every
// term is written once per colour through templates and tables, so a term that treats one colour
// or one wing differently breaks one of these; the mirrored boards are built from the FEN text
// here, not by the engine's own Position::mirrored().
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "eval/classical.h"
#include "movegen.h"
#include "position.h"
#include "test_support.h"

namespace {

using namespace stk;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

// Colours swapped: ranks in reverse order, piece letters' case swapped, the other side to move.
std::string colour_flipped(const std::string& fen) {
  auto f = split(fen, ' ');
  auto ranks = split(f[0], '/');
  std::reverse(ranks.begin(), ranks.end());
  std::string board;
  for (const auto& r : ranks) board += (board.empty() ? "" : "/") + r;
  auto swap_case = [](std::string s) {
    for (char& c : s)
      c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                      : char(std::toupper(c));
    return s;
  };
  std::string castling = f[2] == "-" ? "-" : swap_case(f[2]);
  std::sort(castling.begin(), castling.end());  // "KQkq" order: upper case first
  std::string ep = f[3] == "-" ? "-" : std::string{f[3][0], f[3][1] == '3' ? '6' : '3'};
  return swap_case(board) + " " + (f[1] == "w" ? "b" : "w") + " " + castling + " " + ep + " " +
         f[4] + " " + f[5];
}

// Files mirrored (a <-> h); only for boards without castling rights.
std::string file_mirrored(const std::string& fen) {
  auto f = split(fen, ' ');
  std::string board;
  for (const auto& r : split(f[0], '/'))
    board += (board.empty() ? "" : "/") + std::string(r.rbegin(), r.rend());
  std::string ep = f[3] == "-" ? "-" : std::string{char('a' + 'h' - f[3][0]), f[3][1]};
  return board + " " + f[1] + " " + f[2] + " " + ep + " " + f[4] + " " + f[5];
}

int eval_of(const std::string& fen) {
  Position pos;
  const auto error = pos.set(fen);
  INFO(fen << ": " << error.value_or(""));
  REQUIRE_FALSE(error);
  return eval::classical(pos);
}

}  // namespace

TEST_CASE("classical eval: the board text mirrors are right", "[eval]") {
  CHECK(colour_flipped("r3k2r/8/8/8/4P3/8/8/R3K2R b KQq e3 0 1") ==
        "r3k2r/8/8/4p3/8/8/8/R3K2R w Qkq e6 0 1");
  CHECK(file_mirrored("4k3/8/8/8/3pP3/8/8/1R2K3 b - e3 0 1") ==
        "3k4/8/8/8/3Pp3/8/8/3K2R1 b - d3 0 1");
}

// MODEL eval-classical-symmetry
// checks: engine/src/eval/classical.cpp  (the classical score under the colour and file mirrors)
// contract: docs/engine.md#evaluation
// planted: ci/mutants/model-eval-classical-symmetry.patch  (the passed-pawn bonus by absolute rank, not the pawn's own)
TEST_CASE("classical eval is symmetric under colour swap and file mirror", "[eval]") {
  int positions = 0, asymmetric_material = 0, file_mirrors = 0;
  test::walk_random_games(20261130, 300, 80, [&](const Position& pos, const MoveList&) {
    const std::string fen = pos.fen();
    const int v = eval::classical(pos);
    INFO(fen);
    REQUIRE(eval_of(colour_flipped(fen)) == v);
    // Files: the king's back-rank shelter deliberately favours the castled files (a-c, g-h).
    const bool kings_off_back_rank = relative_rank(WHITE, pos.king_square(WHITE)) != 0 &&
                                     relative_rank(BLACK, pos.king_square(BLACK)) != 0;
    if (pos.castling_rights() == 0 && kings_off_back_rank) {
      REQUIRE(eval_of(file_mirrored(fen)) == v);
      ++file_mirrors;
    }
    ++positions;
    asymmetric_material += pos.count(WHITE, PAWN) != pos.count(BLACK, PAWN);
  });
  CHECK(positions > 10000);
  CHECK(asymmetric_material > 1000);
  CHECK(file_mirrors > 1000);
}
