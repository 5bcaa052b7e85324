// stk-harness sprt: the statistics of a match from its counts alone, so that anyone can recheck a
// report (or a fishtest / OpenBench result) without the games.
#include <charconv>
#include <iostream>
#include <optional>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "match_results/match_analysis.h"

namespace stk::harness {

namespace {

using namespace match;

constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 53;

// "a,b,c" as exactly `n` non-negative integers; a UsageError names the option otherwise.
std::vector<std::uint64_t> parse_counts(const std::string& text, std::size_t n,
                                        const std::string& option, const std::string& layout) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                            : comma - start);
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    // Digits past 64 bits are a count above the limit, named below like any other.
    if (ec == std::errc::result_out_of_range) ec = std::errc(), v = kMaxCount + 1;
    if (field.empty() || ec != std::errc() || end != field.data() + field.size())
      throw UsageError(option + " takes " + std::to_string(n) + " non-negative integer counts " +
                       layout + ", got '" + field + "' in '" + text + "'");
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.size() != n)
    throw UsageError(option + " takes " + std::to_string(n) + " counts " + layout + ", got " +
                     std::to_string(out.size()) + " in '" + text + "'");
  // Every count and their sum at most 2^53: the sum cannot wrap around 64 bits, and the statistics
  // (doubles) hold every count exactly.
  std::vector<std::string> names;
  for (std::size_t from = 0;;) {
    const std::size_t comma = layout.find(',', from);
    names.push_back(
        layout.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = i < names.size() ? names[i] : std::to_string(i + 1);
    if (out[i] > kMaxCount || total + out[i] > kMaxCount)
      throw UsageError(fmt::format(
          "{} count {} ({}): {} the limit of 2^53 = {} (the counts would not add up exactly)",
          option, name, out[i], out[i] > kMaxCount ? "is above" : "brings the sum above",
          kMaxCount));
    total += out[i];
  }
  return out;
}

}  // namespace

int run_sprt(int argc, char** argv) {
  CLI::App app{
      "Statistics of a match from its counts: score, Elo and normalized Elo with 95% intervals, LOS,\n"
      "and the generalized SPRT of fishtest/OpenBench on the pentanomial counts.",
      "stk-harness sprt"};
  std::string penta_text, wdl_text, model_text = "normalized";
  double elo0 = 0, elo1 = 0;
  double alpha = 0.05, beta = 0.05;
  bool json = false;
  app.add_option("--pentanomial", penta_text,
                 "pair counts LL,LD,DD,DW,WW for engine A (DD includes WL)");
  app.add_option("--wdl", wdl_text,
                 "game counts W,D,L for engine A (trinomial; with --pentanomial: reference)");
  CLI::Option* has_elo0 = app.add_option(
      "--elo0", elo0, "SPRT H0 bound (nElo for the normalized model, Elo for logistic)");
  CLI::Option* has_elo1 = app.add_option("--elo1", elo1, "SPRT H1 bound, above elo0");
  app.add_option("--alpha", alpha, "false-positive rate (accepting H1 at elo0)")
      ->capture_default_str();
  app.add_option("--beta", beta, "false-negative rate (accepting H0 at elo1)")
      ->capture_default_str();
  app.add_option("--model", model_text, "normalized (fishtest's default) or logistic")
      ->capture_default_str();
  app.add_flag("--json", json, "print JSON instead of text");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    if (penta_text.empty() && wdl_text.empty())
      throw UsageError("give --pentanomial LL,LD,DD,DW,WW and/or --wdl W,D,L");
    const bool with_sprt = has_elo0->count() > 0;
    if (with_sprt != (has_elo1->count() > 0))
      throw UsageError("give both --elo0 and --elo1 for the SPRT, or neither");
    std::optional<PentanomialCounts> penta;
    std::optional<WdlCounts> wdl;
    if (!penta_text.empty()) {
      auto v = parse_counts(penta_text, 5, "--pentanomial", "LL,LD,DD,DW,WW");
      penta = PentanomialCounts{{v[0], v[1], v[2], v[3], v[4]}};
      if (penta->pairs() == 0) throw UsageError("--pentanomial: no pairs (all counts are 0)");
    }
    if (!wdl_text.empty()) {
      auto v = parse_counts(wdl_text, 3, "--wdl", "W,D,L");
      wdl = WdlCounts{v[0], v[1], v[2]};
      if (wdl->games() == 0) throw UsageError("--wdl: no games (all counts are 0)");
    }
    std::optional<SprtParams> params;
    if (with_sprt) {
      SprtParams p{elo0, elo1, alpha, beta, parse_elo_model(model_text)};
      if (auto why = p.problem(); !why.empty()) throw UsageError(why);
      params = p;
    }
    const MatchAnalysis a = analyse(penta, wdl, params);
    std::cout << (json ? to_json(a).dump(2) + "\n" : to_text(a));
    return 0;
  } catch (...) {
    return input_failure("stk-harness sprt");
  }
}

}  // namespace stk::harness
