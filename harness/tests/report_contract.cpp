#include "report_contract.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include <sys/stat.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tinyxml2.h>

#include "cli_support.h"
#include "proc/command_words.h"

namespace stk::test {

namespace fs = std::filesystem;

// Named, not anonymous: the test files are compiled in unity batches, where the anonymous
// namespaces of several files are one.
namespace report_contract_detail {

// The value of `--name V` or `--name=V` at words[i], if it is that option.
std::optional<std::string> option_value(const std::vector<std::string>& words, std::size_t i,
                                        const std::string& name) {
  if (words[i] == name && i + 1 < words.size()) return words[i + 1];
  if (words[i].starts_with(name + "=")) return words[i].substr(name.size() + 1);
  return std::nullopt;
}

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  bool operator==(const Counts&) const = default;
};

struct JUnitFacts {
  Counts counts;  // counted from the testcases
  std::vector<std::string> suite_names;
  std::vector<std::pair<std::string, std::string>> cases;       // (classname, name)
  std::vector<std::pair<std::string, std::string>> properties;  // (name, value), every suite's
  std::vector<std::vector<std::pair<std::string, std::string>>> suite_properties;  // per suite
  std::vector<std::pair<std::string, double>> case_times;  // (name, time attribute)
  struct SuiteTime {
    std::string name;
    double seconds, longest_case;  // its time attribute; its longest testcase's
  };
  std::vector<SuiteTime> suite_times;
  std::string problem;      // a count stated unlike the testcases, unparsable XML
  std::string unexplained;  // the first <failure>/<error> without a message, named
};

std::string attribute(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? v : "";
}

int int_attribute(const tinyxml2::XMLElement* e, const char* name) {
  return e->IntAttribute(name, -1);
}

JUnitFacts read_junit(const fs::path& file) {
  JUnitFacts f;
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(file.c_str()) != tinyxml2::XML_SUCCESS) {
    f.problem = fmt::format("{}: not XML ({})", file.string(), doc.ErrorStr());
    return f;
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "testsuites") {
    f.problem = file.string() + ": the root is not <testsuites>";
    return f;
  }
  for (auto* s = root->FirstChildElement("testsuite"); s; s = s->NextSiblingElement("testsuite")) {
    Counts suite;
    double longest_case = 0;
    for (auto* c = s->FirstChildElement("testcase"); c; c = c->NextSiblingElement("testcase")) {
      f.cases.emplace_back(attribute(c, "classname"), attribute(c, "name"));
      f.case_times.emplace_back(attribute(c, "name"), c->DoubleAttribute("time", 0.0));
      longest_case = std::max(longest_case, f.case_times.back().second);
      ++suite.tests;
      suite.failures += c->FirstChildElement("failure") != nullptr;
      suite.errors += c->FirstChildElement("error") != nullptr;
      suite.skipped += c->FirstChildElement("skipped") != nullptr;
      for (const char* outcome : {"failure", "error"})  // docs/report-schema.md#junit-counts
        if (const auto* e = c->FirstChildElement(outcome); e && f.unexplained.empty()) {
          const std::string message = attribute(e, "message");
          if (message.find_first_not_of(" \t\n") == std::string::npos)
            f.unexplained = fmt::format("{}: testcase '{}' has a <{}> without a message",
                                        file.string(), attribute(c, "name"), outcome);
        }
    }
    auto& own = f.suite_properties.emplace_back();
    if (auto* props = s->FirstChildElement("properties"))
      for (auto* p = props->FirstChildElement("property"); p; p = p->NextSiblingElement("property"))
        own.emplace_back(attribute(p, "name"), attribute(p, "value"));
    f.properties.insert(f.properties.end(), own.begin(), own.end());
    const char* name = s->Attribute("name");
    f.suite_names.push_back(name ? name : "");
    f.suite_times.push_back({name ? name : "", s->DoubleAttribute("time", 0.0), longest_case});
    const Counts stated{int_attribute(s, "tests"), int_attribute(s, "failures"),
                        int_attribute(s, "errors"), int_attribute(s, "skipped")};
    if (stated != suite && f.problem.empty())
      f.problem = fmt::format(
          "{}: suite '{}' states tests={} failures={} errors={} skipped={}, its testcases "
          "count {} {} {} {}",
          file.string(), name ? name : "", stated.tests, stated.failures, stated.errors,
          stated.skipped, suite.tests, suite.failures, suite.errors, suite.skipped);
    f.counts.tests += suite.tests, f.counts.failures += suite.failures;
    f.counts.errors += suite.errors, f.counts.skipped += suite.skipped;
  }
  const Counts root_stated{int_attribute(root, "tests"), int_attribute(root, "failures"),
                           int_attribute(root, "errors"), f.counts.skipped};
  if (root_stated != f.counts && f.problem.empty())
    f.problem = fmt::format(
        "{}: <testsuites> states tests={} failures={} errors={}, its suites "
        "sum to {} {} {}",
        file.string(), root_stated.tests, root_stated.failures, root_stated.errors, f.counts.tests,
        f.counts.failures, f.counts.errors);
  return f;
}

