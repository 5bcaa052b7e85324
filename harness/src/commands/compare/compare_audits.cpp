#include "commands/compare/compare_audits.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli/cli.h"
#include "commands/compare/output_tail.h"
#include "io/input_file.h"
#include "proc/command_words.h"
#include "proc/process.h"

namespace stk::harness::compare {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// The side's own source tree: its worktree for a revision, the current one for 'worktree'.
fs::path source_root(const Side& s) {
  return s.kind == Side::Kind::Revision
             ? fs::path(s.harness).parent_path().parent_path().parent_path().parent_path()
             : fs::current_path();
}

// The side's built-in fail-high model, as its tree holds it.
std::string builtin_model_of(const Side& s) {
  return (source_root(s) / "engine" / "src" / "search" / "fhmodel_default.txt").string();
}

Json read_json(const Side& s, const std::string& path, const std::string& what) {
  if (!io::input_file_error(path).empty())
    throw InputError(fmt::format("--{} {}: {} wrote no {}", s.role, s.given, what, path));
  const std::string text = io::read_input_file(path);
  try {
    return Json::parse(text);
  } catch (const std::exception& e) {
    throw InputError(
        fmt::format("--{} {}: {} does not parse: {}", s.role, s.given, path, e.what()));
  }
}

// Runs `argv` (exit 0 or 1: a failed gate of that harness still measured).
void run_checked(const Side& s, const std::string& what, const std::vector<std::string>& argv) {
  std::cout << fmt::format("compare: {} {}: {}\n", s.role, what, proc::display_command(argv))
            << std::flush;
  const proc::RunResult r = proc::run(argv);
  if (r.exit_code != 0 && r.exit_code != 1)
    throw InputError(fmt::format("--{} {}: {} failed ({}):\n{}", s.role, s.given, what,
                                 r.describe(), tail_lines(r.output, 8)));
}

// Whether the side's own stk-harness has `command` (a base from before it was added has not: its
// `--help` is the unknown-command listing, exit 2).
bool has_command(const Side& s, const std::string& command) {
  return proc::run({s.harness, command, "--help"}).exit_code == 0;
}

// mechanism -> miss rate, and decision -> firing rate, for one side.
struct SideAudit {
  std::map<std::string, double> miss_rate, firing_rate;
  std::string
      shadow_unavailable;  // why this side has no miss rates (an audit older than the format)
  std::string firing_unavailable;  // why it has no firing rates (no fhcollect in that revision)
  Json raw;
};

SideAudit audit_side(const Side& s, const AuditSettings& a, const std::string& runs_dir) {
  const std::string dir = runs_dir + "/audits-" + s.role;
  fs::create_directories(dir);
  SideAudit out;
  // Path values as --name=VALUE: a value starting with '-' is not read as an option.
  run_checked(s, "shadow audit",
              {s.harness, "shadow", "--quiet", "--epd=" + a.epd_file, "--stride",
               std::to_string(a.stride), "--depth", std::to_string(a.depth), "--config", s.role,
               "--out-dir=" + dir});
  Json shadow = read_json(s, dir + "/shadow/" + s.role + ".json", "the shadow audit");
  // A base from before the per-mechanism audit still has its bench, speed and suites compared: its
  // miss rates are reported unavailable (a skipped testcase with the reason), not guessed.
  if (!shadow.contains("mechanisms") || !shadow["mechanisms"].is_array())
    out.shadow_unavailable = fmt::format(
        "--{} {}: {}/shadow/{}.json has no 'mechanisms' list (a shadow audit older "
        "than the per-mechanism format)",
        s.role, s.given, dir, s.role);
  else
    for (const Json& m : shadow["mechanisms"])
      out.miss_rate[m.at("mechanism").get<std::string>()] = m.value("rate", 0.0);

  out.firing_unavailable = firing_unavailable_reason(s);
  if (!out.firing_unavailable.empty()) {
    out.raw = {{"shadow_json", dir + "/shadow/" + s.role + ".json"}, {"miss_rate", out.miss_rate}};
    return out;
  }
  const std::string model = builtin_model_of(s);
  const char* py = std::getenv("STK_PYTHON");
  const std::string records = dir + "/heldout.fhr";
  run_checked(s, "fail-high collection",
              {s.harness, "fhcollect", "--positions=" + a.epd_file, "--shard",
               "1/" + std::to_string(a.stride), "--depth", std::to_string(a.depth + 1),
               "--full-depth", std::to_string(a.depth), "--seed", "1", "--out=" + records,
               "--config", s.role, "--out-dir=" + dir});
  run_checked(s, "calibration",
              {py && *py ? py : ".venv/bin/python", "-m", "stktrain.calibration",
               "--records=" + records, "--model=" + model, "--tier", "quick",
               "--out-dir=" + dir + "/calibration", "--junit=" + dir + "/junit/calibration.xml"});
  Json cal = read_json(s, dir + "/calibration/calibration.json", "stktrain.calibration");
  const Json decisions = cal.value("decisions", Json::object());
  for (const auto& [name, d] : decisions.items())
    if (d.contains("firing_rate") && d["firing_rate"].is_number())
      out.firing_rate[name] = d["firing_rate"].get<double>();
  out.raw = {{"shadow_json", dir + "/shadow/" + s.role + ".json"},
             {"calibration_json", dir + "/calibration/calibration.json"},
             {"miss_rate", out.miss_rate},
             {"firing_rate", out.firing_rate}};
  return out;
}

}  // namespace

