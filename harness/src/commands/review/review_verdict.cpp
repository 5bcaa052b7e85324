#include "commands/review/review_verdict.h"

#include <algorithm>

#include <fmt/format.h>

namespace stk::harness::review {

namespace {

const Figure* figure(const RunRow& r, const std::string& name) { return find_figure(r, name); }

// Sum of the itemized figures "<item>.<field>" of a run.
double sum_of(const RunRow& r, const std::string& field, int* n = nullptr) {
  const std::string tail = "." + field;
  double total = 0;
  for (const Figure& f : r.figures)
    if (f.key.ends_with(tail) && f.key.size() > tail.size()) {
      total += f.value;
      if (n) ++*n;
    }
  return total;
}

std::string number(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

int rank(const std::string& outcome) {
  if (outcome == "failure") return 0;
  if (outcome == "error") return 1;
  if (outcome == "problem") return 2;
  return 3;
}

}  // namespace

std::string run_outcome(const RunRow& r) {
  if (r.errors) return "error";
  if (r.failures) return "failure";
  if (!r.problems.empty()) return "problem";
  if (r.tests && r.skipped == r.tests) return "skipped";
  return "passed";
}

const Figure* find_figure(const RunRow& r, const std::string& name) {
  const std::string key = r.harness + "." + r.config + "." + name;
  for (const Figure& f : r.figures)
    if (f.key == key) return &f;
  return nullptr;
}

int Verdict::count(const std::string& outcome) const {
  return int(std::count_if(steps.begin(), steps.end(),
                           [&](const StepLine& s) { return s.outcome == outcome; }));
}

std::string decisive_figure(const RunRow& r) {
  const auto* failed = figure(r, "failed");
  const std::string& h = r.harness;
  if (h == "perft" && failed)
    return fmt::format("{} of {} counts differ from golden", number(failed->value, 0), r.tests);
  if (h == "epd") {
    const auto *solved = figure(r, "solved"), *positions = figure(r, "positions");
    if (solved && positions)
      return fmt::format("{} of {} positions solved", number(solved->value, 0),
                         number(positions->value, 0));
  }
  if (h == "bench") {
    const auto *nodes = figure(r, "nodes"), *golden = figure(r, "expected_nodes");
    if (nodes && golden)
      return fmt::format("signature {} nodes, golden {}", number(nodes->value, 0),
                         number(golden->value, 0));
  }
  if (h == "features" || h == "eval") {
    int n = 0;
    const double differ = sum_of(r, "mismatches", &n), positions = sum_of(r, "positions");
    if (n) return fmt::format("{} of {} positions differ", number(differ, 0), number(positions, 0));
  }
  if (h == "accumulator") {
    const double steps = sum_of(r, "steps_checked"), miss = sum_of(r, "mismatches");
    return fmt::format("{} mismatches in {} steps checked", number(miss, 0), number(steps, 0));
  }
  if (h == "drift")
    if (const auto* p99 = figure(r, "p99"))
      return fmt::format("|quantized - float| p99 {} cp", number(p99->value, 2));
  if (h == "shadow") {
    const Figure* worst = nullptr;
    for (const Figure& f : r.figures)
      if (f.key.ends_with(".excess_lo") && (!worst || f.value > worst->value)) worst = &f;
    if (worst)
      return fmt::format("largest excess lower bound {} ({})", number(worst->value, 4),
                         worst->label.substr(0, worst->label.find(':')));
  }
  if (h == "calibration")
    if (const auto* ece = figure(r, "ece"))
      return fmt::format("expected calibration error {}", number(ece->value, 4));
  if (h == "netlint")
    if (const auto* room = figure(r, "int16_headroom"))
      return fmt::format("int16 headroom {}x", number(room->value, 2));
  if (is_mutant_report(h))
    if (const auto* score = figure(r, "score"))
      return fmt::format("mutation score {}%", number(score->value, 1));
  if (h == "compare") {
    int n = 0;
    const double lost = sum_of(r, "lost", &n), gained = sum_of(r, "gained");
    if (const auto* speed = figure(r, "speed_ratio"); speed && n)
      return fmt::format("{} positions lost, {} gained; speed {}x the base", number(lost, 0),
                         number(gained, 0), number(speed->value, 3));
  }
  if (h == "match")
    if (const auto* elo = figure(r, "elo"), *err = figure(r, "elo_error"); elo && err)
      return fmt::format("Elo {} +- {}", number(elo->value, 1), number(err->value, 1));
  const int passed = r.tests - r.failures - r.errors - r.skipped;
  return fmt::format("{} of {} testcases passed", passed, r.tests);
}

Verdict verdict_of(const ReviewData& data) {
  Verdict v;
  const RunRow* tier = nullptr;
  for (const RunRow& r : data.runs)
    if (r.harness == "all") tier = &r;
  if (tier) {
    for (const CaseResult& c : tier->cases) {
      StepLine s{c.name, c.outcome, "", nullptr, {}};
      // A step may write several JUnit files (fhcollect, then calibration): the last decides.
      for (const std::string& junit : c.reports)
        for (const RunRow& r : data.runs)
          if (r.junit == junit) s.runs.push_back(&r), s.run = &r;
      for (const RunRow* r : s.runs)
        if (s.outcome == "passed" && !r->problems.empty()) s.outcome = "problem";
      s.decisive = s.run ? decisive_figure(*s.run) : "its report is not in this directory";
      v.steps.push_back(std::move(s));
    }
  }
  // Every other JUnit file of the directory (the tests' own, a mutation run) is a line too.
  for (const RunRow& r : data.runs) {
    const bool listed = std::any_of(v.steps.begin(), v.steps.end(), [&](const StepLine& s) {
      return std::find(s.runs.begin(), s.runs.end(), &r) != s.runs.end();
    });
    if (&r != tier && !listed)
      v.steps.push_back({r.config.empty() ? r.harness : r.harness + "." + r.config,
                         run_outcome(r),
                         decisive_figure(r),
                         &r,
                         {&r}});
  }
  std::stable_sort(v.steps.begin(), v.steps.end(), [](const StepLine& a, const StepLine& b) {
    return rank(a.outcome) < rank(b.outcome);
  });
  const bool failed = v.count("failure") > 0;
  const bool error = v.count("error") + v.count("problem") > 0 || !data.problems.empty();
  v.overall = failed ? "failed" : error ? "error" : "passed";
  return v;
}

}  // namespace stk::harness::review
