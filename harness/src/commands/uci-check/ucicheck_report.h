// One result model, three writers: JUnit (one testcase per scenario), JSON and Markdown summaries
// with what each scenario saw (the exchanged lines of failing scenarios, head and tail).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/junit.h"
#include "commands/uci-check/scenario.h"

namespace stk::harness::ucicheck {

struct RunSummary {
  std::string config;
  std::string engine_id;  // the engine's "id name"
  Settings settings;
  std::vector<std::pair<std::string, std::string>> inputs;  // the command line, echoed
  std::vector<ScenarioResult> results;
  double time_s = 0;
  int count(Verdict v) const;
};

const char* verdict_name(Verdict v);
// Control bytes and non-ASCII as \xNN: engine output may be anything, reports must stay valid.
std::string printable(const std::string& s);
// "[   12.3 ms] > go infinite" lines: the head, the tail and the context of every harness note and
// stderr line; the rest counted as omitted.
std::vector<std::string> transcript_excerpt(const std::vector<TranscriptEntry>& t,
                                            std::size_t head = 40, std::size_t tail = 60);

junit::TestSuite to_junit(const RunSummary& run);
nlohmann::ordered_json to_json(const RunSummary& run);
// The Markdown body under the report writer's title and outcome line.
std::string to_markdown(const RunSummary& run);

}  // namespace stk::harness::ucicheck
