#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_support.h"
#include "positions/position_list.h"
#include "commands/fhgen/position_sets.h"
#include "notation.h"
#include "test_support.h"

using namespace stk;
using namespace stk::harness::fhgen;
using Catch::Matchers::Contains;

namespace {

// A tactical-suite stand-in in the ECM format ("FEN bm SAN; id ..."): positions of seeded random
// games from the tricky FENs, so that the tests need no shared data.
std::string synthetic_suite(int count) {
  std::string out;
  std::mt19937_64 rng(7);
  for (int n = 0; n < count; ++n) {
    Position pos;
    pos.set(test::tricky_fens()[std::size_t(n) % test::tricky_fens().size()]);
    std::vector<int> choices;
    for (int i = 0; i < 2 + n % 7; ++i) choices.push_back(int(rng() % 1000));
    test::play_random(pos, choices);
    MoveList list(pos);
    if (list.size() == 0) continue;
    std::string fen = pos.fen();
    fen.resize(fen.rfind(' ', fen.rfind(' ') - 1));
    out += fen + " bm " + to_san(pos, list.begin()->move) + "; id \"T." + std::to_string(n) +
           "\";\n";
  }
  return out;
}

std::string suite_file(const std::filesystem::path& dir, int count = 80) {
  auto path = dir / "suite.epd";
  test::write_file(path, synthetic_suite(count));
  return path.string();
}

GenOptions small_run(std::uint64_t seed, const std::string& ecm) {
  GenOptions o;
  o.games = 3;
  o.seed = seed;
  o.play.nodes = 300;
  o.play.max_plies = 40;
  o.play.every = 2;
  o.ecm_path = ecm;
  o.ecm_fraction = 0.25;
  o.heldout = 0.3;
  return o;
}

std::vector<std::string> fens_of(const std::vector<SetEntry>& set) {
  std::vector<std::string> out;
  for (const SetEntry& e : set) out.push_back(e.fen);
  return out;
}

}  // namespace

TEST_CASE("fhgen: a game depends only on the seed and its index", "[fhgen]") {
  SelfPlayOptions opt;
  opt.nodes = 300;
  opt.max_plies = 40;
  search::Searcher shared(search::Options{16, false, nullptr});
  std::vector<GameRecord> games;
  for (int g = 0; g < 3; ++g) games.push_back(play_seeded_game(shared, opt, 11, g));

  search::Searcher fresh(search::Options{16, false, nullptr});
  GameRecord alone = play_seeded_game(fresh, opt, 11, 2);
  REQUIRE(alone.samples.size() == games[2].samples.size());
  for (std::size_t i = 0; i < alone.samples.size(); ++i) {
    CHECK(alone.samples[i].fen == games[2].samples[i].fen);
    CHECK(alone.samples[i].ply == games[2].samples[i].ply);
  }
  CHECK(alone.plies == games[2].plies);
  CHECK(alone.random_plies >= opt.random_plies_min);
  CHECK(alone.random_plies <= opt.random_plies_max);

  GameRecord other = play_seeded_game(fresh, opt, 12, 2);
  REQUIRE(!other.samples.empty());
  REQUIRE(!alone.samples.empty());
  CHECK(other.samples.front().fen != alone.samples.front().fen);
}

