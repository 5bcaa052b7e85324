// compare's writers: the gates as JUnit testcases, the JSON and Markdown summaries, the console table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "commands/compare/compare_result.h"
#include "report/junit.h"

namespace stk::harness::compare {

// One testcase per measurement (bench, tree size, speed, solved set per budget, audits); a case
// fails only under a gate that was asked for. Properties: inputs, sides, build facts.
junit::TestSuite judge(const CompareResult& r, const Gates& gates);

// The figures of reports/compare/<config>.json (after the report envelope) and the Markdown body.
nlohmann::json to_json(const CompareResult& r, const junit::TestSuite& verdict);
std::string to_markdown(const CompareResult& r, const junit::TestSuite& verdict);
// The side-by-side table printed at the end of a run.
std::string console_table(const CompareResult& r);

}  // namespace stk::harness::compare