// The summaries a report D/junit/<harness>-<config>.xml may have: D/<harness>/<config>.json for
// each split of the stem (harness names hold '-' too: nnue-bench).
std::vector<fs::path> summaries_of(const fs::path& junit) {
  std::vector<fs::path> out;
  if (junit.parent_path().filename() != "junit") return out;
  const fs::path dir = junit.parent_path().parent_path();
  const std::string stem = junit.stem().string();
  for (std::size_t dash = stem.find('-'); dash != std::string::npos;
       dash = stem.find('-', dash + 1))
    out.push_back(dir / stem.substr(0, dash) / (stem.substr(dash + 1) + ".json"));
  return out;
}

std::optional<FileIdentity> identity(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileIdentity{std::uintmax_t(st.st_ino), std::uintmax_t(st.st_size),
                      std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

// Regular files named *`ext` directly in `dir`.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ext) out.push_back(entry.path());
  return out;
}

// The keys a row of report-schema.md "Figures by harness" names at the top: names in backticks
// outside parentheses and braces (those hold nested and conditional keys), `x[]` read as `x`.
std::vector<std::string> top_level_keys(const std::string& cell) {
  std::string outside;
  int depth = 0;
  for (char c : cell) {
    if (c == '(' || c == '{') ++depth;
    if (depth == 0) outside += c;
    if ((c == ')' || c == '}') && depth > 0) --depth;
  }
  std::vector<std::string> keys;
  static const std::regex kName("`([a-z_][a-z0-9_]*)(\\[\\])?`");
  for (std::sregex_iterator it(outside.begin(), outside.end(), kName), end; it != end; ++it)
    keys.push_back((*it)[1]);
  return keys;
}

// (first cell, second cell) of each row of the table under `## heading` in
// docs/report-schema.md; cells split at each '|' that is not escaped (`sd\|sn`).
std::vector<std::pair<std::string, std::string>> schema_rows(const std::string& heading) {
  std::vector<std::pair<std::string, std::string>> rows;
  std::ifstream in(test::source_dir() + "/docs/report-schema.md");
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == "## " + heading;
    if (!inside || !line.starts_with("| ")) continue;
    std::vector<std::string> cells(1);
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') cells.emplace_back();
      else cells.back() += line[i];
    }
    if (cells.size() < 2 || cells[0].find("harness") == 1 || cells[0].starts_with("---")) continue;
    rows.emplace_back(cells[0], cells[1]);
  }
  return rows;
}

// Harness -> the top-level keys docs/report-schema.md "Figures by harness" names for it.
const std::map<std::string, std::vector<std::string>>& documented_figures() {
  static const std::map<std::string, std::vector<std::string>> table = [] {
    std::map<std::string, std::vector<std::string>> found;
    static const std::regex kHarness("[a-z][a-z-]*");
    for (const auto& [first, keys] : schema_rows("Figures by harness")) {
      const std::string names = first.substr(0, first.find('('));
      for (std::sregex_iterator it(names.begin(), names.end(), kHarness), end; it != end; ++it)
        found[it->str()] = top_level_keys(keys);
    }
    // A table that cannot be read would make every run pass this rule unexamined.
    if (found.size() < 10)
      throw std::runtime_error("report contract: no \"Figures by harness\" table in " +
                               test::source_dir() + "/docs/report-schema.md");
    return found;
  }();
  return table;
}

