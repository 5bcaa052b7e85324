// Independent models of positions/: EPD lines built from generated positions and operations
// (docs/harnesses/epd.md), book order (Fisher-Yates driven by SplitMix64, docs/harnesses/match.md),
// position lists (docs/harnesses/fhcollect.md), and seeded games replayed from their seed alone.
#include <catch2/catch.hpp>

#include <cctype>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli_support.h"
#include "common/splitmix.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "positions/epd_suite.h"
#include "positions/openings.h"
#include "positions/position_list.h"
#include "positions/seeded_games.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace positions_model_test {

using namespace stk;
using namespace stk::harness;

namespace {

// A legal position `plies` random legal moves from the start (fewer if the game ends).
Position walked(std::uint64_t seed, int plies) {
  Position pos;
  pos.set(Position::kStartFen);
  SplitMix rng(seed);
  for (int i = 0; i < plies; ++i) {
    MoveList list(pos);
    if (list.size() == 0) break;
    pos.make_move(list.begin()[rng.below(list.size())].move);
  }
  return pos;
}

std::vector<std::string> fields(const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  return f;
}

std::string four_fields(const Position& pos) {
  const auto f = fields(pos.fen());
  return f[0] + " " + f[1] + " " + f[2] + " " + f[3];
}

struct Op {
  std::string opcode;
  std::vector<std::string> operands;
  bool quoted = false;
};

std::string render(const Op& op) {
  std::string s = op.opcode;
  for (const auto& o : op.operands) s += " " + (op.quoted ? "\"" + o + "\"" : o);
  return s + ";";
}

std::optional<epd::EpdPosition> parsed(const std::string& line) {
  try {
    return epd::parse_epd_line(line, "gen.epd", 7);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string write_file(const std::string& name, const std::string& text) {
  // One folder per file: the book and position-list tests run side by side under ctest -j, and
  // scratch_dir empties its folder (a shared one lost the other test's file mid-run).
  const auto dir = stk::test::scratch_dir("positions-model-" + name);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

// MODEL positions-epd-line
// checks: harness/src/positions/epd_suite.cpp  (an EPD line's position, counters, id, bm/am and operations)
// contract: docs/harnesses/epd.md#what-it-proves
// planted: ci/mutants/model-positions-epd-line.patch  (fmvn read into the half-move counter)
TEST_CASE("EPD lines parse to the position and counters and operations they were generated from",
          "[model][positions]") {
  rc::prop("generated lines, operations in any order, 4 or 6 fields", [] {
    Position pos = walked(*rc::gen::arbitrary<std::uint64_t>(), *rc::gen::inRange(0, 40));
    MoveList list(pos);
    RC_PRE(list.size() > 0);
    const auto f = fields(pos.fen());
    const int halfmove = std::stoi(f[4]);
    const int fullmove = *rc::gen::inRange(1, 300);
    std::vector<Op> ops;
    std::vector<std::string> bm, am;
    for (const ExtMove& e : list) {
      const int pick = *rc::gen::inRange(0, 8);
      if (pick == 0 && bm.size() < 3) bm.push_back(to_san(pos, e.move));
      else if (pick == 1 && am.size() < 3) am.push_back(to_san(pos, e.move));
    }
    if (bm.empty() && am.empty()) bm.push_back(to_san(pos, list.begin()->move));
    if (!bm.empty()) ops.push_back({"bm", bm});
    if (!am.empty()) ops.push_back({"am", am});
    const bool six = *rc::gen::arbitrary<bool>();
    const bool with_counters = *rc::gen::arbitrary<bool>();
    if (with_counters) {
      ops.push_back({"hmvc", {std::to_string(halfmove)}});
      ops.push_back({"fmvn", {std::to_string(fullmove)}});
    }
    const std::string id = *rc::gen::elementOf(std::vector<std::string>{"", "WAC.001", "a b c"});
    if (!id.empty()) ops.push_back({"id", {id}, true});
    if (*rc::gen::arbitrary<bool>()) ops.push_back({"c0", {"comment here"}, true});
    if (*rc::gen::arbitrary<bool>()) ops.push_back({"sd", {"7"}});
    // Reordered operations (a random permutation): they change nothing but their own order.
    auto order = ops;
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[std::size_t(*rc::gen::inRange<std::size_t>(0, i))]);
    std::string line = four_fields(pos);
    if (six) line += " " + std::to_string(halfmove) + " " + std::to_string(fullmove);
    for (const auto& op : order) line += " " + render(op);

    const auto got = parsed(line);
    RC_ASSERT(got.has_value());
    RC_ASSERT(got->fen == four_fields(pos));
    RC_ASSERT(got->halfmove == (six || with_counters ? halfmove : 0));
    RC_ASSERT(got->fullmove == (six || with_counters ? fullmove : 1));
    RC_ASSERT(got->id == id);
    RC_ASSERT(got->line == 7);
    RC_ASSERT(got->bm_san == bm);
    RC_ASSERT(got->am_san == am);
    RC_ASSERT(got->bm.size() == bm.size());
    RC_ASSERT(got->am.size() == am.size());
    for (std::size_t i = 0; i < bm.size(); ++i) RC_ASSERT(to_san(pos, got->bm[i]) == bm[i]);
    RC_ASSERT(got->ops.size() == order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      RC_ASSERT(got->ops[i].opcode == order[i].opcode);
      RC_ASSERT(got->ops[i].operands == order[i].operands);
    }
  });
  SECTION("both ways: hmvc/fmvn agreeing with the 6 fields, and one off") {
    const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 3 10";
    CHECK(parsed(fen + " bm e4; hmvc 3; fmvn 10;"));
    CHECK_FALSE(parsed(fen + " bm e4; hmvc 4; fmvn 10;"));
    CHECK_FALSE(parsed(fen + " bm e4; hmvc 3; fmvn 11;"));
    CHECK(parsed("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;"));
    CHECK_FALSE(parsed("4k3/8/8/8/8/8/4P3/4K3 w - - id \"x\";"));  // neither bm nor am
    CHECK_FALSE(parsed("4k3/8/8/8/8/8/4P3/4K3 w - - bm e5;"));     // not a legal move
  }
}

// MODEL positions-epd-opcodes
// checks: harness/src/positions/epd_suite.cpp  (which opcodes and counters a line may hold)
// contract: docs/harnesses/epd.md#epd-line-grammar
// planted: ci/mutants/model-positions-epd-opcodes.patch  (any character below '_' taken in an opcode)
TEST_CASE("an EPD line is refused exactly when an opcode or a counter breaks the grammar",
          "[model][positions]") {
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - -";
  rc::prop("generated opcodes: a letter, then letters, digits or _", [&] {
    const auto opcode = *rc::gen::nonEmpty(rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("aZk_09!#$%&*+-./:<=>?@[]^`{|}~"))));
    const bool valid = std::isalpha(static_cast<unsigned char>(opcode[0])) &&
                       opcode.find_first_not_of("aZk_09") == std::string::npos;
    RC_ASSERT(parsed(fen + " bm e4; " + opcode + " 1;").has_value() == valid);
  });
  rc::prop("generated counters: 1 to 6 digits, the fullmove number at least 1", [&] {
    const auto digits = *rc::gen::inRange(1, 13);
    std::string half(std::size_t(digits), '0'), full(std::size_t(digits), '0');
    for (auto& c : half) c = char('0' + *rc::gen::inRange(0, 10));
    for (auto& c : full) c = char('0' + *rc::gen::inRange(0, 10));
    const bool half_ok = digits <= 6;
    const bool full_ok = digits <= 6 && full.find_first_not_of('0') != std::string::npos;
    RC_ASSERT(parsed(fen + " " + half + " 1 bm e4;").has_value() == half_ok);
    RC_ASSERT(parsed(fen + " 0 " + full + " bm e4;").has_value() == full_ok);
    RC_ASSERT(parsed(fen + " bm e4; hmvc " + half + ";").has_value() == half_ok);
  });
  // Both ways at the smallest margins.
  CHECK(parsed(fen + " bm e4; a_9 1;"));
  CHECK_FALSE(parsed(fen + " bm e4; _a 1;"));
  CHECK_FALSE(parsed(fen + " bm e4; a^ 1;"));
  CHECK(parsed(fen + " 999999 1 bm e4;"));
  CHECK_FALSE(parsed(fen + " 1000000 1 bm e4;"));
  CHECK_FALSE(parsed(fen + " bm e4; fmvn 0;"));
}

// MODEL positions-book-order
// checks: harness/src/positions/openings.cpp  (a book read in file order, then shuffled by seed)
// contract: docs/harnesses/match.md#self-play
// planted: ci/mutants/model-positions-book-order.patch  (the shuffle's draw one short: j < i)
TEST_CASE("a book reads in file order and shuffles as Fisher-Yates driven by SplitMix64(mix64(S))",
          "[model][positions]") {
  rc::prop("generated EPD books", [] {
    const int n = *rc::gen::inRange(1, 12);
    std::vector<std::string> fens;
    std::string text;
    std::vector<int> lines;
    int line = 0;
    for (int i = 0; i < n; ++i) {
      if (*rc::gen::arbitrary<bool>()) text += "\n", ++line;  // blank lines are no openings
      Position pos = walked(std::uint64_t(i) * 7919 + 1, *rc::gen::inRange(0, 12));
      RC_PRE(MoveList(pos).size() > 0);
      fens.push_back(pos.fen());
      const bool six = *rc::gen::arbitrary<bool>();
      text += (six ? pos.fen() : four_fields(pos)) +
              (*rc::gen::arbitrary<bool>() ? " id \"x\";" : "") + "\n";
      lines.push_back(++line);
    }
    const auto path = write_file("book.epd", text);
    auto book = selfplay::read_openings(path);
    RC_ASSERT(book.size() == std::size_t(n));
    for (int i = 0; i < n; ++i) {
      // Four fields get the counters 0 1.
      const auto want = fields(fens[std::size_t(i)]);
      const auto got = fields(book[std::size_t(i)].fen);
      RC_ASSERT(got.size() == 6u);
      RC_ASSERT(std::equal(want.begin(), want.begin() + 4, got.begin()));
      RC_ASSERT(book[std::size_t(i)].source == path + ":" + std::to_string(lines[std::size_t(i)]));
    }
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    auto model = book;
    SplitMix rng(mix64(seed));
    for (std::size_t i = model.size(); i > 1; --i) std::swap(model[i - 1], model[rng.below(i)]);
    selfplay::shuffle_openings(book, seed);
    RC_ASSERT(book.size() == model.size());
    for (std::size_t i = 0; i < book.size(); ++i) {
      RC_ASSERT(book[i].fen == model[i].fen);
      RC_ASSERT(book[i].source == model[i].source);
    }
  });
}

// MODEL positions-position-list
// checks: harness/src/positions/position_list.cpp  (a collection's position file: lines, FENs, ids)
// contract: docs/harnesses/fhcollect.md#inputs
// planted: ci/mutants/model-positions-position-list.patch  (line numbers counted from 0)
TEST_CASE("position lists read as the lines they were generated from", "[model][positions]") {
  rc::prop("generated lists with comments, blank lines and ids", [] {
    const int n = *rc::gen::inRange(1, 10);
    std::string text;
    struct Want {
      int line;
      std::string fen, id;
    };
    std::vector<Want> want;
    int line = 0;
    for (int i = 0; i < n; ++i) {
      switch (*rc::gen::inRange(0, 4)) {
        case 0: text += "\n", ++line; break;
        case 1: text += "# a comment\n", ++line; break;
        default: break;
      }
      Position pos = walked(std::uint64_t(i) + 100, *rc::gen::inRange(0, 10));
      const bool six = *rc::gen::arbitrary<bool>();
      const bool with_id = *rc::gen::arbitrary<bool>();
      ++line;
      const std::string id = with_id ? "p" + std::to_string(i) : "line " + std::to_string(line);
      text += (six ? pos.fen() : four_fields(pos)) + (with_id ? " id \"" + id + "\";" : "") + "\n";
      const auto f = fields(pos.fen());
      want.push_back({line, six ? pos.fen() : four_fields(pos) + " 0 1", id});
    }
    const auto got = fhcollect::read_position_list(write_file("list.epd", text));
    RC_ASSERT(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      RC_ASSERT(got[i].line == want[i].line);
      RC_ASSERT(got[i].fen == want[i].fen);
      RC_ASSERT(got[i].id == want[i].id);
    }
  });
}

// MODEL positions-seeded-games
// checks: harness/src/positions/seeded_games.cpp  (a seeded game depends on (seed, game) alone)
// contract: docs/harnesses/fhgen.md#what-it-proves
// planted: ci/mutants/model-positions-seeded-games.patch  (the searcher not cleared between games)
TEST_CASE("a seeded game replays from its seed and index alone in any order of games",
          "[model][positions]") {
  fhgen::SelfPlayOptions opt;
  opt.nodes = 300;
  opt.max_plies = 24;
  opt.every = 2;
  auto same = [](const fhgen::GameRecord& a, const fhgen::GameRecord& b) {
    if (a.plies != b.plies || a.random_plies != b.random_plies || a.end != b.end ||
        a.samples.size() != b.samples.size())
      return false;
    for (std::size_t i = 0; i < a.samples.size(); ++i)
      if (a.samples[i].fen != b.samples[i].fen || a.samples[i].ply != b.samples[i].ply)
        return false;
    return true;
  };
  const std::uint64_t seed = 12345;
  std::vector<fhgen::GameRecord> forward;
  search::Searcher one;
  for (int g = 0; g < 4; ++g) forward.push_back(fhgen::play_seeded_game(one, opt, seed, g));
  search::Searcher two;
  for (int g = 3; g >= 0; --g) {
    INFO("game " << g);
    const auto again = fhgen::play_seeded_game(two, opt, seed, g);
    CHECK(same(again, forward[std::size_t(g)]));
    CHECK(again.game == g);
    CHECK(opt.random_plies_min <= again.random_plies);
    CHECK(again.random_plies <= opt.random_plies_max);
    for (const auto& s : again.samples) {
      CHECK(s.game == g);
      CHECK(s.ply >= 0);
      CHECK(s.ply < again.plies);
    }
  }
  CHECK_FALSE(same(forward[0], forward[1]));
}

}  // namespace positions_model_test
