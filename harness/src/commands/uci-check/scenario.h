// A uci-check scenario: one JUnit testcase. It drives a fresh engine session and records what
// it saw: failures (each with a behaviour tag that documented differences are matched on),
// warnings, and measured facts (every time a number, in milliseconds). A scenario that does not
// apply to the engine (ponder for one that does not advertise the Ponder option) says why: it is
// "not applicable", neither a pass nor a failure (a JUnit <skipped>).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/uci-check/engine_session.h"

namespace stk::harness::ucicheck {

enum class Verdict { Pass, Fail, Difference, Error, NotApplicable };

struct Failure {
  std::string text;
  std::string
      behaviour;  // short tag of what the engine did ("hang", "crash", "searches-until-stop"...)
};

struct ScenarioResult {
  std::string group, name;  // JUnit classname "uci-check.<group>", name
  Verdict verdict = Verdict::Pass;
  std::vector<Failure> failures;
  std::vector<std::string> warnings;
  std::string difference;  // the documented difference that excused the failures
  std::string error;       // why the scenario could not run (Verdict::Error)
  nlohmann::ordered_json facts = nlohmann::ordered_json::object();
  // Figures also written as JUnit suite properties "<group>.<name>.<key>" (latency percentiles).
  std::vector<std::pair<std::string, std::string>> properties;
  std::string not_applicable;  // why the scenario does not apply (Verdict::NotApplicable)
  std::vector<TranscriptEntry> transcript;
  double time_s = 0;

  void fail(std::string text, std::string behaviour = "") {
    failures.push_back({std::move(text), std::move(behaviour)});
  }
  void warn(std::string text) { warnings.push_back(std::move(text)); }
  void skip(std::string why) { not_applicable = std::move(why); }
  bool failed() const { return !failures.empty(); }
};

struct Scenario {
  std::string group, name, summary;
  std::function<void(Session&, ScenarioResult&)> run;
  std::string id() const { return group + "." + name; }
};

// Every scenario, in the order they run.
std::vector<Scenario> all_scenarios(const Settings& settings);

// One adder per file, each for one group.
void add_handshake_scenarios(std::vector<Scenario>& out,
                             const Settings& s);  // handshake_scenarios.cpp
void add_during_search_scenarios(std::vector<Scenario>& out,
                                 const Settings& s);  // during_search_scenarios.cpp
void add_limit_scenarios(std::vector<Scenario>& out, const Settings& s);  // limit_scenarios.cpp
void add_node_limit_scenarios(std::vector<Scenario>& out,
                              const Settings& s);  // node_limit_scenarios.cpp
void add_time_use_scenarios(std::vector<Scenario>& out,
                            const Settings& s);                        // time_use_scenarios.cpp
void add_pv_scenarios(std::vector<Scenario>& out, const Settings& s);  // pv_scenarios.cpp
void add_notation_scenarios(std::vector<Scenario>& out,
                            const Settings& s);                          // notation_scenarios.cpp
void add_game_scenarios(std::vector<Scenario>& out, const Settings& s);  // game_scenarios.cpp
void add_garbage_scenarios(std::vector<Scenario>& out, const Settings& s);  // garbage_scenarios.cpp
void add_ponder_scenarios(std::vector<Scenario>& out, const Settings& s);   // ponder_scenarios.cpp
void add_latency_scenarios(std::vector<Scenario>& out,
                           const Settings& s);  // latency_scenarios.cpp
void add_invariance_scenarios(std::vector<Scenario>& out,
                              const Settings& s);  // invariance_scenarios.cpp

}  // namespace stk::harness::ucicheck