// Each top-level key the docs name for the summary's harness is in it.
std::string figure_violation(const fs::path& json_path, const nlohmann::json& doc,
                             const std::string& harness) {
  const auto& table = documented_figures();
  const auto row = table.find(harness);
  if (row == table.end()) return "";
  for (const std::string& key : row->second)
    if (!doc.contains(key))
      return fmt::format("{}: no '{}' ({}'s figures, report-schema.md)", json_path.string(), key,
                         harness);
  return "";
}

// A documented property name as a regular expression: `<K>` digits (their order is judged
// apart), any other `<...>` any text, the rest literal.
std::regex property_regex(const std::string& name) {
  std::string re;
  for (std::size_t i = 0; i < name.size();) {
    if (name[i] == '<') {
      const std::size_t close = name.find('>', i);
      re += name.compare(i, close - i + 1, "<K>") == 0 ? "([0-9]+)" : ".+";
      i = close + 1;
      continue;
    }
    if (std::string(".^$|()[]{}*+?\\").find(name[i]) != std::string::npos) re += '\\';
    re += name[i++];
  }
  return std::regex(re);
}

struct DocumentedProperties {
  std::vector<std::string> always;  // written by every run that exits 0 or 1
  std::vector<std::string> some;    // written under the condition the row states
};

// A row's property names: in backticks, outside parentheses (always) or inside (some).
DocumentedProperties cell_properties(const std::string& cell) {
  std::string outside, inside;
  int depth = 0;
  for (char c : cell) {
    if (c == '(') ++depth;
    (depth == 0 ? outside : inside) += c;
    if (c == ')' && depth > 0) --depth;
  }
  static const std::regex kName("`([a-z_][a-z0-9_.-]*(?:<[^>`]+>[a-z0-9_.-]*)*)`");
  auto names = [](const std::string& text) {
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it)
      out.push_back((*it)[1]);
    return out;
  };
  return {names(outside), names(inside)};
}

// Harness -> its row of docs/report-schema.md "Suite properties by harness".
const std::map<std::string, DocumentedProperties>& documented_properties() {
  static const std::map<std::string, DocumentedProperties> table = [] {
    std::map<std::string, DocumentedProperties> found;
    for (const auto& [first, names] : schema_rows("Suite properties by harness")) {
      std::string harness = first.substr(0, first.find('('));
      while (!harness.empty() && harness.front() == ' ') harness.erase(0, 1);
      while (!harness.empty() && harness.back() == ' ') harness.pop_back();
      found[harness] = cell_properties(names);
    }
    // A table that cannot be read would make every property pass unexamined.
    if (found.size() < 15)
      throw std::runtime_error("report contract: no \"Suite properties by harness\" table in " +
                               test::source_dir() + "/docs/report-schema.md");
    return found;
  }();
  return table;
}

