// latency: how promptly an engine answers, as a distribution over many searches (any engine).
// latency.stop: 100 x "go infinite", then "stop" after a seeded delay of 1 to 10 ms; the time
// from stop to bestmove. latency.movetime: 100 x "go movetime 20"; the overrun, bestmove time
// minus 20 ms (negative when it answers early). Each reports p50, p99 (nearest rank) and max in
// ms as facts and JUnit suite properties (latency.<name>.p50_ms ...), with the seed and the number
// of searches, and fails when p99 or max is above its gate (Settings: stop_p99_ms/stop_max_ms,
// overrun_p99_ms/overrun_max_ms, times --timeout-scale), the message naming the figures. Once a
// gate has failed beyond doubt (after at least kLatencyMinSearches: a search above the max gate,
// or more above the p99 gate than 1% of the planned searches) the scenario stops early, so that a
// slow engine does not take minutes; the searches measured are reported.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/splitmix.h"
#include "commands/uci-check/check_positions.h"
#include "commands/uci-check/search_checks.h"

namespace stk::harness::ucicheck {

namespace {

// A middlegame with many legal moves: every search really searches.
constexpr const char* kLatencyFen =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
constexpr int kLatencySearches = 100;  // per scenario: 200 in all
constexpr int kLatencyMinSearches = 10;
constexpr int kStopDelayMinMs = 1, kStopDelayMaxMs = 10;
constexpr int kLatencyMovetimeMs = 20;

// The nearest-rank percentile q (0 < q <= 1) of `v` (not empty).
double nearest_rank(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const std::size_t rank = std::size_t(std::ceil(q * double(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

struct LatencyGate {
  const char* what;       // "stop -> bestmove during go infinite"
  const char* behaviour;  // the failure's tag
  double p99_ms, max_ms;  // already scaled
};

class LatencySamples {
 public:
  explicit LatencySamples(const LatencyGate& gate) : gate_(gate) {}
  void add(double ms) {
    samples_.push_back(ms);
    above_p99_ += ms > gate_.p99_ms;
    above_max_ += ms > gate_.max_ms;
  }
  // The gate has failed whatever the remaining searches measure.
  bool decided() const {
    const int allowed_above_p99 = kLatencySearches -
                                  int(std::ceil(0.99 * double(kLatencySearches)));
    return int(samples_.size()) >= kLatencyMinSearches &&
           (above_max_ > 0 || above_p99_ > allowed_above_p99);
  }
  // Facts, properties and the verdict.
  void report(ScenarioResult& r, std::uint64_t seed) const {
    r.facts["searches"] = samples_.size();
    r.facts["searches_planned"] = kLatencySearches;
    r.facts["seed"] = seed;
    if (samples_.empty()) return;
    const double p50 = nearest_rank(samples_, 0.5), p99 = nearest_rank(samples_, 0.99),
                 max = *std::max_element(samples_.begin(), samples_.end());
    r.facts["p50_ms"] = p50;
    r.facts["p99_ms"] = p99;
    r.facts["max_ms"] = max;
    r.facts["gate_p99_ms"] = gate_.p99_ms;
    r.facts["gate_max_ms"] = gate_.max_ms;
    r.properties.emplace_back("p50_ms", fmt::format("{:.1f}", p50));
    r.properties.emplace_back("p99_ms", fmt::format("{:.1f}", p99));
    r.properties.emplace_back("max_ms", fmt::format("{:.1f}", max));
    r.properties.emplace_back("searches", std::to_string(samples_.size()));
    r.properties.emplace_back("seed", std::to_string(seed));
    std::string over;
    if (p99 > gate_.p99_ms) over = fmt::format("p99 {:.1f} ms > gate {} ms", p99, gate_.p99_ms);
    if (max > gate_.max_ms)
      over += fmt::format("{}max {:.1f} ms > gate {} ms", over.empty() ? "" : ", ", max,
                          gate_.max_ms);
    if (over.empty()) return;
    const bool early = int(samples_.size()) < kLatencySearches;
    r.fail(fmt::format("{}: {} (p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms over {} searches{}, "
                       "seed {})",
                       gate_.what, over, p50, p99, max, samples_.size(),
                       early ? fmt::format(" of {}: stopped once the gate had failed",
                                           kLatencySearches)
                             : "",
                       seed),
           gate_.behaviour);
  }

 private:
  LatencyGate gate_;
  std::vector<double> samples_;
  int above_p99_ = 0, above_max_ = 0;
};

bool latency_setup(Session& s, ScenarioResult& r) {
  s.send(std::string("position fen ") + kLatencyFen);
  if (s.isready(s.timeout(Timeouts::kPrompt)).found) return true;
  r.fail("isready not answered before the searches (" + s.state() + ")", "hang");
  return false;
}

bool latency_legal(ScenarioResult& r, const Position& root, const uci::BestMove& b,
                   const std::string& go, int index) {
  if (legal_in(root, b.move)) return true;
  r.fail(fmt::format("search {} ('{}'): bestmove '{}' is illegal", index + 1, go, b.move),
         "illegal-bestmove");
  return false;
}

void stop_latency(Session& s, ScenarioResult& r) {
  const Settings& set = s.settings();
  const std::uint64_t seed = set.seed;
  LatencySamples samples({"stop -> bestmove during go infinite", "slow-stop",
                          set.stop_p99_ms * set.timeout_scale,
                          set.stop_max_ms * set.timeout_scale});
  r.facts["stop_delay_ms"] = fmt::format("{}..{} (seeded)", kStopDelayMinMs, kStopDelayMaxMs);
  SplitMix rng(seed);
  const Position root = position_of(kLatencyFen);
  if (!latency_setup(s, r)) return;
  for (int i = 0; i < kLatencySearches && !samples.decided(); ++i) {
    const int delay = rng.uniform(kStopDelayMinMs, kStopDelayMaxMs);
    s.send("go infinite");
    const std::vector<TimedLine> early = s.listen(std::chrono::milliseconds(delay));
    if (std::any_of(early.begin(), early.end(),
                    [](const TimedLine& l) { return uci::parse_bestmove(l.text).has_value(); })) {
      r.fail(fmt::format("search {}: bestmove during go infinite before any stop", i + 1),
             "early-bestmove");
      break;
    }
    const auto stop = SteadyClock::now();
    s.send("stop");
    Reply reply = s.wait_bestmove(s.timeout(Timeouts::kPrompt), stop);
    if (!reply.found) {
      r.fail(reply.closed
                 ? fmt::format("search {}: the engine died after stop ({})", i + 1, s.state())
                 : fmt::format("search {}: no bestmove within {} ms of stop", i + 1,
                               s.timeout(Timeouts::kPrompt).count()),
             reply.closed ? "crash" : "hang");
      break;
    }
    samples.add(reply.ms);
    if (!latency_legal(r, root, *uci::parse_bestmove(reply.match()->text), "go infinite", i)) break;
  }
  samples.report(r, seed);
}

void movetime_overrun(Session& s, ScenarioResult& r) {
  const Settings& set = s.settings();
  LatencySamples samples({"go movetime 20 overrun (bestmove after 20 ms)", "movetime-overrun",
                          set.overrun_p99_ms * set.timeout_scale,
                          set.overrun_max_ms * set.timeout_scale});
  const Position root = position_of(kLatencyFen);
  const std::string go = "go movetime " + std::to_string(kLatencyMovetimeMs);
  if (!latency_setup(s, r)) return;
  for (int i = 0; i < kLatencySearches && !samples.decided(); ++i) {
    SearchRun run = run_go(s, go,
                           std::chrono::milliseconds(kLatencyMovetimeMs) +
                               s.timeout(Timeouts::kHang));
    if (!require_finished(run, r, fmt::format("search {}", i + 1))) break;
    samples.add(run.ms - kLatencyMovetimeMs);
    if (!latency_legal(r, root, *run.best, go, i)) break;
  }
  samples.report(r, set.seed);  // nothing random here; recorded all the same
}

}  // namespace

void add_latency_scenarios(std::vector<Scenario>& out, const Settings&) {
  out.push_back({"latency", "stop",
                 "100 x go infinite, stop after a seeded 1-10 ms: stop -> bestmove p50/p99/max "
                 "within the gates",
                 stop_latency});
  out.push_back(
      {"latency", "movetime",
       "100 x go movetime 20: the overrun (bestmove - 20 ms) p50/p99/max within the gates",
       movetime_overrun});
}

}  // namespace stk::harness::ucicheck
