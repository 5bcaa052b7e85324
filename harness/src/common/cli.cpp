#include "common/cli.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "report/junit.h"

namespace stk::harness {

Args::Args(int argc, char** argv, const std::vector<std::string>& valued,
           const std::vector<std::string>& flags) {
  auto in = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      if (!in(valued, name)) throw UsageError("option --" + name + " takes no value");
    } else if (in(flags, name)) {
      value = "true";
    } else if (in(valued, name)) {
      if (i + 1 >= argc) throw UsageError("option --" + name + " needs a value");
      value = argv[++i];
    } else {
      throw UsageError("unknown option --" + name);
    }
    values_.emplace(name, value);
  }
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto range = values_.equal_range(name);
  if (range.first == range.second) return fallback;
  return std::prev(range.second)->second;  // the last one given wins
}

std::vector<std::string> Args::all(const std::string& name) const {
  std::vector<std::string> out;
  for (auto [it, end] = values_.equal_range(name); it != end; ++it) out.push_back(it->second);
  return out;
}

long long Args::get_int(const std::string& name, long long fallback, long long lo,
                        long long hi) const {
  if (!has(name)) return fallback;
  std::string v = get(name);
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end || x < lo || x > hi)
    throw UsageError("option --" + name + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got '" + v + "'");
  return x;
}

std::vector<std::pair<std::string, std::string>> Args::echo() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [k, v] : values_) out.emplace_back(k, v);
  for (std::size_t i = 0; i < positional_.size(); ++i)
    out.emplace_back("arg" + std::to_string(i + 1), positional_[i]);
  return out;
}

Shard parse_shard(const std::string& text) {
  Shard s;
  auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw 0;
    std::size_t p1 = 0, p2 = 0;
    s.index = std::stoi(text.substr(0, slash), &p1);
    s.count = std::stoi(text.substr(slash + 1), &p2);
    if (p1 != slash || p2 != text.size() - slash - 1) throw 0;
  } catch (...) {
    throw UsageError("--shard must be K/N, got '" + text + "'");
  }
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw UsageError("--shard K/N needs 1 <= K <= N, got '" + text + "'");
  return s;
}

namespace {

struct DeclaredReport {
  std::string path, suite_name;
};
std::vector<DeclaredReport>& declared_reports() {
  static std::vector<DeclaredReport> reports;
  return reports;
}

// The report of a run that could not run: one <error> testcase in class "<harness>.input".
junit::TestSuite input_error_suite(const std::string& suite_name, const std::string& why) {
  junit::TestSuite suite;
  suite.name = suite_name;
  suite.property("exit_status", "2");
  junit::add_build_properties(suite);
  junit::TestCase tc;
  tc.classname = suite_name.substr(0, suite_name.find('.')) + ".input";
  tc.name = "inputs";
  tc.outcome = junit::Outcome::Error;
  tc.message = "usage or input error: the harness did not run";
  tc.detail = why;
  suite.cases.push_back(std::move(tc));
  return suite;
}

}  // namespace

void declare_report(const std::string& junit_path, const std::string& suite_name) {
  std::error_code ec;
  std::filesystem::remove(junit_path, ec);  // a missing file is fine; an unwritable one fails later
  declared_reports().push_back({junit_path, suite_name});
}

int input_failure(const char* name, const char* usage) {
  std::string why;
  try {
    throw;
  } catch (const UsageError& e) {
    why = e.what();
    std::cerr << name << ": " << why << "\n" << (usage ? usage : "");
  } catch (const std::exception& e) {
    why = e.what();
    std::cerr << name << ": " << why << "\n";
  } catch (...) {
    why = "unknown error";
    std::cerr << name << ": " << why << "\n";
  }
  for (const DeclaredReport& r : declared_reports()) {
    std::string err;
    if (junit::write_report(r.path, {input_error_suite(r.suite_name, why)}, &err))
      std::cerr << name << ": error report " << r.path << "\n";
    else
      std::cerr << name << ": " << err << "\n";
  }
  declared_reports().clear();
  return 2;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open file");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  if (in.bad()) throw InputError(path + ": read error");
  return lines;
}

std::string shared_dir() {
  if (const char* env = std::getenv("STK_SHARED"); env && *env) return env;
  return "../shared";
}

}  // namespace stk::harness
