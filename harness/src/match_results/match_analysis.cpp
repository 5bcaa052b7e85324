#include "match_results/match_analysis.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace stk::harness::match {

MatchAnalysis analyse(const std::optional<PentanomialCounts>& penta,
                      const std::optional<WdlCounts>& wdl,
                      const std::optional<SprtParams>& sprt_params) {
  if (!penta && !wdl) throw std::invalid_argument("give pentanomial or W/D/L counts");
  MatchAnalysis a;
  a.penta = penta;
  a.wdl = wdl;
  if (penta) a.penta_estimate = estimate(*penta);
  if (wdl) a.wdl_estimate = estimate(*wdl);
  if (penta && wdl && penta->games() != wdl->games())
    throw std::invalid_argument(
        fmt::format("the pentanomial counts hold {} games ({} pairs), W/D/L {} games",
                    penta->games(), penta->pairs(), wdl->games()));
  if (sprt_params) {
    a.sprt = sprt_params;
    a.sprt_on_trinomial = !penta;
    a.sprt_result = penta ? sprt(*penta, *sprt_params) : sprt(*wdl, *sprt_params);
  }
  return a;
}

namespace {

std::string interval_line(const char* what, double value, double error, double lo, double hi,
                          const EloEstimate& e) {
  return fmt::format("{:<13}{:.2f} +- {:.2f}  [{:.2f}, {:.2f}]  ({:.0f}%, {})\n", what, value,
                     error, lo, hi, 100 * e.confidence, e.kind);
}

std::string estimate_lines(const EloEstimate& e) {
  return fmt::format("{:<13}{:.5f}\n", "score", e.score) +
         interval_line("Elo", e.elo, e.elo_error, e.elo_lower, e.elo_upper, e) +
         interval_line("nElo", e.nelo, e.nelo_error, e.nelo - e.nelo_error, e.nelo + e.nelo_error,
                       e) +
         fmt::format("{:<13}{:.2f}%\n", "LOS", 100 * e.los);
}

std::string bounds_label(const SprtParams& p) {
  return fmt::format("{} [{:.2f}, {:.2f}]", p.model == EloModel::Normalized ? "nElo" : "Elo",
                     p.elo0, p.elo1);
}

nlohmann::ordered_json estimate_json(const EloEstimate& e) {
  return {{"kind", e.kind},
          {"score", e.score},
          {"variance_per_sample", e.variance},
          {"samples", e.samples},
          {"elo", e.elo},
          {"elo_lower", e.elo_lower},
          {"elo_upper", e.elo_upper},
          {"elo_error", e.elo_error},
          {"nelo", e.nelo},
          {"nelo_error", e.nelo_error},
          {"los", e.los},
          {"confidence", e.confidence}};
}

// The pairs ratio in words where it is no number (docs/match-results.md): no figure reads "inf".
std::string pairs_ratio_text(double ratio) {
  if (std::isnan(ratio)) return "undefined (no pair won or lost)";
  if (std::isinf(ratio)) return "infinite (no pair lost)";
  return fmt::format("{:.2f}", ratio);
}

}  // namespace

