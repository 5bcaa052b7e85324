#include "commands/compare/compare_result.h"

#include <algorithm>

#include <fmt/format.h>

#include "cli/cli.h"

namespace stk::harness::compare {

SuiteDiff diff_suites(const epd::Budget& budget, epd::RunResults base, epd::RunResults candidate) {
  SuiteDiff d;
  d.budget = budget;
  if (base.positions.size() != candidate.positions.size())
    throw InputError(fmt::format("at {} the base judged {} positions and the candidate {}",
                                 budget.label(), base.positions.size(),
                                 candidate.positions.size()));
  for (std::size_t i = 0; i < base.positions.size(); ++i) {
    const auto &a = base.positions[i], &b = candidate.positions[i];
    if (a.index != b.index || a.fen != b.fen)
      throw InputError(fmt::format("at {} position {} is {} for the base and {} for the candidate",
                                   budget.label(), i, a.name, b.name));
    if (a.solved && !b.solved) d.lost.push_back(a.name);
    if (b.solved && !a.solved) d.gained.push_back(a.name);
    d.base_nodes += a.nodes;
    d.candidate_nodes += b.nodes;
    d.node_mismatches += a.nodes != b.nodes;
  }
  d.base = std::move(base);
  d.candidate = std::move(candidate);
  return d;
}

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  return s;
}

std::vector<double> speed_ratios(const SpeedRuns& s) {
  std::vector<double> r;
  for (std::size_t i = 0; i < s.base_nps.size() && i < s.candidate_nps.size(); ++i)
    r.push_back(s.base_nps[i] > 0 ? s.candidate_nps[i] / s.base_nps[i] : 0);
  return r;
}

}  // namespace stk::harness::compare
