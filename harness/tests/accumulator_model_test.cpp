// Independent model of the accumulator's mirror checks (docs/harnesses/accumulator.md, "The mirror
// checks (d)"): mirrors written here on the FEN text, and evaluators of known symmetry, so the
// counts of compared, skipped and mismatching positions are predicted.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "commands/accumulator/accumulator_checks.h"
#include "common/splitmix.h"
#include "movegen.h"
#include "position.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace accumulator_model_test {

using namespace stk;
using namespace stk::harness;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

std::vector<std::string> expand_ranks(const std::string& placement) {  // rank 8 first, 8 chars each
  std::vector<std::string> ranks;
  for (const auto& r : split(placement, '/')) {
    std::string row;
    for (char c : r)
      row += std::isdigit(static_cast<unsigned char>(c)) ? std::string(std::size_t(c - '0'), '.')
                                                         : std::string(1, c);
    ranks.push_back(row);
  }
  return ranks;
}

std::string pack(const std::vector<std::string>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    int empty = 0;
    for (char c : ranks[i]) {
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty), empty = 0;
      out += c;
    }
    if (empty) out += char('0' + empty);
    if (i + 1 < ranks.size()) out += '/';
  }
  return out;
}

std::vector<std::string> fields(const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  return f;
}

// The four EPD fields of the horizontal mirror.
std::string model_hflip(const std::string& fen) {
  const auto f = fields(fen);
  auto ranks = expand_ranks(f[0]);
  for (auto& r : ranks) r = std::string(r.rbegin(), r.rend());
  std::string ep = f[3];
  if (ep != "-") ep[0] = char('a' + ('h' - ep[0]));
  return pack(ranks) + " " + f[1] + " - " + ep;
}

// The colour mirror (six fields).
std::string model_cflip(const std::string& fen) {
  const auto f = fields(fen);
  auto ranks = expand_ranks(f[0]);
  std::vector<std::string> flipped(ranks.rbegin(), ranks.rend());
  for (auto& r : flipped)
    for (char& c : r)
      if (std::isalpha(static_cast<unsigned char>(c)))
        c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                        : char(std::toupper(c));
  std::string castling;
  for (char c : std::string("KQkq"))
    if (f[2].find(std::isupper(static_cast<unsigned char>(c))
                      ? char(std::tolower(c))
                      : char(std::toupper(c))) != std::string::npos)
      castling += c;
  std::string ep = f[3];
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return pack(flipped) + " " + (f[1] == "w" ? "b" : "w") + " " +
         (castling.empty() ? "-" : castling) + " " + ep + " " + f[4] + " " + f[5];
}

// An evaluator that sees files and ranks: a mirror changes it unless the position is symmetric.
nnue::EvalParts lopsided(const Position& pos) {
  const auto ranks = expand_ranks(fields(pos.fen())[0]);
  int v = 0;
  for (int r = 0; r < 8; ++r)
    for (int file = 0; file < 8; ++file)
      if (ranks[std::size_t(r)][std::size_t(file)] != '.')
        v += (file < 4 ? 1 : -1) * (r < 4 ? 3 : 1);
  return nnue::EvalParts{v, 0, 0, 0};
}
// Mirror-invariant: the material of the side to move minus the other's.
nnue::EvalParts material(const Position& pos) {
  const auto f = fields(pos.fen());
  int v = 0;
  for (char c : f[0])
    if (std::isalpha(static_cast<unsigned char>(c)) && std::tolower(c) != 'k')
      v += (bool(std::isupper(static_cast<unsigned char>(c))) == (f[1] == "w") ? 1 : -1);
  return nnue::EvalParts{v, 1, 2, 3};
}

std::vector<std::string> walk_fens(std::uint64_t seed, int count, bool strip_castling) {
  std::vector<std::string> fens = {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
                                   "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2"};
  SplitMix rng(seed);
  for (int i = 0; i < count; ++i) {
    Position pos;
    pos.set(Position::kStartFen);
    const int plies = int(rng.below(40));
    for (int p = 0; p < plies; ++p) {
      MoveList list(pos);
      if (list.size() == 0) break;
      pos.make_move(list.begin()[rng.below(list.size())].move);
    }
    auto f = fields(pos.fen());
    if (strip_castling && rng.chance(70)) f[2] = "-";
    fens.push_back(f[0] + " " + f[1] + " " + f[2] + " " + f[3] + " " + f[4] + " " + f[5]);
  }
  return fens;
}

}  // namespace

// MODEL accumulator-mirrors
// checks: harness/src/commands/accumulator/accumulator_checks.cpp  (the colour and horizontal mirror checks)
// contract: docs/harnesses/accumulator.md#the-mirror-checks-d
// planted: ci/mutants/model-accumulator-mirrors.patch  (the horizontal mirror keeps the en-passant file)
TEST_CASE("the accumulator's mirror checks count what a model of both mirrors predicts",
          "[model][accumulator]") {
  rc::prop("positions from seeded games, with and without castling rights", [] {
    const auto fens = walk_fens(*rc::gen::arbitrary<std::uint64_t>(), *rc::gen::inRange(1, 12),
                                true);
    std::uint64_t compared = 0, skipped = 0, mismatches = 0, cmis = 0;
    for (const auto& fen : fens) {
      Position pos;
      RC_ASSERT(!pos.set(fen));
      const auto f = fields(fen);
      if (f[2] != "-") {
        ++skipped;
      } else {
        ++compared;
        const std::string want = model_hflip(fen);
        const auto got = fields(flip_files_fen(pos));
        RC_ASSERT(got[0] + " " + got[1] + " " + got[2] + " " + got[3] == want);
        Position m;
        RC_ASSERT(!m.set(want + " 0 1"));
        if (!(lopsided(pos) == lopsided(m))) ++mismatches;
      }
      Position c;
      RC_ASSERT(!c.set(model_cflip(fen)));
      if (!(lopsided(pos) == lopsided(c))) ++cmis;
    }
    const auto h = check_horizontal_mirror(fens, lopsided);
    RC_ASSERT(h.compared == compared);
    RC_ASSERT(h.skipped == skipped);
    RC_ASSERT(h.mismatches == mismatches);
    const auto hc = check_colour_mirror(fens, lopsided);
    RC_ASSERT(hc.compared == fens.size());
    RC_ASSERT(hc.mismatches == cmis);
    // A mirror-invariant evaluator passes both.
    RC_ASSERT(check_horizontal_mirror(fens, material).mismatches == 0u);
    RC_ASSERT(check_colour_mirror(fens, material).mismatches == 0u);
  });
}

}  // namespace accumulator_model_test