TEST_CASE("fhgen: sets are disjoint, legal, not in check, not over, and mix the ECM share",
          "[fhgen]") {
  auto dir = test::scratch_dir("fhgen-sets");
  GenOptions o = small_run(5, suite_file(dir));
  PositionSets sets = generate_position_sets(o);
  REQUIRE(sets.selfplay_unique > 20);
  REQUIRE(!sets.fit.empty());
  REQUIRE(!sets.heldout.empty());

  const std::vector<std::string> fit_fens = fens_of(sets.fit);
  const std::set<std::string> fit(fit_fens.begin(), fit_fens.end());
  std::set<std::string> ids;
  int ecm = 0;
  for (const auto* set : {&sets.fit, &sets.heldout})
    for (const SetEntry& e : *set) {
      INFO(e.id << ": " << e.fen);
      Position pos;
      REQUIRE(!pos.set(e.fen, true));
      CHECK(canonical_fen(pos) == e.fen);
      CHECK(!pos.in_check());
      CHECK(!game_over(pos));
      CHECK(ids.insert(e.id).second);
      CHECK(goes_to_heldout(e.fen, o.heldout, o.split_seed) == (set == &sets.heldout));
      if (set == &sets.heldout) CHECK(fit.count(e.fen) == 0);
      ecm += e.ecm;
    }
  CHECK(fit.size() == sets.fit.size());  // no duplicate inside a set either
  CHECK(sets.ecm_wanted == ecm_count_for(sets.selfplay_unique, 0.25));
  CHECK(ecm == sets.ecm_wanted);
  CHECK(sets.ecm_wanted == int(std::llround(sets.selfplay_unique / 3.0)));

  // Same seed: the same positions; another seed: other self-play positions and another ECM draw.
  PositionSets again = generate_position_sets(o);
  CHECK(fens_of(again.fit) == fens_of(sets.fit));
  CHECK(fens_of(again.heldout) == fens_of(sets.heldout));
  o.seed = 6;
  PositionSets other = generate_position_sets(o);
  CHECK(fens_of(other.fit) != fens_of(sets.fit));
}

TEST_CASE("fhgen: the split is a function of the position and hits the fraction", "[fhgen]") {
  int held = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) held += goes_to_heldout("fen " + std::to_string(i), 0.2, 0);
  CHECK(held > n * 0.18);
  CHECK(held < n * 0.22);
  CHECK(!goes_to_heldout("x", 0.0, 0));
  CHECK(goes_to_heldout("x", 1.0, 0));
  CHECK(ecm_count_for(90, 0.1) == 10);
  CHECK(ecm_count_for(90, 0.0) == 0);
}