std::string to_text(const MatchAnalysis& a) {
  std::string out;
  const std::uint64_t games = a.penta ? a.penta->games() : a.wdl->games();
  out += fmt::format("{:<13}{}", "games", games);
  out += a.penta ? fmt::format(" ({} pairs)\n", a.penta->pairs()) : "\n";
  if (a.wdl)
    out += fmt::format("{:<13}W {}  D {}  L {}   draw ratio {:.2f}%\n", "W/D/L", a.wdl->wins,
                       a.wdl->draws, a.wdl->losses, 100 * draw_ratio(*a.wdl));
  if (a.penta) {
    const auto& n = a.penta->n;
    out += fmt::format("{:<13}LL {}  LD {}  DD+WL {}  DW {}  WW {}   pairs ratio {}\n",
                       "pentanomial", n[0], n[1], n[2], n[3], n[4],
                       pairs_ratio_text(pairs_ratio(*a.penta)));
    out += estimate_lines(*a.penta_estimate);
  }
  if (a.wdl) {
    if (a.penta) out += "trinomial (games taken as independent; for reference only):\n";
    out += estimate_lines(*a.wdl_estimate);
  }
  if (a.sprt) {
    const SprtParams& p = *a.sprt;
    out += fmt::format("{:<13}{} GSPRT, {} {}, alpha {:g}, beta {:g}{}\n", "SPRT",
                       a.sprt_on_trinomial ? "trinomial" : "pentanomial", to_string(p.model),
                       bounds_label(p), p.alpha, p.beta,
                       a.sprt_on_trinomial
                           ? " (games assumed independent; prefer pentanomial counts)"
                           : "");
    out += fmt::format("{:<13}{:.2f}  bounds [{:.2f}, {:.2f}]\n", "LLR", a.sprt_result->llr,
                       a.sprt_result->lower, a.sprt_result->upper);
    out += fmt::format("{:<13}{}\n", "verdict", to_string(a.sprt_result->verdict));
  }
  return out;
}

nlohmann::ordered_json to_json(const MatchAnalysis& a) {
  nlohmann::ordered_json j;
  j["games"] = a.penta ? a.penta->games() : a.wdl->games();
  if (a.penta) {
    j["pairs"] = a.penta->pairs();
    j["pentanomial"] = a.penta->n;
    j["pairs_ratio"] = pairs_ratio(*a.penta);
    j["balanced_pair_ratio"] = balanced_pair_ratio(*a.penta);
    j["pentanomial_estimate"] = estimate_json(*a.penta_estimate);
  }
  if (a.wdl) {
    j["wdl"] = {{"w", a.wdl->wins}, {"d", a.wdl->draws}, {"l", a.wdl->losses}};
    j["draw_ratio"] = draw_ratio(*a.wdl);
    j["trinomial_estimate"] = estimate_json(*a.wdl_estimate);
  }
  if (a.sprt) {
    const SprtParams& p = *a.sprt;
    j["sprt"] = {{"counts", a.sprt_on_trinomial ? "trinomial" : "pentanomial"},
                 {"model", to_string(p.model)},
                 {"elo0", p.elo0},
                 {"elo1", p.elo1},
                 {"alpha", p.alpha},
                 {"beta", p.beta},
                 {"llr", a.sprt_result->llr},
                 {"lower_bound", a.sprt_result->lower},
                 {"upper_bound", a.sprt_result->upper},
                 {"verdict", to_string(a.sprt_result->verdict)}};
  }
  return j;
}

std::string one_line(const MatchAnalysis& a) {
  std::string out;
  if (a.penta) {
    const auto& n = a.penta->n;
    out = fmt::format("{} pairs (ptnml {},{},{},{},{})", a.penta->pairs(), n[0], n[1], n[2], n[3],
                      n[4]);
  } else {
    out = fmt::format("{} games", a.wdl->games());
  }
  if (a.wdl) out += fmt::format(" W {} D {} L {}", a.wdl->wins, a.wdl->draws, a.wdl->losses);
  const EloEstimate& e = a.penta ? *a.penta_estimate : *a.wdl_estimate;
  out += fmt::format(", Elo {:.2f} +- {:.2f} [{:.2f}, {:.2f}], nElo {:.2f} +- {:.2f}, LOS {:.1f}%",
                     e.elo, e.elo_error, e.elo_lower, e.elo_upper, e.nelo, e.nelo_error,
                     100 * e.los);
  if (a.sprt)
    out += fmt::format(", LLR {:.2f} [{:.2f}, {:.2f}] on {} ({})", a.sprt_result->llr,
                       a.sprt_result->lower, a.sprt_result->upper, bounds_label(*a.sprt),
                       to_string(a.sprt_result->verdict));
  return out;
}

}  // namespace stk::harness::match