// Every suite property of a stk-harness report is one its harness's row names, each name the
// row writes in every run is there, and the numbers of a `<K>` name run 1, 2, ... in order.
std::string suite_property_violation(const fs::path& junit, const JUnitFacts& facts) {
  for (std::size_t s = 0; s < facts.suite_names.size(); ++s) {
    const std::string harness = facts.suite_names[s].substr(0, facts.suite_names[s].find('.'));
    const auto row = documented_properties().find(harness);
    if (row == documented_properties().end()) {
      // A harness the docs know owes its row; one they do not (a test's stand-in) is not judged.
      if (!documented_figures().contains(harness)) continue;
      return fmt::format("{}: suite '{}': no row for '{}' in report-schema.md", junit.string(),
                         facts.suite_names[s], harness);
    }
    std::vector<std::string> always = row->second.always;
    if (harness != "ctest")
      always.insert(always.end(),
                    {"git_revision", "build_type", "cpu_features", "harness_version"});
    std::vector<std::string> all = always;
    all.insert(all.end(), row->second.some.begin(), row->second.some.end());
    all.push_back("input.<option>");
    std::vector<std::regex> patterns;
    for (const std::string& n : all) patterns.push_back(property_regex(n));
    const auto& props = facts.suite_properties[s];
    for (const auto& [name, value] : props)
      if (std::none_of(patterns.begin(), patterns.end(),
                       [&](const std::regex& p) { return std::regex_match(name, p); }))
        return fmt::format(
            "{}: suite property '{}' (value '{:.60}') is not one of {}'s "
            "(report-schema.md, Suite properties by harness)",
            junit.string(), name, value, harness);
    for (std::size_t i = 0; i < always.size(); ++i)  // `always` leads `all`, as `patterns`
      if (std::none_of(props.begin(), props.end(),
                       [&](const auto& p) { return std::regex_match(p.first, patterns[i]); }))
        return fmt::format("{}: no suite property '{}' ({}'s)", junit.string(), always[i], harness);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].find("<K>") == std::string::npos) continue;
      std::size_t next = 1;
      for (const auto& [name, value] : props) {
        std::smatch m;
        if (!std::regex_match(name, m, patterns[i])) continue;
        if (m[1] != std::to_string(next))
          return fmt::format("{}: property '{}' where '{}' number {} comes", junit.string(), name,
                             all[i], next);
        ++next;
      }
    }
  }
  return "";
}

// The stk-harness command of a command line ("" when it runs no stk-harness).
std::string harness_command(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (fs::path(words[i]).filename() == "stk-harness") return words[i + 1];
  return "";
}

// The commands whose testcases carry times measured by other runs: the backticked names of the
// "carrying other runs' times:" line of docs/report-schema.md#times (one list for C++ and Python).
const std::set<std::string>& commands_carrying_other_runs_times() {
  static const std::set<std::string> found = [] {
    const std::string doc = test::source_dir() + "/docs/report-schema.md";
    std::ifstream in(doc);
    static const std::string kLead = "carrying other runs' times:";
    static const std::regex kName("`([a-z][a-z-]*)`");
    std::set<std::string> names;
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find(kLead);
      if (at == std::string::npos) continue;
      const std::string list = line.substr(at + kLead.size());
      for (std::sregex_iterator it(list.begin(), list.end(), kName), end; it != end; ++it)
        names.insert((*it)[1]);
    }
    // An unreadable line would exempt nothing and fail every merge: say where instead.
    if (names.empty())
      throw std::runtime_error("report contract: no \"" + kLead + "\" line in " + doc);
    return names;
  }();
  return found;
}

// Each testcase's time is never negative and, for a command that runs what it reports, at most
// `elapsed`, the seconds from before the run to after it; a suite's time is no shorter than its
// longest testcase (its testcases run within it, side by side or not), with the same bounds
// (docs/report-schema.md#times).
std::string time_violation(const fs::path& junit, const JUnitFacts& facts,
                           const std::vector<std::string>& words, double elapsed) {
  const std::string command = harness_command(words);
  const bool own = !command.empty() && !commands_carrying_other_runs_times().contains(command);
  for (const auto& [name, seconds] : facts.case_times)
    if (seconds < 0 || (own && seconds > elapsed + 0.001))
      return fmt::format("{}: testcase '{}' took {} s, the run {:.3f} s", junit.string(), name,
                         seconds, elapsed);
  for (const JUnitFacts::SuiteTime& s : facts.suite_times) {
    if (s.seconds < 0 || (own && s.seconds > elapsed + 0.001))
      return fmt::format("{}: suite '{}' took {} s, the run {:.3f} s", junit.string(), s.name,
                         s.seconds, elapsed);
    // Both attributes round to the millisecond, which keeps their order.
    if (s.seconds < s.longest_case)
      return fmt::format("{}: suite '{}' took {} s, less than its longest testcase ({} s)",
                         junit.string(), s.name, s.seconds, s.longest_case);
  }
  return "";
}

// A property name or a JSON key a reader cannot look up (docs/report-schema.md#names): empty,
// holding a control character, or with a space at either end.
bool bad_name(const std::string& name) {
  if (name.empty() || name.front() == ' ' || name.back() == ' ') return true;
  return std::any_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 32 || u == 127;
  });
}

