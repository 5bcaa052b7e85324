// Independent models of the report module (docs/report-schema.md, ../shared/HARNESS.md "JUnit
// conventions"): the counts a JUnit file states per suite and at its root, the JSON envelope's
// counts and verdict, and the summary-file writer. The models are written from the contract and
// compared with the code on generated reports; metamorphic: splitting a suite in two changes no
// root count.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <tinyxml2.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_support.h"
#include "report/junit.h"
#include "report/run_report.h"
#include "report/summary_files.h"
#include "rc_support.h"

using namespace stk;

namespace report_model {

using junit::Outcome;

// The counts the contract states for a set of testcases.
struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

Counts model_counts(const std::vector<Outcome>& outcomes) {
  Counts c;
  for (Outcome o : outcomes) {
    ++c.tests;
    if (o == Outcome::Failed) ++c.failures;
    if (o == Outcome::Error) ++c.errors;
    if (o == Outcome::Skipped) ++c.skipped;
  }
  return c;
}

// Mostly passing cases, so that runs without a failure, or without an error, are common.
rc::Gen<Outcome> gen_outcome() {
  return rc::gen::weightedElement<Outcome>(
      {{6, Outcome::Passed}, {2, Outcome::Skipped}, {1, Outcome::Failed}, {1, Outcome::Error}});
}

// One suite per outcome list; testcase names unique.
std::vector<junit::TestSuite> make_suites(const std::vector<std::vector<Outcome>>& per_suite) {
  std::vector<junit::TestSuite> suites;
  int id = 0;
  for (std::size_t s = 0; s < per_suite.size(); ++s) {
    junit::TestSuite suite;
    suite.name = "model.s" + std::to_string(s);
    for (Outcome o : per_suite[s]) {
      junit::TestCase tc;
      tc.classname = "model.cases";
      tc.name = "case " + std::to_string(id++);
      tc.outcome = o;
      if (o != Outcome::Passed) tc.message = "why";
      suite.cases.push_back(tc);
    }
    suites.push_back(suite);
  }
  return suites;
}

int int_attr(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  RC_ASSERT(v != nullptr);
  return std::stoi(v);
}

// The counts the XML states at its root and per suite, read back from the text.
struct XmlCounts {
  Counts root;
  std::vector<Counts> suites;
  std::vector<std::vector<std::string>> child_tags;  // per suite, per testcase: the outcome element
};

XmlCounts read_xml(const std::string& xml) {
  tinyxml2::XMLDocument doc;
  RC_ASSERT(doc.Parse(xml.c_str()) == tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* root = doc.FirstChildElement("testsuites");
  RC_ASSERT(root != nullptr);
  XmlCounts x;
  x.root.tests = int_attr(root, "tests");
  x.root.failures = int_attr(root, "failures");
  x.root.errors = int_attr(root, "errors");
  for (auto* s = root->FirstChildElement("testsuite"); s; s = s->NextSiblingElement("testsuite")) {
    Counts c;
    c.tests = int_attr(s, "tests");
    c.failures = int_attr(s, "failures");
    c.errors = int_attr(s, "errors");
    c.skipped = int_attr(s, "skipped");
    x.suites.push_back(c);
    std::vector<std::string> tags;
    for (auto* tc = s->FirstChildElement("testcase"); tc; tc = tc->NextSiblingElement("testcase")) {
      std::string tag;
      for (auto* ch = tc->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
        const std::string n = ch->Name();
        if (n == "failure" || n == "error" || n == "skipped") tag += n;
      }
      tags.push_back(tag);
    }
    x.child_tags.push_back(tags);
  }
  return x;
}

std::string model_tag(Outcome o) {
  return o == Outcome::Failed    ? "failure"
         : o == Outcome::Error   ? "error"
         : o == Outcome::Skipped ? "skipped"
                                 : "";
}

}  // namespace report_model

// MODEL report-junit-counts
// checks: harness/src/report/junit.cpp  (each testsuite's tests/failures/errors/skipped and the root totals)
// contract: docs/report-schema.md#junit-counts
// planted: ci/mutants/model-report-junit-counts.patch  (the root's errors summed from the suites' failures)
TEST_CASE("model: JUnit suite and root counts equal the counts of the testcases' outcomes",
          "[model][report]") {
  using namespace report_model;
  rc::prop("per suite and at the root, and a split suite keeps the root counts", [] {
    const auto per_suite = *stk::test::up_to<std::vector<std::vector<Outcome>>>(
        4, stk::test::up_to<std::vector<Outcome>>(12, gen_outcome()));
    const XmlCounts x = read_xml(junit::to_xml(make_suites(per_suite)));
    RC_ASSERT(x.suites.size() == per_suite.size());
    Counts all;
    std::vector<Outcome> flat;
    for (std::size_t s = 0; s < per_suite.size(); ++s) {
      const Counts m = model_counts(per_suite[s]);
      RC_ASSERT(x.suites[s].tests == m.tests);
      RC_ASSERT(x.suites[s].failures == m.failures);
      RC_ASSERT(x.suites[s].errors == m.errors);
      RC_ASSERT(x.suites[s].skipped == m.skipped);
      RC_ASSERT(x.child_tags[s].size() == per_suite[s].size());
      for (std::size_t i = 0; i < per_suite[s].size(); ++i)
        RC_ASSERT(x.child_tags[s][i] == model_tag(per_suite[s][i]));
      flat.insert(flat.end(), per_suite[s].begin(), per_suite[s].end());
    }
    all = model_counts(flat);
    RC_ASSERT(x.root.tests == all.tests);
    RC_ASSERT(x.root.failures == all.failures);
    RC_ASSERT(x.root.errors == all.errors);

    // Metamorphic: the same cases as one suite, or split in two at any point, give the same root.
    const std::size_t cut = *rc::gen::inRange<std::size_t>(0, flat.size() + 1);
    const std::vector<Outcome> a(flat.begin(), flat.begin() + long(cut)),
        b(flat.begin() + long(cut), flat.end());
    const XmlCounts whole = read_xml(junit::to_xml(make_suites({flat})));
    const XmlCounts split = read_xml(junit::to_xml(make_suites({a, b})));
    RC_ASSERT(whole.root.tests == split.root.tests);
    RC_ASSERT(whole.root.failures == split.root.failures);
    RC_ASSERT(whole.root.errors == split.root.errors);
    RC_ASSERT(split.suites[0].skipped + split.suites[1].skipped == whole.suites[0].skipped);
  });
}

// MODEL report-run-envelope
// checks: harness/src/report/run_report.cpp  (the JSON envelope's counts and its passed verdict)
// contract: docs/report-schema.md#the-json-envelope-schema-stk-report1
// planted: ci/mutants/model-report-run-envelope.patch  (passed ignores errors)
TEST_CASE(
    "model: the JSON envelope states the run's counts and passes only without failures or errors",
    "[model][report]") {
  using namespace report_model;
  rc::prop("envelope counts and passed over every suite of the run", [] {
    const auto per_suite = *stk::test::up_to<std::vector<std::vector<Outcome>>>(
        4, stk::test::up_to<std::vector<Outcome>>(10, gen_outcome()));
    report::RunReport run("model", "cfg");
    run.suites = make_suites(per_suite);
    run.figures["x"] = 1;
    std::vector<Outcome> flat;
    for (const auto& s : per_suite) flat.insert(flat.end(), s.begin(), s.end());
    const Counts m = model_counts(flat);
    const bool model_passed = m.failures == 0 && m.errors == 0;

    const auto doc = report::parse_json_text(report::to_json_text(run, "../junit/model-cfg.xml"),
                                             "<model>");
    RC_ASSERT(doc.begin().key() == std::string("report"));
    const auto& e = doc.at("report");
    RC_ASSERT(e.at("schema").get<std::string>() == "stk-report/1");
    RC_ASSERT(e.at("harness").get<std::string>() == "model");
    RC_ASSERT(e.at("config").get<std::string>() == "cfg");
    RC_ASSERT(e.at("junit").get<std::string>() == "../junit/model-cfg.xml");
    RC_ASSERT(e.at("tests").get<int>() == m.tests);
    RC_ASSERT(e.at("failures").get<int>() == m.failures);
    RC_ASSERT(e.at("errors").get<int>() == m.errors);
    RC_ASSERT(e.at("skipped").get<int>() == m.skipped);
    RC_ASSERT(e.at("passed").get<bool>() == model_passed);
    RC_ASSERT(doc.at("x").get<int>() == 1);
    // The envelope's counts equal the JUnit file's root (the review page's check).
    const XmlCounts x = read_xml(junit::to_xml(run.suites));
    RC_ASSERT(x.root.tests == m.tests);
    RC_ASSERT(x.root.failures == m.failures);
    RC_ASSERT(x.root.errors == m.errors);
  });
  SECTION("both ways: one error or one failure fails the run, skipped cases do not") {
    for (Outcome o : {Outcome::Failed, Outcome::Error, Outcome::Skipped}) {
      report::RunReport run("model", "cfg");
      run.suites = make_suites({{Outcome::Passed, o}});
      const auto e = report::envelope(run, "j.xml");
      CHECK(e.at("passed").get<bool>() == (o == Outcome::Skipped));
      CHECK(e.at("tests").get<int>() == 2);
    }
  }
}

// MODEL report-summary-file
// checks: harness/src/report/summary_files.cpp  (a summary file holds exactly the text given)
// contract: docs/report-schema.md#summary-files
// planted: ci/mutants/model-report-summary-file.patch  (the text cut at its first NUL byte)
TEST_CASE("model: a summary file holds exactly the bytes given and replaces an earlier one",
          "[model][report]") {
  const auto dir = test::scratch_dir("report-model-summary");
  // Each case writes over the previous case's file (longer or shorter), in a fresh folder now
  // and then.
  rc::prop("any bytes, written over an earlier file, read back whole", [&] {
    const std::string text = *rc::gen::container<std::string>(
        rc::gen::oneOf(rc::gen::element('\0', '\n', '\r', '\xff', '\x80'),
                       rc::gen::inRange<char>(' ', '~')));
    const auto path = dir / "sub" / "folder" / "summary.json";
    if (*rc::gen::weightedElement<bool>({{4, false}, {1, true}}))
      std::filesystem::remove_all(dir / "sub");
    harness::write_text_file(path.string(), text);
    RC_ASSERT(test::read_file(path) == text);
  });
}
