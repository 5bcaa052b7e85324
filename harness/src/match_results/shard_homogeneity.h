// match-merge's homogeneity check (docs/match-results.md "Homogeneity across shards"): the files
// merged, each one shard (or several) of one match, tested for one pentanomial law so that one bad
// worker shows. It informs the reports; the gate's verdict does not depend on it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "match_results/match_merge.h"
#include "stats/homogeneity.h"

namespace stk::harness::match {

// The test over the files as merged (each file one row, labelled by its name, rows in order of
// each file's first shard: the order the files were given in changes nothing).
HomogeneityResult shard_homogeneity(const std::vector<NamedResult>& parts,
                                    const HomogeneityOptions& options = {});

// One line: "homogeneity of 4 files: chi2 3.10 (dof 9), p 0.960 (2000 permutations, seed
// 20261204): consistent" or "...: FLAGGED, most out of line: FILE (residual -3.41, score 0.412)",
// or "homogeneity: not applicable (fewer than 2 files with pairs)".
std::string homogeneity_line(const HomogeneityResult& h);

// The JSON written under "homogeneity" in the merged report.
nlohmann::ordered_json homogeneity_json(const HomogeneityResult& h);

}  // namespace stk::harness::match