std::string property_name_violation(const fs::path& junit, const JUnitFacts& facts) {
  for (const auto& [name, value] : facts.properties)
    if (bad_name(name))
      return fmt::format("{}: a suite property named '{}' (value '{}')", junit.string(), name,
                         value);
  return "";
}

// The first key of the document's objects, at any depth, that is not a name.
std::string key_violation(const fs::path& json_path, const nlohmann::json& doc,
                          const std::string& where) {
  if (doc.is_object()) {
    for (const auto& [k, v] : doc.items()) {
      if (bad_name(k))
        return fmt::format("{}: key '{}' at {} (value {:.80})", json_path.string(), k,
                           where.empty() ? "the top" : where, v.dump());
      if (std::string found = key_violation(json_path, v, where + "/" + k); !found.empty())
        return found;
    }
  } else if (doc.is_array()) {
    for (std::size_t i = 0; i < doc.size(); ++i)
      if (std::string found = key_violation(json_path, doc[i], where + "/" + std::to_string(i));
          !found.empty())
        return found;
  }
  return "";
}

// Each `[A, B]` of two numbers in a file's text (a report's facts, a summary's page) runs low
// end first.
std::string printed_interval_violation(const fs::path& file) {
  const std::string text = read_file(file);
  static const std::regex printed(R"(\[(-?\d+(?:\.\d+)?)%?, (-?\d+(?:\.\d+)?)%?\])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), printed);
       it != std::sregex_iterator(); ++it)
    if (std::stod((*it)[1]) > std::stod((*it)[2]))
      return fmt::format("{}: interval {} has its ends reversed", file.string(), (*it)[0].str());
  return "";
}

// Every interval a summary states runs low end first: in its JSON an object's lo <= hi,
// low <= high, min <= median <= max (bare, or X_min, X_median, X_max of one X), and each
// `[A, B]` of two numbers on its Markdown page (the JSON's sibling).
std::string interval_violation(const fs::path& json_path, const nlohmann::json& doc,
                               const std::string& where) {
  if (doc.is_object()) {
    std::vector<std::pair<std::string, std::string>> pairs = {
        {"lo", "hi"}, {"low", "high"}, {"min", "median"}, {"median", "max"}, {"min", "max"}};
    for (const auto& [k, v] : doc.items())
      if (k.size() > 4 && k.ends_with("_min")) {
        const std::string x = k.substr(0, k.size() - 3);
        pairs.insert(pairs.end(), {{k, x + "median"}, {x + "median", x + "max"}, {k, x + "max"}});
      }
    for (const auto& [lo, hi] : pairs)
      if (doc.contains(lo) && doc.contains(hi) && doc[lo].is_number() && doc[hi].is_number() &&
          doc[lo].get<double>() > doc[hi].get<double>())
        return fmt::format("{}: {} has {} {} > {} {}", json_path.string(),
                           where.empty() ? "the top" : where, lo, doc[lo].dump(), hi,
                           doc[hi].dump());
    for (const auto& [k, v] : doc.items())
      if (std::string found = interval_violation(json_path, v, where + "/" + k); !found.empty())
        return found;
  } else if (doc.is_array()) {
    for (std::size_t i = 0; i < doc.size(); ++i)
      if (std::string found = interval_violation(json_path, doc[i],
                                                 where + "/" + std::to_string(i));
          !found.empty())
        return found;
  }
  if (!where.empty()) return "";
  fs::path page = json_path;
  page.replace_extension(".md");
  return printed_interval_violation(page);
}

