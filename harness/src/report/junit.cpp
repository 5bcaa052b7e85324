#include "junit.h"

#include <tinyxml2.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "io/output_file.h"
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

namespace {

// Length of the well-formed UTF-8 sequence at `s` (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF) and its code point; 0 when the bytes there are not one.
int utf8_sequence(std::string_view s, char32_t* cp) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = b(0);
  if (lead < 0x80) return *cp = lead, 1;
  const int len = lead >= 0xC2 && lead <= 0xDF   ? 2
                  : lead >= 0xE0 && lead <= 0xEF ? 3
                  : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                 : 0;
  if (len == 0 || s.size() < std::size_t(len)) return 0;
  char32_t c = lead & (0x7F >> len);
  for (int i = 1; i < len; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    c = (c << 6) | (b(i) & 0x3F);
  }
  const char32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  return *cp = c, len;
}

// XML 1.0's Char production.
bool xml_char(char32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

std::string xml_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t c = 0;
    const int len = utf8_sequence(text, &c);
    if (len > 0 && xml_char(c)) out.append(text.substr(0, std::size_t(len)));
    else if (len == 3) out += fmt::format("\\u{:04X}", std::uint32_t(c));  // U+FFFE, U+FFFF
    else out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[0]));
    text.remove_prefix(std::size_t(std::max(len, 1)));
  }
  return out;
}

std::string duplicate_testcase(const std::vector<TestSuite>& suites) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const TestSuite& s : suites)
    for (const TestCase& c : s.cases)
      if (!seen.emplace(c.classname, c.name).second)
        return fmt::format("testcase '{}' appears twice in class '{}'", c.name, c.classname);
  return "";
}

std::string unnamed_entry(const std::vector<TestSuite>& suites) {
  for (const TestSuite& s : suites) {
    if (s.name.empty()) return "a testsuite has no name";
    for (const auto& [k, v] : s.properties)
      if (k.empty()) return fmt::format("testsuite '{}' has a property with no name", s.name);
    for (const TestCase& c : s.cases) {
      if (c.classname.empty() || c.name.empty())
        return fmt::format("testsuite '{}' has a testcase with no class or no name", s.name);
      for (const auto& [k, v] : c.facts)
        if (k.empty()) return fmt::format("testcase '{}' has a fact with no name", c.name);
    }
  }
  return "";
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
    se->SetAttribute("name", xml_safe(s.name).c_str());
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
      p->SetAttribute("name", xml_safe(k).c_str());
      p->SetAttribute("value", xml_safe(v).c_str());
      props->InsertEndChild(p);
    }
    se->InsertEndChild(props);
    for (const TestCase& c : s.cases) {
      auto* ce = doc.NewElement("testcase");
      ce->SetAttribute("classname", xml_safe(c.classname).c_str());
      ce->SetAttribute("name", xml_safe(c.name).c_str());
      ce->SetAttribute("time", format_time(c.time_s).c_str());
      const char* tag = c.outcome == Outcome::Failed    ? "failure"
                        : c.outcome == Outcome::Error   ? "error"
                        : c.outcome == Outcome::Skipped ? "skipped"
                                                        : nullptr;
      if (tag) {
        auto* fe = doc.NewElement(tag);
        fe->SetAttribute("message", xml_safe(c.message).c_str());
        if (!c.detail.empty()) fe->SetText(xml_safe(c.detail).c_str());
        ce->InsertEndChild(fe);
      }
      std::string out;
      for (const auto& [k, v] : c.facts) out += k + ": " + v + "\n";
      out += c.system_out;
      if (!out.empty()) {
        auto* so = doc.NewElement("system-out");
        so->SetText(xml_safe(out).c_str());
        ce->InsertEndChild(so);
      }
      se->InsertEndChild(ce);
    }
    if (!s.system_out.empty()) {
      auto* so = doc.NewElement("system-out");
      so->SetText(xml_safe(s.system_out).c_str());
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
  for (const std::string& why : {duplicate_testcase(suites), unnamed_entry(suites)})
    if (!why.empty()) {
      if (error) *error = path + ": " + why;
      return false;
    }
  if (std::string err = harness::io::try_replace_file(path, to_xml(suites)); !err.empty()) {
    if (error) *error = err;
    return false;
  }
  return true;
}

}  // namespace stk::junit
