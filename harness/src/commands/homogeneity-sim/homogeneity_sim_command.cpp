// stk-harness homogeneity-sim: match-merge's homogeneity test measured at known truth. Merges of
// honest shards (one pentanomial law) give its false-flag rate, merges with one shard from another
// law its power and how often it names that shard. Exit 1 when the false-flag rate is above alpha
// beyond Monte Carlo error (the Wilson 95% lower bound exceeds alpha).
#include <charconv>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "stats/homogeneity_simulation.h"

namespace stk::harness {

namespace {

// "p0,p1,p2,p3,p4": a pentanomial law (LL, LD, DD+WL, DW, WW) summing to 1.
match::PentanomialModel parse_law(const std::string& option, const std::string& text) {
  match::PentanomialModel m;
  std::istringstream in(text);
  std::string item;
  double sum = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    if (!std::getline(in, item, ',')) throw UsageError(option + ": needs 5 probabilities");
    // from_chars, not std::stod: the element must be the number alone (stod skips leading
    // blanks and takes a '+'), as sprt's counts are.
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), m.p[k]);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || !(m.p[k] >= 0))
      throw UsageError(option + ": '" + item + "' is not a probability");
    sum += m.p[k];
  }
  if (std::getline(in, item, ',')) throw UsageError(option + ": more than 5 probabilities");
  if (std::abs(sum - 1) > 1e-9) throw UsageError(fmt::format("{}: sums to {}, not 1", option, sum));
  return m;
}

std::string rate_text(const match::RateInterval& r) {
  return fmt::format("{:.2f}% [{:.2f}%, {:.2f}%]", 100 * r.rate, 100 * r.lower, 100 * r.upper);
}

}  // namespace

int run_homogeneity_sim(int argc, char** argv) {
  CLI::App app{
      "Measures match-merge's homogeneity test (docs/match-results.md \"Homogeneity across shards\")\n"
      "on simulated merges: --shards shards of --pairs pairs each from --law (the false-flag rate,\n"
      "which should be alpha), then the same with one shard from --bad-law (the power, and how often\n"
      "that shard is named the most out of line), with Wilson 95% intervals. Exit 0 when the false-\n"
      "flag rate is within alpha up to Monte Carlo error, 1 when above it, 2 on bad input.",
      "stk-harness homogeneity-sim"};
  match::HomogeneitySimulation sim;
  std::string law = "0.02,0.18,0.50,0.25,0.05", bad_law = "0.15,0.35,0.35,0.12,0.03";
  bool json = false;
  app.add_option("--shards", sim.shards, "shards per merge")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  app.add_option("--pairs", sim.pairs_per_shard, "pairs per shard")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--law", law, "the honest shards' pentanomial law LL,LD,DD+WL,DW,WW")
      ->capture_default_str();
  app.add_option("--bad-law", bad_law, "the bad shard's law")->capture_default_str();
  app.add_option("--merges", sim.merges, "merges per truth")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  // Bounds the help prints exactly (six significant digits): 1 - 1e-9 printed as "1" while
  // 1 was refused (test_cli_ranges.py).
  app.add_option("--alpha", sim.alpha, "the test's alpha")
      ->check(CLI::Range(1e-9, 0.999999))
      ->capture_default_str();
  app.add_option("--permutations", sim.permutations, "permutations per test")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--seed", sim.seed, "seed (merge m draws from SplitMix(mix64(seed + m)))")
      ->capture_default_str();
  app.add_flag("--json", json, "print JSON");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    sim.honest = parse_law("--law", law);
    const match::PentanomialModel bad = parse_law("--bad-law", bad_law);
    const match::HomogeneitySimulationReport null_run = match::simulate_homogeneity(sim);
    sim.bad = bad;
    const match::HomogeneitySimulationReport bad_run = match::simulate_homogeneity(sim);
    const bool ok = null_run.flag_rate.lower <= sim.alpha;
    nlohmann::ordered_json j = {
        {"params",
         {{"shards", sim.shards},
          {"pairs_per_shard", sim.pairs_per_shard},
          {"law", sim.honest.p},
          {"bad_law", bad.p},
          {"merges", sim.merges},
          {"alpha", sim.alpha},
          {"permutations", sim.permutations},
          {"seed", sim.seed}}},
        {"honest",
         {{"flagged", null_run.flagged},
          {"flag_rate", null_run.flag_rate.rate},
          {"flag_rate_wilson95", {null_run.flag_rate.lower, null_run.flag_rate.upper}},
          {"within_alpha", ok}}},
        {"one_bad",
         {{"flagged", bad_run.flagged},
          {"power", bad_run.flag_rate.rate},
          {"power_wilson95", {bad_run.flag_rate.lower, bad_run.flag_rate.upper}},
          {"named_worst", bad_run.bad_named_worst},
          {"named_rate", bad_run.named_rate.rate}}}};
    const std::string text = fmt::format(
        "homogeneity-sim: {} shards x {} pairs, law {}, alpha {:g}, {} permutations, {} merges per "
        "truth, seed {}\n"
        "  honest shards (null control): flagged {} of {} = {} Wilson 95%: {}\n"
        "  one shard from {}: flagged {} of {} = {} (power); named the most out of line {} = {}\n",
        sim.shards, sim.pairs_per_shard, law, sim.alpha, sim.permutations, sim.merges, sim.seed,
        null_run.flagged, null_run.merges, rate_text(null_run.flag_rate),
        ok ? "within alpha" : "ABOVE alpha", bad_law, bad_run.flagged, bad_run.merges,
        rate_text(bad_run.flag_rate), bad_run.bad_named_worst, rate_text(bad_run.named_rate));
    std::cout << (json ? j.dump(2) + "\n" : text);
    return ok ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness homogeneity-sim");
  }
}

}  // namespace stk::harness
