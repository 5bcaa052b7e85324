#include "commands/ctest-junit/ctest_junit.h"

#include <tinyxml2.h>

#include <algorithm>

#include "cli/cli.h"

namespace stk::harness {

namespace {

std::string text_of(const tinyxml2::XMLElement* e) { return e && e->GetText() ? e->GetText() : ""; }
std::string attr_of(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e ? e->Attribute(name) : nullptr;
  return v ? v : "";
}

// A test CTest did not run: skipped only when the test or the project asked for it.
junit::Outcome not_run_outcome(const std::string& why) {
  for (const char* requested : {"SKIP_RETURN_CODE", "SKIP_REGULAR_EXPRESSION", "Disabled"})
    if (why.starts_with(requested)) return junit::Outcome::Skipped;
  return junit::Outcome::Error;
}

junit::TestCase convert_case(const tinyxml2::XMLElement* t, const std::string& classname) {
  junit::TestCase c;
  c.classname = classname;
  c.name = attr_of(t, "name");
  c.time_s = t->DoubleAttribute("time", 0.0);
  c.system_out = text_of(t->FirstChildElement("system-out"));
  const std::string status = attr_of(t, "status");
  if (status == "run") return c;
  if (status == "fail") {
    c.outcome = junit::Outcome::Failed;
    c.message = attr_of(t->FirstChildElement("failure"), "message");
    if (c.message.empty()) c.message = "failed (see system-out)";
  } else if (status == "disabled") {
    c.outcome = junit::Outcome::Skipped;
    c.message = "disabled";
  } else if (status == "notrun") {
    c.message = attr_of(t->FirstChildElement("skipped"), "message");
    c.outcome = not_run_outcome(c.message);
    if (c.outcome == junit::Outcome::Error) c.message = "CTest could not run it: " + c.message;
  } else {
    c.outcome = junit::Outcome::Error;
    c.message = "unknown CTest status '" + status + "'";
  }
  return c;
}

}  // namespace

junit::TestSuite ctest_suite(const std::string& xml, const std::string& label) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS)
    throw InputError(std::string("not XML: ") + doc.ErrorStr());
  const auto* root = doc.FirstChildElement("testsuite");
  if (!root) throw InputError("no <testsuite> root: not a CTest --output-junit report");
  junit::TestSuite suite;
  suite.name = "ctest." + label;
  suite.property("ctest_timestamp", attr_of(root, "timestamp"));
  suite.time_s = root->DoubleAttribute("time", 0.0);
  for (const auto* t = root->FirstChildElement("testcase"); t;
       t = t->NextSiblingElement("testcase"))
    suite.cases.push_back(convert_case(t, suite.name));
  // A suite is no shorter than its longest testcase (docs/report-schema.md#times): CTest's time,
  // unless it wrote none or one shorter than a test it holds.
  for (const junit::TestCase& c : suite.cases) suite.time_s = std::max(suite.time_s, c.time_s);
  return suite;
}

}  // namespace stk::harness
