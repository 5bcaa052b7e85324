// Exact merging of match results: shards of one match add their pairs (so their counts), and the SPRT
// is recomputed on the sum. Merging is associative and commutative (pairs are kept in opening order).
#pragma once

#include <string>
#include <vector>

#include "match_results/match_result.h"

namespace stk::harness::match {

struct NamedResult {
  std::string file;  // for messages
  MatchResult result;
};

// Throws InputError naming both files when two parts differ in definition (engines, options, time
// control, settings, openings file/seed/pairs, shard count, SPRT, gate: the first differing field is
// named), hold the same shard, or hold the same opening pair. The parts need not cover every shard.
MatchResult merge_match_results(const std::vector<NamedResult>& parts);

}  // namespace stk::harness::match