std::string envelope_violation(const fs::path& json_path, const fs::path& junit,
                               const JUnitFacts& facts) {
  std::ifstream in(json_path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("report") || !j["report"].is_object())
    return json_path.string() + ": no JSON object with a \"report\" envelope";
  if (std::string v = key_violation(json_path, j, ""); !v.empty()) return v;
  if (std::string v = interval_violation(json_path, j, ""); !v.empty()) return v;
  const nlohmann::json& e = j["report"];
  auto count = [&](const char* k) { return e.value(k, -1); };
  const Counts stated{count("tests"), count("failures"), count("errors"), count("skipped")};
  if (stated != facts.counts)
    return fmt::format(
        "{}: the envelope states tests={} failures={} errors={} skipped={}, {} "
        "counts {} {} {} {}",
        json_path.string(), stated.tests, stated.failures, stated.errors, stated.skipped,
        junit.string(), facts.counts.tests, facts.counts.failures, facts.counts.errors,
        facts.counts.skipped);
  const bool passed = facts.counts.failures == 0 && facts.counts.errors == 0;
  if (!e.contains("passed") || !e["passed"].is_boolean() || e["passed"].get<bool>() != passed)
    return fmt::format("{}: the envelope's passed is not {}", json_path.string(), passed);
  const std::string link = e.value("junit", "");
  std::error_code ec;
  if (link.empty() || !fs::equivalent(json_path.parent_path() / link, junit, ec))
    return fmt::format("{}: the envelope's junit '{}' does not lead to {}", json_path.string(),
                       link, junit.string());
  const std::string harness = e.value("harness", "");
  const std::string config = e.value("config", "");
  if (std::string v = figure_violation(json_path, j, harness); !v.empty()) return v;
  if (junit.stem().string() != harness + "-" + config)
    return fmt::format("{}: harness '{}' and config '{}' do not name {}", json_path.string(),
                       harness, config, junit.filename().string());
  for (const std::string& name : facts.suite_names)
    if (!name.starts_with(harness + "."))
      return fmt::format("{}: suite '{}' is not named for harness '{}'", junit.string(), name,
                         harness);
  for (const auto& [classname, name] : facts.cases)
    if (!classname.starts_with(harness + "."))
      return fmt::format("{}: testcase '{}' has classname '{}', not '{}.<...>'", junit.string(),
                         name, classname, harness);
  return "";
}

// Every testcase named, and no (classname, name) twice in one report.
std::string testcase_name_violation(const fs::path& junit, const JUnitFacts& facts) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& key : facts.cases) {
    if (key.second.empty() || key.first.empty())
      return fmt::format("{}: a testcase without a name or classname ('{}', '{}')", junit.string(),
                         key.first, key.second);
    if (!seen.insert(key).second)
      return fmt::format("{}: two testcases '{}' of classname '{}'", junit.string(), key.second,
                         key.first);
  }
  return "";
}

// The values the command line gave option `--name`: V of each `--name=V`, and of each `--name`
// the next word and "true" (a flag: whether it takes a value is not known from the words).
std::set<std::string> given_values(const std::vector<std::string>& words, const std::string& name) {
  std::set<std::string> values;
  const std::string option = "--" + name;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].starts_with(option + "=")) values.insert(words[i].substr(option.size() + 1));
    if (words[i] != option) continue;
    values.insert("true");
    if (i + 1 < words.size()) values.insert(words[i + 1]);
  }
  return values;
}

// Each `input.<name>` property of an option the command gave holds a value it gave.
std::string recorded_input_violation(const fs::path& junit, const JUnitFacts& facts,
                                     const std::vector<std::string>& words) {
  for (const auto& [property, value] : facts.properties) {
    if (!property.starts_with("input.")) continue;
    const std::set<std::string> given = given_values(words, property.substr(6));
    if (!given.empty() && !given.contains(value))
      return fmt::format("{}: property '{}' is '{}', a value the command did not give",
                         junit.string(), property, value);
  }
  return "";
}

}  // namespace report_contract_detail

using namespace report_contract_detail;

// The first figure printed as "nan" or "inf" (a division by zero or an empty set's mean shown
// as a number) in `text`, or "" (docs/report-schema.md#figures: such a figure is absent or null).
std::string non_finite_figure(const std::string& text) {
  static const std::regex figure(R"((^|[^A-Za-z0-9_.])[-+]?(nan|inf|infinity)($|[^A-Za-z0-9_]))");
  std::smatch m;
  if (!std::regex_search(text, m, figure)) return "";
  const auto at = std::size_t(m.position(0));
  return text.substr(at > 40 ? at - 40 : 0, 80);
}

