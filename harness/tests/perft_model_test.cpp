// An independent model of stk-harness perft's count checks (docs/harnesses/perft.md "Verdict"):
// which depths of a perft EPD are checked (--depth, --max-nodes), each check's verdict (the count
// equal to the golden count), the figures (checks, failed, total_nodes) and the exit status. The
// oracle is the published perft counts of six standard positions (chessprogramming.org "Perft
// Results"); golden counts are drawn as true, one below or one above.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.h"

using namespace stk;

namespace perft_model {

struct Known {
  const char* fen;
  std::vector<std::uint64_t> counts;  // depth 1, 2, 3
};

// https://www.chessprogramming.org/Perft_Results (positions 1-6).
const std::vector<Known> kKnown = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {20, 400, 8902}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {48, 2039, 97862}},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812}},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", {6, 264, 9467}},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {44, 1486, 62379}},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", {46, 2079, 89890}},
};

struct ModelCase {
  int depth;
  std::uint64_t expected, actual;
};

}  // namespace perft_model

// MODEL perft-count-verdict
// checks: harness/src/commands/perft/perft_run.cpp  (which depths are checked and each count check's verdict)
// contract: docs/harnesses/perft.md#verdict
// planted: ci/mutants/model-perft-count-verdict.patch  (a depth whose golden count equals --max-nodes skipped)
TEST_CASE(
    "model: perft checks each golden depth within --depth and --max-nodes and fails exactly the unequal counts",
    "[model][perft]") {
  using namespace perft_model;
  const auto dir = test::scratch_dir("perft-model");
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    const int max_depth = 2 + int(rng() % 2);  // 2 or 3
    // --max-nodes equal to one golden count in the file (kept: only counts above it are skipped).
    std::string epd;
    std::vector<ModelCase> cases;
    std::vector<std::uint64_t> goldens;
    for (const Known& k : kKnown) {
      epd += k.fen;
      for (int d = 1; d <= 3; ++d) {
        const std::uint64_t truth = k.counts[std::size_t(d - 1)];
        const int delta = int(rng() % 3) - 1;  // -1, 0, +1
        const std::uint64_t golden = truth + std::uint64_t(std::int64_t(delta));
        epd += " ;D" + std::to_string(d) + " " + std::to_string(golden);
        if (d <= max_depth) goldens.push_back(golden);
        cases.push_back({d, golden, truth});
      }
      epd += "\n";
    }
    const std::uint64_t max_nodes = goldens[rng() % goldens.size()];
    std::vector<ModelCase> kept;
    for (const ModelCase& c : cases)
      if (c.depth <= max_depth && c.expected <= max_nodes) kept.push_back(c);
    int failed = 0;
    std::uint64_t total = 0;
    for (const ModelCase& c : kept) failed += c.expected != c.actual, total += c.actual;

    test::write_file(dir / "model.epd", epd);
    std::filesystem::remove_all(dir / "out");
    const auto r = test::run_command(
        test::harness_bin() + " perft --epd '" + (dir / "model.epd").string() + "' --depth " +
        std::to_string(max_depth) + " --max-nodes " + std::to_string(max_nodes) +
        " --invariants-depth 0 --config m --out-dir '" + (dir / "out").string() + "'");
    INFO("seed " << seed << "\n" << epd << "\nmax-nodes " << max_nodes << "\n" << r.output);
    const auto j = nlohmann::json::parse(test::read_file(dir / "out/perft/m.json"));
    CHECK(r.exit_code == (failed ? 1 : 0));
    REQUIRE(j.at("cases").size() == kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const auto& c = j.at("cases")[i];
      CHECK(c.at("depth") == kept[i].depth);
      CHECK(c.at("expected") == kept[i].expected);
      CHECK(c.at("actual") == kept[i].actual);
      CHECK(c.at("passed") == (kept[i].expected == kept[i].actual));
    }
    CHECK(j.at("checks") == kept.size());
    CHECK(j.at("failed") == failed);
    CHECK(j.at("total_nodes") == total);
    CHECK(j.at("report").at("failures") == failed);
    CHECK(j.at("report").at("passed") == (failed == 0));
  }
}
