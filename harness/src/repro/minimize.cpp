#include "repro/minimize.h"

#include <sstream>

#include "repro/ddmin.h"

namespace stk::harness::repro {

namespace {

using Commands = std::vector<std::string>;

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> words;
  for (std::string w; is >> w;) words.push_back(w);
  return words;
}

bool starts_with_word(const std::string& line, const std::string& word) {
  const auto words = words_of(line);
  return !words.empty() && words[0] == word;
}

// A go command's limits as units: "wtime 1000" is one, "infinite" one.
std::vector<std::string> go_units(const std::string& line) {
  const auto words = words_of(line);
  std::vector<std::string> units;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const bool flag = words[i] == "infinite" || words[i] == "ponder";
    units.push_back(flag || i + 1 == words.size() ? words[i] : words[i] + " " + words[i + 1]);
    if (!flag) ++i;
  }
  return units;
}

class Shrinker {
 public:
  Shrinker(const std::string& engine, const Symptom& target, const ReplayLimits& limits,
           const MinimizeBudget& budget)
      : engine_(engine),
        target_(target),
        limits_(limits),
        budget_(budget),
        start_(std::chrono::steady_clock::now()) {}

  bool out_of_budget() const {
    return out_.trials.size() >= budget_.max_trials ||
           std::chrono::steady_clock::now() - start_ >= budget_.max_time;
  }

  // One replay of `commands`; true when it failed as the target. Past the budget: false, untried.
  bool fails(const std::string& step, const Commands& commands) {
    if (out_of_budget()) return (exhausted_ = true, false);
    const Replay r = replay_commands(engine_, commands, limits_);
    last_sent_ = r.sent;
    out_.trials.push_back({step, commands.size(), r.symptom, r.symptom == target_, r.ms});
    return r.symptom == target_;
  }

  // Keeps `candidate` when it fails as the target.
  void attempt(const std::string& step, const Commands& candidate) {
    if (candidate != out_.commands && fails(step, candidate)) out_.commands = candidate;
  }

  Minimized run(const Commands& recorded) {
    out_.commands = recorded;
    out_.reproduced = fails("recorded", recorded);
    if (!out_.reproduced) return std::move(out_);
    // The failure comes at the last command the replay sent: nothing after it is needed.
    out_.commands.resize(std::min(recorded.size(), last_sent_ + 1));
    // Every trial of a hang waits the whole answer time: its commands are only cut.
    if (target_.kind == "no-answer") return std::move(out_);
    rewrite_positions_as_fens();
    keep_last_search();
    shrink_commands();
    shrink_go_limits();
    out_.minimal = !exhausted_;
    return std::move(out_);
  }

 private:
  void rewrite_positions_as_fens() {
    Commands fens = out_.commands;
    for (std::string& c : fens) c = position_as_fen(c);
    attempt("fen", fens);
  }

  // The handshake-free tail: the last position command and everything after it.
  void keep_last_search() {
    const Commands& c = out_.commands;
    for (std::size_t i = c.size(); i-- > 0;)
      if (starts_with_word(c[i], "position")) {
        attempt("last-search", Commands(c.begin() + long(i), c.end()));
        return;
      }
  }

  void shrink_commands() {
    const Commands whole = out_.commands;
    const DdminResult r = ddmin(
        whole.size(),
        [&](const std::vector<std::size_t>& kept) { return fails("ddmin", pick(whole, kept)); },
        budget_.max_trials);
    out_.commands = pick(whole, r.kept);
  }

  void shrink_go_limits() {
    for (std::string& command : out_.commands) {
      if (!starts_with_word(command, "go")) continue;
      const std::vector<std::string> units = go_units(command);
      if (units.empty()) continue;
      const std::string original = command;
      const DdminResult r = ddmin(
          units.size(),
          [&](const std::vector<std::size_t>& kept) {
            command = go_line(units, kept);
            const bool failed = fails("go-limits", out_.commands);
            command = original;
            return failed;
          },
          budget_.max_trials);
      command = go_line(units, r.kept);
    }
  }

  static Commands pick(const Commands& all, const std::vector<std::size_t>& kept) {
    Commands out;
    for (std::size_t i : kept) out.push_back(all[i]);
    return out;
  }
  static std::string go_line(const std::vector<std::string>& units,
                             const std::vector<std::size_t>& kept) {
    std::string line = "go";
    for (std::size_t i : kept) line += " " + units[i];
    return line;
  }

  std::string engine_;
  Symptom target_;
  ReplayLimits limits_;
  MinimizeBudget budget_;
  std::chrono::steady_clock::time_point start_;
  std::size_t last_sent_ = 0;  // commands the last replay sent before its failure
  bool exhausted_ = false;
  Minimized out_;
};

}  // namespace

Minimized minimize_commands(const std::string& engine, const Commands& recorded,
                            const Symptom& target, const ReplayLimits& limits,
                            const MinimizeBudget& budget) {
  return Shrinker(engine, target, limits, budget).run(recorded);
}

std::string FirstOfEachSymptom::claim(const std::string& engine, const Symptom& symptom,
                                      const std::string& id) {
  const std::lock_guard lock(mutex_);
  const std::string key = engine + '\n' + symptom.kind + '\n' + symptom.detail;
  if (const auto it = first_.find(key); it != first_.end()) return "as " + it->second;
  if (int(first_.size()) >= cap_) return "the run's first " + std::to_string(cap_);
  first_.emplace(key, id);
  return "";
}

}  // namespace stk::harness::repro