std::string library_exception_text(const std::string& text) {
  // libstdc++'s what() texts, and nlohmann-json's exception prefix, as the whole reason of a
  // refusal line (main.cpp's catch-all prints them so); wrapped after a file's name they are a
  // refusal's detail ("m.json: not JSON: [json.exception.parse_error.101] ... line 1, column 9").
  static const std::regex words(
      R"((^|\n)stk-harness [a-z0-9-]+: (sto(i|l|ll|ul|ull|f|d|ld)|std::bad_\w+|)"
      R"(bad (optional|variant) access|)"
      R"(basic_string::\w+|vector::_M_\w+|(_Map_base|map)::at|bitset::\w+|)"
      R"(\[json\.exception\.\w+\.\d+\])(:|$|\s))");
  std::smatch m;
  if (!std::regex_search(text, m, words)) return "";
  const auto at = std::size_t(m.position(0));
  return text.substr(at > 40 ? at - 40 : 0, 100);
}

RunContract::RunContract(const std::string& command) {
  // The words as /bin/sh reads them (the project's own splitter; an unbalanced quote throws).
  words_ = harness::proc::split_words(command);
  const std::vector<std::string>& words = words_;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (auto junit = option_value(words, i, "--junit")) named_junit_.emplace_back(*junit);
    if (auto out = option_value(words, i, "--out-dir")) out_dirs_.emplace_back(*out);
  }
  for (const fs::path& file : candidates())
    if (auto id = identity(file)) before_[file] = *id;
  started_ = std::chrono::steady_clock::now();  // the run starts after this
}

std::vector<fs::path> RunContract::candidates() const {
  std::vector<fs::path> files;
  for (const fs::path& junit : named_junit_) {
    files.push_back(junit);
    for (const fs::path& json : summaries_of(junit)) files.push_back(json);
  }
  for (const fs::path& out : out_dirs_) {
    for (const fs::path& junit : files_in(out / "junit", ".xml")) files.push_back(junit);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(out, ec))
      for (const fs::path& json : files_in(entry.path(), ".json")) files.push_back(json);
  }
  return files;
}

bool RunContract::written(const fs::path& file) const {
  const auto now = identity(file);
  if (!now) return false;
  const auto it = before_.find(file);
  return it == before_.end() || !(it->second == *now);
}

std::string RunContract::violation(int exit_code) const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (exit_code != 0 && exit_code != 1) return "";
  for (const fs::path& junit : named_junit_)
    if (!written(junit))
      return fmt::format("exit {} but it did not write its report {}", exit_code, junit.string());
  std::vector<fs::path> reports = named_junit_;
  for (const fs::path& out : out_dirs_)
    for (const fs::path& junit : files_in(out / "junit", ".xml"))
      if (written(junit)) reports.push_back(junit);
  bool some_failed = false;
  for (const fs::path& junit : reports) {
    const JUnitFacts facts = read_junit(junit);
    if (!facts.problem.empty()) return facts.problem;
    if (std::string v = testcase_name_violation(junit, facts); !v.empty()) return v;
    if (std::string v = recorded_input_violation(junit, facts, words_); !v.empty()) return v;
    if (std::string v = property_name_violation(junit, facts); !v.empty()) return v;
    if (std::string v = printed_interval_violation(junit); !v.empty()) return v;
    if (std::string v = time_violation(junit, facts, words_, elapsed); !v.empty()) return v;
    if (!facts.unexplained.empty()) return facts.unexplained;
    if (std::string near = non_finite_figure(read_file(junit)); !near.empty())
      return fmt::format("{}: a figure printed as nan or inf: ...{}...", junit.string(), near);
    const bool failed = facts.counts.failures + facts.counts.errors > 0;
    if (exit_code == 0 && failed)
      return fmt::format("exit 0 but {} records {} failures and {} errors", junit.string(),
                         facts.counts.failures, facts.counts.errors);
    some_failed = some_failed || failed;
    for (const fs::path& json : summaries_of(junit))
      if (written(json))
        if (std::string v = envelope_violation(json, junit, facts); !v.empty()) return v;
    if (!harness_command(words_).empty())
      if (std::string v = suite_property_violation(junit, facts); !v.empty()) return v;
  }
  if (exit_code == 1 && !reports.empty() && !some_failed)
    return "exit 1 but no report it wrote records a failure or an error";
  return "";
}

}  // namespace stk::test
