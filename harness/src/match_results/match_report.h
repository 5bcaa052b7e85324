// The pre-merge gate on a finished or merged match, and its reports: the result file itself
// (reports/match/<config>.json), a Markdown summary and JUnit (one testcase, classname match.<config>).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match_results/match_result.h"
#include "stats/homogeneity.h"

namespace stk::harness::match {

struct GateOutcome {
  bool passed = false;
  std::string verdict;  // e.g. "SPRT H1 accepted", "SPRT undecided", "Elo lower95 -0.84 <= -1.00"
};

// The gate fixed in the definition (see GateSpec). Throws InputError when no pair was played.
GateOutcome evaluate_gate(const MatchResult& r);

struct MatchPublished {
  int exit_code = 0;  // 0 gate passed, 1 gate failed
  std::string summary;
  std::string junit_path, json_path, md_path;
  // The summary's last line, its verdict, with its newline: all that --quiet prints.
  std::string verdict_line() const;
};

// What a run adds to the gate's report.
struct PublishOptions {
  // match-merge: the test across the files merged, reported beside the gate: a line of the
  // summary, `homogeneity.*` JUnit properties, "homogeneity" in the JSON.
  const HomogeneityResult* homogeneity = nullptr;
  // --max-faults: a second testcase, `faults`, fails when more games than this ended by a fault
  // (time loss, crash, illegal move, disconnect; either engine); unset: no such testcase.
  std::optional<std::uint64_t> max_faults;
};

// Games that ended by a fault of either engine.
std::uint64_t games_lost_by_fault(const MatchResult& r);

// Writes <out_dir>/match/<stem>.json and .md and <out_dir>/junit/match-<stem>.xml (testsuite and
// testcase classname match.<stem>); stem "" means the definition's config. `properties` (inputs as
// given) go first into the JUnit <properties>.
MatchPublished publish_match(const MatchResult& r,
                             const std::vector<std::pair<std::string, std::string>>& properties,
                             const std::string& out_dir, std::string stem = "",
                             const PublishOptions& options = {});

}  // namespace stk::harness::match
