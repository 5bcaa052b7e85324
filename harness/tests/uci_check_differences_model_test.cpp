// Independent model of uci-check's documented differences and verdicts (docs/harnesses/uci-check.md,
// "Documented differences" and "Scenarios"): a failing scenario is excused only for an engine whose
// id name starts with an entry's prefix, only in a scenario the entry names (exactly, or every id
// beginning with an entry ending in '.' or '-'), and only when every one of its failures has a
// behaviour the entry names; an excused scenario is a <skipped> "documented difference: ...", a
// not-applicable one a <skipped> "not applicable: ...", and the counts of the JSON are the
// verdicts'. Generated engine names, scenario ids and behaviours sit on both sides of each rule.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <string>
#include <vector>

#include "commands/uci-check/documented_differences.h"
#include "commands/uci-check/ucicheck_report.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace uci_check_differences_model_test {

using namespace stk::harness;
using ucicheck::documented_differences;
using ucicheck::DocumentedDifference;
using ucicheck::find_documented_difference;
using ucicheck::RunSummary;
using ucicheck::ScenarioResult;
using Verdict = ucicheck::Verdict;
namespace junit = stk::junit;

namespace {

// Names on both sides of "starts with": the prefix itself, longer, shorter, another case.
const std::vector<std::string> kEngines = {"Stockfish 15.1", "Stockfish 15.10 dev",
                                           "Stockfish 15",   "stockfish 15.1",
                                           "stk 0.1",        ""};

// Every scenario an entry names, and ids one character off each (a longer id, a shorter one).
std::vector<std::string> scenario_ids() {
  std::vector<std::string> ids = {"limits.go-nodes-0",  "nodes.go-nodes-1000", "invariance.x",
                                  "garbage.position-x", "during-search.stop",  "other.thing"};
  for (const DocumentedDifference& d : documented_differences())
    for (const std::string& s : d.scenarios) {
      ids.push_back(s);
      ids.push_back(s + "x");
      ids.push_back(s.substr(0, s.size() - 1));
    }
  return ids;
}

std::vector<std::string> behaviour_tags() {
  std::vector<std::string> tags = {"unlisted", ""};
  for (const DocumentedDifference& d : documented_differences())
    for (const std::string& b : d.behaviours) tags.push_back(b);
  return tags;
}

bool model_scenario_matches(const std::string& entry, const std::string& id) {
  const bool is_prefix = !entry.empty() && (entry.back() == '.' || entry.back() == '-');
  return is_prefix ? id.rfind(entry, 0) == 0 : id == entry;
}

// The first entry (in the list's order) that excuses the scenario's failures, or null.
const DocumentedDifference* model_excuse(const std::string& engine, const std::string& id,
                                         const std::vector<std::string>& behaviours) {
  if (behaviours.empty()) return nullptr;  // nothing failed: nothing to excuse
  for (const DocumentedDifference& d : documented_differences()) {
    if (engine.rfind(d.engine_prefix, 0) != 0) continue;
    bool named = false;
    for (const std::string& s : d.scenarios) named = named || model_scenario_matches(s, id);
    if (!named) continue;
    bool every = true;
    for (const std::string& b : behaviours)
      every = every && std::count(d.behaviours.begin(), d.behaviours.end(), b) > 0;
    if (every) return &d;
  }
  return nullptr;
}

}  // namespace

// MODEL uci-check-differences
// checks: harness/src/commands/uci-check/documented_differences.cpp  (which failures a documented difference excuses)
// contract: docs/harnesses/uci-check.md#scenarios
// planted: ci/mutants/model-uci-check-differences.patch  (one named behaviour enough to excuse the rest)
TEST_CASE("uci-check excuses a failure only as the documented differences say",
          "[model][uci-check]") {
  const auto ids = scenario_ids();
  const auto tags = behaviour_tags();
  rc::prop("generated engines, scenarios and failures", [&] {
    const auto engine = *rc::gen::elementOf(kEngines);
    const auto id = *rc::gen::elementOf(ids);
    const auto behaviours = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(tags));
    RC_ASSERT(find_documented_difference(engine, id, behaviours) ==
              model_excuse(engine, id, behaviours));
  });
  // Both ways at the smallest margin: the exact id and one character more or less.
  CHECK(find_documented_difference("Stockfish 15.1", "during-search.go", {"hang"}));
  CHECK_FALSE(find_documented_difference("Stockfish 15.1", "during-search.gox", {"hang"}));
  CHECK(find_documented_difference("Stockfish 15.1", "nodes.x", {"nodes-overshoot-periodic"}));
  CHECK_FALSE(find_documented_difference("Stockfish 15", "nodes.x", {"nodes-overshoot-periodic"}));
}

// MODEL uci-check-verdict-cases
// checks: harness/src/commands/uci-check/ucicheck_report.cpp  (each verdict's testcase and the JSON counts)
// contract: docs/harnesses/uci-check.md#scenarios
// planted: ci/mutants/model-uci-check-verdict-cases.patch  (a documented difference counted as a failure)
TEST_CASE("uci-check writes each verdict as the documented testcase and counts",
          "[model][uci-check]") {
  rc::prop("generated results", [] {
    RunSummary run;
    run.config = "m";
    run.engine_id = "x";
    const auto verdicts = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 5));
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      ScenarioResult r;
      r.group = "g";
      r.name = "s" + std::to_string(i);
      r.verdict = Verdict(verdicts[i]);
      if (r.verdict == Verdict::Fail || r.verdict == Verdict::Difference)
        r.fail("failed " + std::to_string(i), "hang");
      if (r.verdict == Verdict::Difference) r.difference = "why " + std::to_string(i);
      if (r.verdict == Verdict::Error) r.error = "error " + std::to_string(i);
      if (r.verdict == Verdict::NotApplicable) r.skip("n/a " + std::to_string(i));
      run.results.push_back(r);
    }
    const auto suite = ucicheck::to_junit(run);
    RC_ASSERT(suite.cases.size() == verdicts.size());
    int counts[5] = {0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      const auto& tc = suite.cases[i];
      const std::string n = std::to_string(i);
      RC_ASSERT(tc.classname == "uci-check.g");
      RC_ASSERT(tc.name == "s" + n);
      ++counts[verdicts[i]];
      // Per verdict, in the enum's order: the outcome and the message the docs give.
      const std::pair<junit::Outcome, std::string> want[5] = {
          {junit::Outcome::Passed, ""},
          {junit::Outcome::Failed, "failed " + n},
          {junit::Outcome::Skipped, "documented difference: why " + n},
          {junit::Outcome::Error, "error " + n},
          {junit::Outcome::Skipped, "not applicable: n/a " + n}};
      RC_ASSERT(tc.outcome == want[verdicts[i]].first);
      if (verdicts[i] != 0) RC_ASSERT(tc.message == want[verdicts[i]].second);
    }
    const auto j = ucicheck::to_json(run);
    RC_ASSERT(j["counts"]["pass"] == counts[0]);
    RC_ASSERT(j["counts"]["fail"] == counts[1]);
    RC_ASSERT(j["counts"]["documented_difference"] == counts[2]);
    RC_ASSERT(j["counts"]["error"] == counts[3]);
    RC_ASSERT(j["counts"]["not_applicable"] == counts[4]);
  });
}

}  // namespace uci_check_differences_model_test
