#include "commands/uci-check/repro_bundles.h"

#include <cctype>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "proc/command_words.h"
#include "repro/bundle.h"
#include "repro/minimize.h"

namespace stk::harness::ucicheck {

namespace {

// As in a match: replays cost engine time, so only the first few failures are minimized.
constexpr int kMinimizedBundles = 4;
constexpr int kMaxBundles = 20;

std::string bundle_id(const std::string& config, const ScenarioResult& r) {
  std::string id = "uci-check-" + config + "-" + r.group + "-" + r.name;
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '-';
  return id;
}

// The command line that runs this one scenario again as this run did.
std::vector<std::string> rerun_argv(const ScenarioResult& r, const Settings& s) {
  std::vector<std::string> argv{"uci-check",
                                "--engine",
                                s.engine,
                                "--only",
                                r.group + "." + r.name,
                                "--seed",
                                std::to_string(s.seed),
                                "--timeout-scale",
                                fmt::format("{}", s.timeout_scale)};
  for (const auto& [k, v] : s.options) argv.insert(argv.end(), {"--option", k + "=" + v});
  if (s.strict_pv) argv.push_back("--strict-pv");
  if (!s.documented_differences) argv.push_back("--no-documented-differences");
  return argv;
}

}  // namespace

int leave_reproducers(const std::vector<ScenarioResult>& results, const Settings& settings,
                      const std::string& out_dir, const std::string& config) {
  int written = 0;
  repro::FirstOfEachSymptom minimized(kMinimizedBundles);
  for (const ScenarioResult& r : results) {
    if (r.verdict != Verdict::Fail || written >= kMaxBundles) continue;
    repro::Failure f;
    f.id = bundle_id(config, r);
    f.source = "uci-check";
    f.engine = settings.engine;
    f.side = "the engine under test";
    f.what = r.failures.front().text;
    for (const TranscriptEntry& e : r.transcript) {
      if (e.direction == '!') {
        f.stderr_text += e.text + "\n";
        continue;
      }
      f.transcript.push_back({e.t_ms, e.direction, e.text});
      if (e.direction == '>') f.commands.push_back(e.text);
    }
    repro::ReplayLimits limits;
    limits.answer = scaled(settings, Timeouts::kPrompt);
    std::optional<repro::Minimized> m;
    std::string same;  // why a reproduced failure was not minimized: "as <the bundle that was>"
    if (written < kMinimizedBundles) {
      const repro::Replay seen = repro::replay_commands(settings.engine, f.commands, limits);
      if (seen.symptom.failed()) {
        f.symptom = seen.symptom;
        same = minimized.claim(settings.engine, f.symptom, f.id);
        if (same.empty())
          m = repro::minimize_commands(settings.engine, f.commands, f.symptom, limits);
      }
    }
    if (same.empty() && (!m || !m->reproduced)) {
      f.symptom = {"scenario", r.group + "." + r.name};
      f.rerun = rerun_argv(r, settings);
      m.reset();
    }
    const std::string dir = repro::write_bundle(out_dir + "/repro", f, m ? &*m : nullptr);
    std::cout << fmt::format("uci-check: reproducer {} ({}{}): {}\n", dir, f.symptom.describe(),
                             m              ? fmt::format(", {} of {} commands", m->commands.size(),
                                                          f.commands.size())
                             : same.empty() ? ""
                                            : ", not minimized: " + same,
                             proc::display_command({"stk-harness", "replay", dir}))
              << std::flush;
    ++written;
  }
  return written;
}

}  // namespace stk::harness::ucicheck
