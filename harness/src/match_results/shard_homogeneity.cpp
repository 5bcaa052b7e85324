#include "match_results/shard_homogeneity.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stk::harness::match {

HomogeneityResult shard_homogeneity(const std::vector<NamedResult>& parts,
                                    const HomogeneityOptions& options) {
  // Rows in shard order (then file name), so that the order the files were named in changes
  // nothing: the permutation test's draws follow the rows.
  std::vector<const NamedResult*> sorted;
  for (const NamedResult& p : parts) sorted.push_back(&p);
  auto key = [](const NamedResult* p) {
    const auto& s = p->result.shards();
    return std::pair(s.empty() ? 0 : *s.begin(), p->file);
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const NamedResult* a, const NamedResult* b) { return key(a) < key(b); });
  std::vector<LabelledShard> shards;
  for (const NamedResult* p : sorted) shards.push_back({p->file, p->result.counts().penta});
  return homogeneity(shards, options);
}

std::string homogeneity_line(const HomogeneityResult& h) {
  if (!h.applicable) return "homogeneity: not applicable (fewer than 2 files with pairs)";
  std::string out = fmt::format(
      "homogeneity of {} files: chi2 {:.2f} (dof {}), p {:.4f} ({} permutations, seed {}): ",
      h.shards.size(), h.statistic, h.dof, h.p_value, h.options.permutations, h.options.seed);
  if (!h.flagged) return out + fmt::format("consistent (alpha {})", h.options.alpha);
  out += fmt::format("FLAGGED (p < {})", h.options.alpha);
  if (h.worst) {
    const ShardResidual& w = h.shards[*h.worst];
    out += fmt::format(", most out of line: {} (residual {:+.2f}, score {:.3f} vs {:.3f})", w.label,
                       w.residual, w.mean_score, h.pooled_mean);
  }
  return out;
}

nlohmann::ordered_json homogeneity_json(const HomogeneityResult& h) {
  nlohmann::ordered_json shards = nlohmann::ordered_json::array();
  for (const ShardResidual& s : h.shards)
    shards.push_back({{"file", s.label},
                      {"pairs", s.pairs},
                      {"score", s.mean_score},
                      {"residual", s.residual},
                      {"chi2_contribution", s.chi2_contribution}});
  return {{"applicable", h.applicable},
          {"flagged", h.flagged},
          {"alpha", h.options.alpha},
          {"permutations", h.options.permutations},
          {"seed", h.options.seed},
          {"statistic", h.statistic},
          {"dof", h.dof},
          {"p_value", h.p_value},
          {"asymptotic_p_value", h.asymptotic_p_value},
          {"worst", h.worst ? nlohmann::ordered_json(h.shards[*h.worst].label)
                            : nlohmann::ordered_json(nullptr)},
          {"shards", shards},
          {"excluded", h.excluded}};
}

}  // namespace stk::harness::match