std::string firing_unavailable_reason(const Side& s) {
  const std::string model = builtin_model_of(s);
  if (has_command(s, "fhcollect") && fs::exists(model)) return "";
  return fmt::format(
      "--{} {}: this revision has no fail-high collection (stk-harness fhcollect or {})", s.role,
      s.given, model);
}

Json run_audits(const Side& base, const Side& candidate, const AuditSettings& settings,
                const std::string& runs_dir) {
  const SideAudit a = audit_side(base, settings, runs_dir),
                  b = audit_side(candidate, settings, runs_dir);
  Json out = {{"settings",
               {{"epd", settings.epd_file},
                {"stride", settings.stride},
                {"shadow_depth", settings.depth},
                {"collection_depth", settings.depth + 1}}},
              {"base", a.raw},
              {"candidate", b.raw},
              {"rows", Json::array()},
              {"cases", Json::array()}};
  auto side_by_side =
      [&](const char* title, const char* prefix, const std::map<std::string, double>& x,
          const std::map<std::string, double>& y, const std::string& unavailable = "") {
        Json facts = Json::object();
        std::map<std::string, int> keys;
        for (const auto& [k, v] : x) keys[k] = 1;
        for (const auto& [k, v] : y) keys[k] = 1;
        for (const auto& [k, unused] : keys) {
          auto text = [&](const std::map<std::string, double>& m) {
            auto it = m.find(k);
            return it == m.end() ? std::string("n/a") : fmt::format("{:.5f}", it->second);
          };
          std::string delta = x.count(k) && y.count(k) ? fmt::format("{:+.5f}", y.at(k) - x.at(k))
                                                       : "n/a";
          facts[k] = fmt::format("{} -> {} ({})", text(x), text(y), delta);
          out["rows"].push_back({{"what", std::string(prefix) + k},
                                 {"base", text(x)},
                                 {"candidate", text(y)},
                                 {"delta", delta}});
        }
        Json c = {{"name", title}, {"facts", facts}};
        if (!unavailable.empty()) c["skipped"] = unavailable;
        out["cases"].push_back(c);
      };
  const std::string no_shadow = a.shadow_unavailable.empty() ? b.shadow_unavailable
                                                             : a.shadow_unavailable;
  side_by_side("shadow miss rates", "miss ", a.miss_rate, b.miss_rate, no_shadow);
  side_by_side("predictor firing rates", "firing ", a.firing_rate, b.firing_rate,
               a.firing_unavailable.empty() ? b.firing_unavailable : a.firing_unavailable);
  return out;
}

}  // namespace stk::harness::compare
