// Every statistic of a set of counts in one structure, with the writers that print it (console text,
// JSON, a one-line summary for JUnit messages): `stk-harness sprt`, `match-merge` and the match
// runner all report through it, so a report can be rechecked by pasting its counts into `sprt`.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "stats/elo.h"
#include "stats/pentanomial.h"
#include "stats/sprt.h"

namespace stk::harness::match {

struct MatchAnalysis {
  std::optional<PentanomialCounts> penta;
  std::optional<WdlCounts> wdl;
  std::optional<EloEstimate> penta_estimate, wdl_estimate;
  std::optional<SprtParams> sprt;
  std::optional<SprtResult> sprt_result;
  bool sprt_on_trinomial = false;  // no pentanomial counts: the SPRT ran on W/D/L (reference only)
};

// Estimates for whichever counts are given (at least one, with games); the SPRT when `sprt` is set,
// on the pentanomial counts if present. Throws std::invalid_argument on empty counts or bad params.
MatchAnalysis analyse(const std::optional<PentanomialCounts>& penta,
                      const std::optional<WdlCounts>& wdl, const std::optional<SprtParams>& sprt);

std::string to_text(const MatchAnalysis& a);
nlohmann::ordered_json to_json(const MatchAnalysis& a);
// "20000 pairs (ptnml 200,4860,10023,4742,175), Elo -1.46 +- 1.79 [-3.25, 0.33], nElo ..., LLR ..."
std::string one_line(const MatchAnalysis& a);

}  // namespace stk::harness::match
