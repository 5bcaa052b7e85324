// Independent model of the review page's inputs and figures (docs/review.md, "Review page"):
// reports directories generated with random outcomes and summaries; the counts are predicted from
// the generated testcases, and every figure on the page must read back, through its data-src and
// data-ptr (RFC 6901), as the JSON value it shows, rounded to its data-digits.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "commands/review/review_inputs.h"
#include "commands/review/review_page.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace review_model_test {

namespace fs = std::filesystem;
using namespace stk::harness;
using Json = nlohmann::json;

namespace {

enum class Kind { Passed, Failure, Error, Skipped };

struct GenRun {
  std::vector<Kind> cases;
  std::map<std::string, double> buckets;  // per_bucket key -> p99
  double p99 = 0, max = 0;
  int overflow = 0;
};

std::string html_unescape(std::string s) {
  const std::vector<std::pair<std::string, std::string>> ents = {{"&lt;", "<"},    {"&gt;", ">"},
                                                                 {"&quot;", "\""}, {"&#39;", "'"},
                                                                 {"&#x27;", "'"},  {"&amp;", "&"}};
  for (const auto& [e, c] : ents)
    for (std::size_t at = 0; (at = s.find(e, at)) != std::string::npos; at += c.size())
      s.replace(at, e.size(), c);
  return s;
}

void write_run(const fs::path& dir, const std::string& config, const GenRun& run) {
  int f = 0, e = 0, s = 0;
  std::string cases;
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    cases += "    <testcase classname=\"drift." + config + "\" name=\"case " + std::to_string(i) +
             "\" time=\"0.1\">";
    switch (run.cases[i]) {
      case Kind::Failure:
        ++f, cases += "<failure message=\"bad " + std::to_string(i) + "\">d</failure>";
        break;
      case Kind::Error:
        ++e, cases += "<error message=\"broke " + std::to_string(i) + "\">d</error>";
        break;
      case Kind::Skipped: ++s, cases += "<skipped message=\"later\"/>"; break;
      case Kind::Passed: break;
    }
    cases += "</testcase>\n";
  }
  const std::string n = std::to_string(run.cases.size());
  fs::create_directories(dir / "junit");
  std::ofstream(dir / "junit" / ("drift-" + config + ".xml"))
      << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"" << n << "\" failures=\""
      << f << "\" errors=\"" << e << "\" time=\"1\">\n  <testsuite name=\"drift." << config
      << "\" tests=\"" << n << "\" failures=\"" << f << "\" errors=\"" << e << "\" skipped=\"" << s
      << "\" time=\"1\">\n"
      << cases << "  </testsuite>\n</testsuites>\n";
  Json j;
  j["report"] = {{"schema", "stk-report/1"},
                 {"harness", "drift"},
                 {"config", config},
                 {"junit", "../junit/drift-" + config + ".xml"},
                 {"tests", run.cases.size()},
                 {"failures", f},
                 {"errors", e},
                 {"skipped", s},
                 {"passed", f + e == 0},
                 {"plots", Json::array()}};
  j["harness"] = "drift";
  j["config"] = config;
  j["abs_delta_cp"] = {{"p99", run.p99}, {"max", run.max}};
  j["int16_overflow_lanes"] = run.overflow;
  j["per_bucket"] = Json::object();
  for (const auto& [k, v] : run.buckets) j["per_bucket"][k] = {{"p99", v}, {"count", 3}};
  fs::create_directories(dir / "drift");
  std::ofstream(dir / "drift" / (config + ".json")) << j.dump(2);
}

