#include "junit.h"

#include <tinyxml2.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "report/build_info.h"

namespace stk::junit {

int TestSuite::count(Outcome o) const {
  int n = 0;
  for (const TestCase& c : cases) n += c.outcome == o;
  return n;
}

void add_build_properties(TestSuite& suite) {
  suite.property("git_revision", build_info::git_revision());
  suite.property("build_type", build_info::build_type());
  suite.property("cpu_features", build_info::cpu_features());
  suite.property("harness_version", build_info::harness_version());
}

std::string format_time(double seconds) {
  if (!(seconds >= 0)) seconds = 0;  // also maps NaN to 0
  return fmt::format("{:.3f}", seconds);
}

std::string to_xml(const std::vector<TestSuite>& suites) {
  tinyxml2::XMLDocument doc;
  doc.InsertFirstChild(doc.NewDeclaration());
  auto* root = doc.NewElement("testsuites");
  doc.InsertEndChild(root);
  int tests = 0, failures = 0, errors = 0;
  double time = 0;
  for (const TestSuite& s : suites) {
    auto* se = doc.NewElement("testsuite");
    se->SetAttribute("name", s.name.c_str());
    se->SetAttribute("tests", int(s.cases.size()));
    se->SetAttribute("failures", s.count(Outcome::Failed));
    se->SetAttribute("errors", s.count(Outcome::Error));
    se->SetAttribute("skipped", s.count(Outcome::Skipped));
    se->SetAttribute("time", format_time(s.time_s).c_str());
    tests += int(s.cases.size());
    failures += s.count(Outcome::Failed);
    errors += s.count(Outcome::Error);
    time += s.time_s;
    auto* props = doc.NewElement("properties");
    for (const auto& [k, v] : s.properties) {
      auto* p = doc.NewElement("property");
      p->SetAttribute("name", k.c_str());
      p->SetAttribute("value", v.c_str());
      props->InsertEndChild(p);
    }
    se->InsertEndChild(props);
    for (const TestCase& c : s.cases) {
      auto* ce = doc.NewElement("testcase");
      ce->SetAttribute("classname", c.classname.c_str());
      ce->SetAttribute("name", c.name.c_str());
      ce->SetAttribute("time", format_time(c.time_s).c_str());
      const char* tag = c.outcome == Outcome::Failed    ? "failure"
                        : c.outcome == Outcome::Error   ? "error"
                        : c.outcome == Outcome::Skipped ? "skipped"
                                                        : nullptr;
      if (tag) {
        auto* fe = doc.NewElement(tag);
        fe->SetAttribute("message", c.message.c_str());
        if (!c.detail.empty()) fe->SetText(c.detail.c_str());
        ce->InsertEndChild(fe);
      }
      std::string out;
      for (const auto& [k, v] : c.facts) out += k + ": " + v + "\n";
      out += c.system_out;
      if (!out.empty()) {
        auto* so = doc.NewElement("system-out");
        so->SetText(out.c_str());
        ce->InsertEndChild(so);
      }
      se->InsertEndChild(ce);
    }
    if (!s.system_out.empty()) {
      auto* so = doc.NewElement("system-out");
      so->SetText(s.system_out.c_str());
      se->InsertEndChild(so);
    }
    root->InsertEndChild(se);
  }
  root->SetAttribute("tests", tests);
  root->SetAttribute("failures", failures);
  root->SetAttribute("errors", errors);
  root->SetAttribute("time", format_time(time).c_str());
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

bool write_report(const std::string& path, const std::vector<TestSuite>& suites,
                  std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << to_xml(suites);
    if (!out) {
      if (error) *error = "cannot write " + tmp;
      return false;
    }
  }
  fs::rename(tmp, p, ec);
  if (ec) {
    if (error) *error = "cannot rename " + tmp + " to " + path + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace stk::junit
