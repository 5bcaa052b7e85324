// stk-harness sprt-sim: the SPRT's error rates measured by simulation at known truth (elo0 and elo1),
// with Wilson intervals and the number of pairs each test took. Exit 1 when a measured error rate is
// above its design value beyond Monte Carlo error (the Wilson 95% lower bound exceeds alpha or beta).
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_app.h"
#include "stats/sprt_simulation.h"

namespace stk::harness {

namespace {

using namespace match;

struct Side {
  const char* truth;  // "elo0" or "elo1"
  double target;
  PentanomialModel model;
  SimulationReport report;
  int wrong() const {
    return std::string(truth) == "elo0" ? report.accepted_h1 : report.accepted_h0;
  }
};

}  // namespace

int run_sprt_sim(int argc, char** argv) {
  CLI::App app{
      "Runs the pentanomial SPRT to termination on simulated game pairs whose true strength is elo0,\n"
      "then elo1, and reports the false-positive rate (H1 accepted at elo0), the false-negative rate\n"
      "(H0 accepted at elo1) with Wilson 95% intervals, and the pairs used. Pairs: A as White at\n"
      "logistic Elo e + bias, as Black at e - bias, draw probability --draw-ratio, e solved so that the\n"
      "pentanomial model has exactly the requested Elo or nElo.",
      "stk-harness sprt-sim"};
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05, draw_ratio = 0.6, bias = 60;
  std::string model_text = "normalized";
  int runs = 1000;
  std::uint64_t seed = 1, max_pairs = 1000000;
  bool json = false;
  app.add_option("--elo0", elo0, "H0 bound")->capture_default_str();
  app.add_option("--elo1", elo1, "H1 bound")->capture_default_str();
  app.add_option("--alpha", alpha, "design false-positive rate")->capture_default_str();
  app.add_option("--beta", beta, "design false-negative rate")->capture_default_str();
  app.add_option("--model", model_text, "normalized (bounds in nElo) or logistic (Elo)")
      ->capture_default_str();
  app.add_option("--draw-ratio", draw_ratio, "draw probability of each game")
      ->capture_default_str();
  app.add_option("--colour-bias", bias, "Elo advantage of the side with White in an opening")
      ->capture_default_str();
  app.add_option("--runs", runs, "SPRTs per truth")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  app.add_option("--seed", seed, "seed (run r draws from SplitMix(mix64(seed + r)))")
      ->capture_default_str();
  app.add_option("--max-pairs", max_pairs, "stop a run undecided after this many pairs")
      ->capture_default_str();
  app.add_flag("--json", json, "print JSON");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  try {
    SprtParams params{elo0, elo1, alpha, beta, parse_elo_model(model_text)};
    if (auto why = params.problem(); !why.empty()) throw UsageError(why);
    Side sides[2] = {{"elo0", elo0, {}, {}}, {"elo1", elo1, {}, {}}};
    for (Side& s : sides) {
      s.model = model_at(s.target, params.model, draw_ratio, bias);
      s.report = simulate_sprt(s.model, params, runs, seed, max_pairs);
    }
    const char* unit = params.model == EloModel::Normalized ? "nElo" : "Elo";
    nlohmann::ordered_json j;
    j["params"] = {{"model", to_string(params.model)},
                   {"elo0", elo0},
                   {"elo1", elo1},
                   {"alpha", alpha},
                   {"beta", beta},
                   {"draw_ratio", draw_ratio},
                   {"colour_bias", bias},
                   {"runs", runs},
                   {"seed", seed},
                   {"max_pairs", max_pairs}};
    bool ok = true;
    std::string text = fmt::format(
        "sprt-sim: {} SPRT {} [{:g}, {:g}], alpha {:g}, beta {:g}; draw ratio {:g}, "
        "colour bias {:g} Elo; {} runs per truth, seed {}\n",
        to_string(params.model), unit, elo0, elo1, alpha, beta, draw_ratio, bias, runs, seed);
    for (const Side& s : sides) {
      const bool at0 = std::string(s.truth) == "elo0";
      const RateInterval w = wilson_interval(std::uint64_t(s.wrong()), std::uint64_t(runs));
      const double design = at0 ? alpha : beta;
      const bool within = w.lower <= design;
      ok = ok && within;
      const SimulationReport& r = s.report;
      text += fmt::format(
          "truth {} = {:g} {} (Elo {:.3f}, nElo {:.3f}; ptnml p = {:.4f} {:.4f} {:.4f} {:.4f} {:.4f}):\n"
          "  {} {} of {} = {:.2f}%  Wilson 95% [{:.2f}%, {:.2f}%]  design {:g}%: {}\n"
          "  H0 accepted {}, H1 accepted {}, undecided {}; pairs per test: mean {:.0f}, median {}, 90% {}, max {}\n",
          s.truth, s.target, unit, s.model.elo(), s.model.nelo(), s.model.p[0], s.model.p[1],
          s.model.p[2], s.model.p[3], s.model.p[4],
          at0 ? "false positives (H1 accepted)" : "false negatives (H0 accepted)", s.wrong(), runs,
          100 * w.rate, 100 * w.lower, 100 * w.upper, 100 * design,
          within ? "within" : "ABOVE the design rate", r.accepted_h0, r.accepted_h1, r.undecided,
          r.mean_pairs(), r.quantile_pairs(0.5), r.quantile_pairs(0.9), r.quantile_pairs(1.0));
      j[s.truth] = {{"target", s.target},
                    {"elo", s.model.elo()},
                    {"nelo", s.model.nelo()},
                    {"pentanomial_p", s.model.p},
                    {"accepted_h0", r.accepted_h0},
                    {"accepted_h1", r.accepted_h1},
                    {"undecided", r.undecided},
                    {"error_rate", w.rate},
                    {"error_wilson95", {w.lower, w.upper}},
                    {"within_design", within},
                    {"mean_pairs", r.mean_pairs()},
                    {"median_pairs", r.quantile_pairs(0.5)},
                    {"p90_pairs", r.quantile_pairs(0.9)},
                    {"max_pairs", r.quantile_pairs(1.0)}};
    }
    j["within_design"] = ok;
    std::cout << (json ? j.dump(2) + "\n" : text);
    return ok ? 0 : 1;
  } catch (...) {
    return input_failure("stk-harness sprt-sim");
  }
}

}  // namespace stk::harness