rc::Gen<GenRun> gen_run() {
  static const std::vector<std::string> keys = {"0",  "7", "31",  "a/b", "x~y",
                                                "~1", "/", "<&>", "q\"t"};
  return rc::gen::build<GenRun>(
      rc::gen::set(&GenRun::cases,
                   rc::gen::mapcat(rc::gen::inRange<std::size_t>(1, 12),
                                   [](std::size_t n) {
                                     return rc::gen::container<std::vector<Kind>>(
                                         n, rc::gen::elementOf(
                                                std::vector<Kind>{Kind::Passed, Kind::Passed,
                                                                  Kind::Failure, Kind::Error,
                                                                  Kind::Skipped}));
                                   })),
      rc::gen::set(&GenRun::buckets,
                   rc::gen::map(rc::gen::container<std::vector<std::pair<bool, int>>>(
                                    keys.size(), rc::gen::pair(rc::gen::arbitrary<bool>(),
                                                               rc::gen::inRange(0, 100000))),
                                [](const std::vector<std::pair<bool, int>>& picks) {
                                  std::map<std::string, double> m;
                                  for (std::size_t i = 0; i < picks.size(); ++i)
                                    if (picks[i].first) m[keys[i]] = picks[i].second / 1000.0;
                                  return m;
                                })),
      rc::gen::set(&GenRun::p99,
                   rc::gen::map(rc::gen::inRange(0, 100000), [](int v) { return v / 997.0; })),
      rc::gen::set(&GenRun::max,
                   rc::gen::map(rc::gen::inRange(0, 100000), [](int v) { return v / 13.0; })),
      rc::gen::set(&GenRun::overflow, rc::gen::inRange(0, 5)));
}

}  // namespace

// MODEL review-figures
// checks: harness/src/commands/review/review_inputs.cpp  (each row's counts and its figures' JSON pointers)
// contract: docs/review.md#review-page
// planted: ci/mutants/model-review-figures.patch  (the RFC 6901 escapes of '~' and '/' swapped)
TEST_CASE(
    "review rows count the generated testcases and every figure on the page reads back from its JSON pointer",
    "[model][review]") {
  const auto dir = stk::test::scratch_dir("review-model");
  rc::prop("generated reports directories", [dir] {
    fs::remove_all(dir);
    const auto runs = *rc::gen::container<std::vector<GenRun>>(*rc::gen::inRange<std::size_t>(1, 4),
                                                               gen_run());
    for (std::size_t i = 0; i < runs.size(); ++i) write_run(dir, "c" + std::to_string(i), runs[i]);
    const auto data = review::read_reports(dir.string(), "");
    RC_ASSERT(data.runs.size() == runs.size());
    std::size_t figures = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const auto& row = data.runs[i];
      const auto& run = runs[i];
      auto count = [&](Kind k) { return int(std::count(run.cases.begin(), run.cases.end(), k)); };
      RC_ASSERT(row.junit == "junit/drift-c" + std::to_string(i) + ".xml");
      RC_ASSERT(row.tests == int(run.cases.size()));
      RC_ASSERT(row.failures == count(Kind::Failure));
      RC_ASSERT(row.errors == count(Kind::Error));
      RC_ASSERT(row.skipped == count(Kind::Skipped));
      RC_ASSERT(row.failing.size() == std::size_t(count(Kind::Failure) + count(Kind::Error)));
      RC_ASSERT(row.problems.empty());
      std::size_t bucket_figures = 0;
      for (const auto& fig : row.figures) {
        // Keys are "<harness>.<config>.<name>" (docs/review.md; history rows use them too).
        const std::string prefix = "drift.c" + std::to_string(i) + ".";
        RC_ASSERT(fig.key.rfind(prefix, 0) == 0);
        if (fig.key.rfind(prefix + "bucket", 0) == 0) ++bucket_figures;
        ++figures;
      }
      RC_ASSERT(bucket_figures == run.buckets.size());
    }
    // Every figure on the page, read back through its data-src and data-ptr.
    const std::string page = review::render_page(data, review::PageContext{});
    const std::regex span(
        "<span class=\"fig\" data-key=\"([^\"]*)\" data-src=\"([^\"]*)\" data-ptr=\"([^\"]*)\" "
        "data-digits=\"([0-9]+)\">([^<]*)</span>");
    std::size_t seen = 0;
    for (auto it = std::sregex_iterator(page.begin(), page.end(), span);
         it != std::sregex_iterator(); ++it) {
      const std::string src = html_unescape((*it)[2]), ptr = html_unescape((*it)[3]);
      if (ptr.empty()) continue;
      std::ifstream in(dir / src);
      const Json j = Json::parse(in);
      const Json::json_pointer p(ptr);
      RC_ASSERT(j.contains(p));
      const double v = j.at(p).get<double>();
      const int digits = std::stoi((*it)[4]);
      RC_ASSERT(std::fabs(std::stod((*it)[5]) - v) <= 0.5 * std::pow(10.0, -digits) + 1e-9);
      ++seen;
    }
    RC_ASSERT(seen >= figures);
  });
}

}  // namespace review_model_test