TEST_CASE("fhgen: canonical FEN and game ends", "[fhgen]") {
  Position pos;
  pos.set(Position::kStartFen);
  pos.make_move(*parse_uci(pos, "e2e4"));  // no black pawn can take en passant: the square goes
  CHECK(canonical_fen(pos) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
  pos.set("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  pos.make_move(*parse_uci(pos, "e2e4"));
  CHECK(canonical_fen(pos) == "4k3/8/8/8/3pP3/8/8/4K3 b - e3");

  pos.set("4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
  CHECK(game_over(pos) == GameEnd::InsufficientMaterial);
  pos.set("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1");  // bishops on opposite colours: mate is possible
  CHECK(!game_over(pos));
  pos.set("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");  // two bishops on opposite colours
  CHECK(!game_over(pos));
  pos.set("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1");  // both bishops on light squares
  CHECK(game_over(pos) == GameEnd::InsufficientMaterial);
  pos.set("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  CHECK(game_over(pos) == GameEnd::Checkmate);
  pos.set("7k/8/6QK/8/8/8/8/8 b - - 0 1");
  CHECK(game_over(pos) == GameEnd::Stalemate);
  pos.set("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80");
  CHECK(game_over(pos) == GameEnd::FiftyMoves);
}

TEST_CASE("fhgen command: byte-identical files, EPD lines, the default ECM path",
          "[fhgen][harness]") {
  auto dir = test::scratch_dir("fhgen-cli");
  std::filesystem::create_directories(dir / "shared" / "suites");
  suite_file(dir / "shared" / "suites");
  std::filesystem::rename(dir / "shared" / "suites" / "suite.epd",
                          dir / "shared" / "suites" / "ECM.epd");
  const std::string cmd =
      "STK_SHARED='" + (dir / "shared").string() + "' " + test::harness_bin() +
      " fhgen --games 2 --seed 3 --nodes 200 --max-plies 30 --ecm-fraction 0.2 --out-dir " +
      (dir / "out").string();
  auto r = test::run_command(cmd);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("seed 3"));
  // The ECM line is printed when ECM positions were asked for, and only then.
  CHECK_THAT(r.output, Contains("  ECM positions: "));
  auto none = test::run_command("STK_SHARED='" + (dir / "shared").string() + "' " +
                                test::harness_bin() +
                                " fhgen --games 1 --seed 3 --nodes 200 --max-plies 10 " +
                                "--ecm-fraction 0 --out-dir " + (dir / "no-ecm").string());
  INFO(none.output);
  CHECK(none.exit_code == 0);
  CHECK(none.output.find("ECM positions") == std::string::npos);
  std::string fit = test::read_file(dir / "out" / "fit.epd"),
              held = test::read_file(dir / "out" / "heldout.epd");
  std::string json = test::read_file(dir / "out" / "positions.json");
  CHECK_THAT(json, Contains("\"seed\": 3"));
  CHECK_THAT(json, Contains("/shared/suites/ECM.epd"));
  CHECK(json.rfind("{\n  \"tool\": ", 0) ==
        0);  // indented by 2, as every summary the harness writes
  // The search settings recorded are those the games were played with.
  CHECK_THAT(json, Contains("\"threads\": 1,") && Contains("\"hash_mb\": 16,") &&
                       Contains("\"use_nnue\": false"));
  CHECK(self_play_search_options().hash_mb == 16);
  CHECK_FALSE(self_play_search_options().use_nnue);

  auto again = test::run_command(cmd);
  REQUIRE(again.exit_code == 0);
  CHECK(test::read_file(dir / "out" / "fit.epd") == fit);
  CHECK(test::read_file(dir / "out" / "heldout.epd") == held);
  CHECK(test::read_file(dir / "out" / "positions.json") == json);

  int ecm = 0, lines = 0;
  std::istringstream in(fit + held);
  for (std::string line; std::getline(in, line); ++lines) {
    INFO(line);
    std::istringstream f(line);
    std::string a, b, c, d, rest;
    f >> a >> b >> c >> d;
    std::getline(f, rest);
    Position pos;
    CHECK(!pos.set(a + " " + b + " " + c + " " + d, true));
    bool is_ecm = rest.find("c0 \"src=ecm\";") != std::string::npos;
    CHECK((is_ecm || rest.find("c0 \"src=selfplay\";") != std::string::npos));
    CHECK(rest.rfind(is_ecm ? " id \"T." : " id \"g", 0) == 0);
    ecm += is_ecm;
  }
  CHECK(lines > 0);
  CHECK(ecm == ecm_count_for(lines - ecm, 0.2));
  // The collection reads these files as they are: one position per line, ids kept.
  auto listed = harness::fhcollect::read_position_list((dir / "out" / "fit.epd").string());
  CHECK(listed.size() == std::size_t(std::count(fit.begin(), fit.end(), '\n')));
  CHECK(listed.front().id.rfind("g", 0) == 0);
}

TEST_CASE("fhgen command: bad options and a malformed ECM file exit 2 with the reason",
          "[fhgen][harness]") {
  auto dir = test::scratch_dir("fhgen-bad");
  const std::string base = test::harness_bin() + " fhgen --out-dir " + (dir / "out").string();
  auto expect = [&](const std::string& args, const std::string& message) {
    auto r = test::run_command(base + " " + args);
    INFO(args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains(message));
  };
  expect("--seed 1", "--games is required");
  expect("--games 1", "--seed is required");
  expect("--games 0 --seed 1", "--games: Value 0 not in range 1 to 10000000");
  expect("--games 1 --seed 1 --heldout 1.5", "--heldout: must be a number in [0, 1]");
  expect("--games 1 --seed 1 --ecm-fraction 1", "--ecm-fraction: must be a number in [0, 1)");
  expect("--games 1 --seed 1 --random-plies-min 6 --random-plies-max 5",
         "--random-plies-max (5) is below");
  // An input error names the tool and the file (planted: input_failure's "stk-harness fhgen"
  // made "", passed).
  expect("--games 1 --seed 1 --ecm " + (dir / "missing.epd").string(),
         "stk-harness fhgen: " + (dir / "missing.epd").string() + ": cannot open file");
  const std::string good = synthetic_suite(2);
  const auto bad_line = std::to_string(std::count(good.begin(), good.end(), '\n') + 1);
  test::write_file(dir / "bad.epd", good + "not a fen bm e4;\n");
  expect("--games 1000 --seed 1 --ecm " + (dir / "bad.epd").string(), "bad.epd:" + bad_line + ": ");
  CHECK(!std::filesystem::exists(dir / "out" / "fit.epd"));
}
