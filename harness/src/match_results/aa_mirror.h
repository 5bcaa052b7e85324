// The A/A control at a fixed budget: two copies of one deterministic engine, given nodes or depth per
// move, replay each opening's game with colours reversed, so every pair must be mirrored: the same
// result from White's view in the same number of plies (A scores exactly 1 of 2). The Elo interval
// of such a run is [0, 0] whatever happens; a pair that is not mirrored is the signal: engine
// non-determinism, or state shared between games (hash kept without ucinewgame) or between engines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "match_results/match_result.h"

namespace stk::harness::match {

// Whether the definition's budget is fixed nodes or depth (time_control "nodes=N" / "depth=N"), not a clock.
bool fixed_budget(const MatchDefinition& d);

struct MirrorCheck {
  std::size_t pairs = 0;
  std::vector<std::uint64_t> not_mirrored;  // opening indices, in record order
  std::string text()
      const;  // "every one of 93 pairs mirrored" / "2 of 93 pairs not mirrored (openings 4, 17)"
};

MirrorCheck check_mirrored(const MatchResult& r);

}  // namespace stk::harness::match
