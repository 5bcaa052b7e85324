// uci-check's ponder and latency groups (ponder_scenarios.cpp, latency_scenarios.cpp) end to end:
// each planted defect of the fake engine fails its scenario with the behaviour and the figures in
// the message, an engine without the Ponder option makes the ponder group "not applicable"
// (JUnit <skipped>, neither pass nor fail), and stk passes both groups with its latency figures
// in the report and as JUnit suite properties.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_support.h"

using Catch::Matchers::Contains;
using namespace stk;

namespace {

std::string ponder_fake_bin() {
  return test::env_or("STK_FAKE_UCI", test::binary_dir() + "/harness/stk-fake-uci");
}

struct PonderCheckRun {
  test::RunResult result;
  nlohmann::json json;
  std::map<std::string, nlohmann::json> by_id;
  std::string junit;  // the JUnit file's text
};

PonderCheckRun ponder_uci_check(const std::string& dir_name, const std::string& args) {
  auto dir = test::scratch_dir(dir_name);
  PonderCheckRun run;
  run.result = test::run_command(test::harness_bin() + " uci-check --config t --out-dir " +
                                 dir.string() + " " + args);
  std::ifstream in(dir / "uci-check" / "t.json");
  if (in) {
    in >> run.json;
    for (const auto& s : run.json["scenarios"]) run.by_id[s["id"].get<std::string>()] = s;
    CHECK(test::validate_junit((dir / "junit" / "uci-check-t.xml").string()) == "");
    run.junit = test::read_file(dir / "junit" / "uci-check-t.xml");
  }
  return run;
}

}  // namespace

TEST_CASE("uci-check: each planted ponder or latency defect of the fake engine fails its scenario",
          "[uci-check][harness]") {
  struct Planted {
    std::string defect, scenario, behaviour, message;
  };
  const std::vector<Planted> planted = {
      {"answers-during-ponder", "ponder.ponderhit-after-budget", "answers-during-ponder",
       "before any ponderhit or stop"},
      {"ponderhit-stops", "ponder.ponderhit-continues", "ponderhit-stops",
       "ponderhit was taken as stop"},
      {"slow-stop", "ponder.stop", "slow-stop", "after stop during go ponder (gate: 250 ms)"},
      // The latency figures are times: a loaded machine adds to them, never takes away, so
      // they are bounded below by the planted delay, not matched as text.
      {"slow-stop", "latency.stop", "slow-stop", "p99 "},
      {"movetime-overrun", "latency.movetime", "movetime-overrun", "max "},
  };
  for (const Planted& p : planted) {
    // The defect's scenario plus one that must still pass: a defect never errors the run out.
    PonderCheckRun run = ponder_uci_check("uci-check-ponder-" + p.defect,
                                          "--engine '" + ponder_fake_bin() + " --defect " +
                                              p.defect + "' --only " + p.scenario +
                                              " --only handshake.uci");
    INFO(p.defect << " / " << p.scenario << "\n" << run.result.output);
    CHECK(run.result.exit_code == 1);
    REQUIRE(run.by_id.count(p.scenario));
    const auto& s = run.by_id[p.scenario];
    CHECK(s["verdict"] == "fail");
    std::set<std::string> behaviours;
    for (const auto& f : s["failures"]) behaviours.insert(f["behaviour"].get<std::string>());
    CHECK(behaviours.count(p.behaviour));
    REQUIRE(!s["failures"].empty());
    CHECK_THAT(s["failures"][0]["text"].get<std::string>(), Contains(p.message));
    CHECK(run.by_id["handshake.uci"]["verdict"] == "pass");
    if (p.scenario.rfind("latency.", 0) == 0) {
      // The figures that failed are reported: a slow engine stops early, after 10 searches.
      CHECK_THAT(s["failures"][0]["text"].get<std::string>(),
                 Contains("p50") && Contains("seed 1") && Contains("stopped once the gate"));
      CHECK(s["facts"]["searches"] == 10);
      CHECK(s["facts"]["p99_ms"].get<double>() > 250);
      if (p.defect == "slow-stop") CHECK(s["facts"]["p99_ms"].get<double>() >= 400);
      if (p.defect == "movetime-overrun") CHECK(s["facts"]["max_ms"].get<double>() >= 300);
      CHECK_THAT(run.junit, Contains("<property name=\"" + p.scenario + ".p99_ms\""));
    }
  }
}

TEST_CASE("uci-check: ponder does not apply to an engine without the Ponder option",
          "[uci-check][harness]") {
  PonderCheckRun run = ponder_uci_check("uci-check-ponder-none",
                                        "--engine '" + ponder_fake_bin() +
                                            " --defect no-ponder-option' --only ponder");
  INFO(run.result.output);
  CHECK(run.result.exit_code == 0);
  REQUIRE(run.by_id.size() == 3);
  for (const auto& [id, s] : run.by_id) {
    INFO(id);
    CHECK(s["verdict"] == "not applicable");
    CHECK_THAT(s["not_applicable"].get<std::string>(), Contains("Ponder option"));
    CHECK(s["failures"].empty());
  }
  CHECK(run.json["counts"]["not_applicable"] == 3);
  CHECK(run.json["counts"]["pass"] == 0);
  CHECK(run.json["counts"]["fail"] == 0);
  CHECK_THAT(run.junit, Contains("skipped=\"3\""));
  CHECK_THAT(run.junit, Contains("<skipped message=\"not applicable: the engine does not"));
}

TEST_CASE("uci-check: stk ponders and answers within the latency gates", "[uci-check][harness]") {
  PonderCheckRun run = ponder_uci_check("uci-check-ponder-stk",
                                        "--engine " + test::engine_bin() +
                                            " --only ponder --only latency");
  INFO(run.result.output);
  CHECK(run.result.exit_code == 0);
  REQUIRE(run.by_id.size() == 5);
  for (const auto& [id, s] : run.by_id) {
    INFO(id << ": " << s.dump());
    CHECK(s["verdict"] == "pass");
  }
  // ponderhit continued the search (a 10 s clock: stk's soft limit is 200 ms from ponderhit).
  CHECK(
      run.by_id["ponder.ponderhit-continues"]["facts"]["ponderhit_to_bestmove_ms"].get<double>() >=
      150);
  for (const char* id : {"latency.stop", "latency.movetime"}) {
    INFO(id);
    const auto& facts = run.by_id[id]["facts"];
    CHECK(facts["searches"] == 100);
    CHECK(facts["seed"] == 1);
    CHECK(facts["p50_ms"].get<double>() <= facts["p99_ms"].get<double>());
    CHECK(facts["p99_ms"].get<double>() <= facts["max_ms"].get<double>());
    for (const char* key : {".p50_ms\"", ".p99_ms\"", ".max_ms\"", ".seed\" value=\"1\""})
      CHECK_THAT(run.junit, Contains("<property name=\"" + std::string(id) + key));
  }
  CHECK_THAT(run.junit, Contains("<property name=\"gate.stop_p99_ms\" value=\"50\""));
}
