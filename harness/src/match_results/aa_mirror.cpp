#include "match_results/aa_mirror.h"

#include <fmt/format.h>

namespace stk::harness::match {

bool fixed_budget(const MatchDefinition& d) {
  return d.time_control.starts_with("nodes=") || d.time_control.starts_with("depth=");
}

MirrorCheck check_mirrored(const MatchResult& r) {
  MirrorCheck c;
  c.pairs = r.pairs().size();
  for (const PairRecord& p : r.pairs())
    if (p.games[0].result != p.games[1].result || p.games[0].plies != p.games[1].plies)
      c.not_mirrored.push_back(p.opening);
  return c;
}

std::string MirrorCheck::text() const {
  if (not_mirrored.empty()) return fmt::format("every one of {} pairs mirrored", pairs);
  const std::size_t shown = std::min<std::size_t>(not_mirrored.size(), 20);
  return fmt::format("{} of {} pairs not mirrored (openings {}{})", not_mirrored.size(), pairs,
                     fmt::join(not_mirrored.begin(), not_mirrored.begin() + std::ptrdiff_t(shown),
                               ", "),
                     shown < not_mirrored.size() ? ", ..." : "");
}

}  // namespace stk::harness::match
