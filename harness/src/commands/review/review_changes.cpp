#include "commands/review/review_changes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace stk::harness::review {

namespace {

// Exact figures are compared at their printed precision's scale: a float written and read back
// is not a change.
bool differs(double a, double b) {
  return std::abs(a - b) > 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

std::optional<double> timing_noise(const std::vector<double>& values) {
  if (int(values.size()) < kMinNoiseRuns) return std::nullopt;
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= double(values.size());
  double ss = 0.0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return 2.0 * std::sqrt(ss / double(values.size() - 1));
}

// History revisions are "<12 hex digits>[-dirty]"; a base may be given as a full hash.
bool same_revision(const std::string& recorded, const std::string& base) {
  const std::string hash = recorded.substr(0, recorded.find('-'));
  if (hash.empty() || base.empty()) return false;
  return hash.size() <= base.size() ? base.starts_with(hash) : hash.starts_with(base);
}

int direction_of(Better better, double delta) {
  if (better == Better::either || delta == 0.0) return 0;
  return (delta > 0) == (better == Better::higher) ? 1 : -1;
}

}  // namespace

std::vector<const Change*> Comparison::notable() const {
  std::vector<const Change*> out;
  for (int want : {-1, 1, 0})
    for (const Change& c : changes)
      if (c.beyond_noise && c.direction == want) out.push_back(&c);
  return out;
}

int Comparison::worse() const {
  return int(std::count_if(changes.begin(), changes.end(),
                           [](const Change& c) { return c.beyond_noise && c.direction < 0; }));
}

Comparison compare_with_history(const std::vector<Figure>& figures,
                                const std::vector<HistoryRow>& rows,
                                std::optional<long long> exclude_run, const RunFacts& here,
                                const std::string& base_revision) {
  Comparison out;
  out.against = base_revision.empty() ? "previous run" : "base revision " + base_revision;
  for (const HistoryRow& r : rows) {
    if (exclude_run && r.run_id == *exclude_run) continue;
    if (!base_revision.empty() && !same_revision(r.run.revision, base_revision)) continue;
    if (!out.run_id || r.run_id > *out.run_id) out.run_id = r.run_id, out.run = r.run;
  }
  // Each key's values by run, up to and including the compared run; and the runs of this machine.
  std::map<std::string, std::map<long long, double>> by_key;
  std::set<long long> this_machine;
  for (const HistoryRow& r : rows)
    if (out.run_id && r.run_id <= *out.run_id && (!exclude_run || r.run_id != *exclude_run)) {
      by_key[r.key][r.run_id] = r.value;
      if (r.run.cpu_model == here.cpu_model && r.run.cores == here.cores)
        this_machine.insert(r.run_id);
    }
  for (const Figure& f : figures) {
    Change c;
    c.figure = f;
    const auto key = by_key.find(f.key);
    if (key != by_key.end() && key->second.count(*out.run_id)) {
      c.earlier = key->second.at(*out.run_id);
      c.delta = f.value - *c.earlier;
      if (f.noise == Noise::exact) {
        c.noise = 0.0;
        c.beyond_noise = differs(f.value, *c.earlier);
      } else {
        std::vector<double> recent;
        for (auto it = key->second.rbegin(); it != key->second.rend() && recent.size() < kNoiseRuns;
             ++it)
          if (this_machine.count(it->first)) recent.push_back(it->second);
        if (this_machine.count(*out.run_id)) c.noise = timing_noise(recent);
        c.beyond_noise = c.noise && std::abs(c.delta) > *c.noise;
      }
      if (!differs(f.value, *c.earlier)) c.delta = 0.0;
      c.direction = direction_of(f.better, c.delta);
    }
    out.changes.push_back(std::move(c));
  }
  return out;
}

}  // namespace stk::harness::review
