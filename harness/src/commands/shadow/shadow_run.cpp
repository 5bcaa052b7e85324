#include "commands/shadow/shadow_run.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include <fmt/format.h>

namespace stk::harness::shadow {

namespace {

junit::TestCase invariant_case(const epd::EpdPosition& p, const search::Result& ref,
                               const PositionAudit& a, double t_plain, const std::string& diff) {
  junit::TestCase tc;
  tc.classname = "shadow.invariant";
  tc.name = p.name();
  tc.time_s = t_plain + a.time_s;
  tc.facts = {{"best", to_uci(a.result.best)},
              {"score", std::to_string(a.result.score)},
              {"real_nodes", std::to_string(a.result.nodes)},
              {"shadow_nodes", std::to_string(a.shadow_nodes)},
              {"misses", std::to_string(a.misses.size())},
              {"control_hits", std::to_string(a.control_hits.size())}};
  if (!diff.empty()) {
    tc.outcome = junit::Outcome::Failed;
    tc.message = "audit changed the real search";
    tc.detail = p.fen + "\naudit off vs on: " + diff;
    std::cerr << "shadow: " << tc.name << ": " << tc.message << "\n";
  }
  return tc;
}

void add_position(RunTotals& t, const epd::EpdPosition& p, const search::Result& ref,
                  PositionAudit& a, double t_plain) {
  t.counts.add(a.counts);
  t.per_position.push_back(a.counts);
  t.real_nodes += a.result.nodes;
  t.plain_nodes += ref.nodes;
  t.shadow_nodes += a.shadow_nodes;
  t.control_nodes += a.control_nodes;
  t.journal_peak = std::max(t.journal_peak, a.journal_peak);
  t.audit_time += a.time_s;
  t.plain_time += t_plain;
  t.misses_per_position.emplace_back(p.name(), a.misses.size());
  for (auto& m : a.misses) t.misses.push_back(std::move(m));
  for (auto& m : a.control_hits) t.control_hits.push_back(std::move(m));
  for (auto& m : a.depth_mismatches) t.depth_mismatches.push_back(std::move(m));
}

// Classification sample, depth-aware (LESSONS: uniform subsampling starves the rare deep cells):
// up to `max` misses, the same quota per mechanism x depth cell, evenly spaced within a cell.
// Misses left out get the verdict "unsampled".
void classify_sample(std::vector<Miss>& misses, std::size_t max, int depths, std::uint64_t nodes) {
  std::map<std::pair<int, int>, std::vector<std::size_t>> cells;
  for (std::size_t i = 0; i < misses.size(); ++i)
    cells[{int(misses[i].mechanism), misses[i].depth}].push_back(i);
  const std::size_t quota = cells.empty() ? 0 : std::max<std::size_t>(1, max / cells.size());
  std::vector<std::size_t> chosen;
  for (auto& [key, idx] : cells) {
    if (idx.size() <= quota) chosen.insert(chosen.end(), idx.begin(), idx.end());
    else
      for (std::size_t k = 0; k < quota; ++k) chosen.push_back(idx[k * idx.size() / quota]);
  }
  std::vector<Miss> sample;
  for (std::size_t i : chosen) sample.push_back(misses[i]);
  classify(sample, depths, nodes);
  for (Miss& m : misses) m.verdict = "unsampled";
  for (std::size_t k = 0; k < chosen.size(); ++k) misses[chosen[k]] = std::move(sample[k]);
}

}  // namespace

std::vector<const epd::EpdPosition*> select_positions(const std::vector<epd::EpdPosition>& all,
                                                      const ShadowSettings& s) {
  std::vector<const epd::EpdPosition*> todo;
  std::size_t selected = 0;
  for (const auto& p : all)
    if (p.index % s.stride == 0 && s.shard.takes(selected++)) todo.push_back(&p);
  return todo;
}

RunTotals audit_positions(const std::vector<const epd::EpdPosition*>& todo, const ShadowSettings& s,
                          junit::TestSuite& suite) {
  RunTotals t;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const auto& p = *todo[i];
    double t_plain = 0;
    search::Result ref = plain_search(p.full_fen(), s.search, &t_plain);
    PositionAudit a = audit_position<Variant{}>(p.full_fen(), p.name(), s.search);
    const std::string diff = compare_results(ref, a.result);
    t.invariant_failures += !diff.empty();
    suite.cases.push_back(invariant_case(p, ref, a, t_plain, diff));
    if (!s.quiet)
      std::cout
          << fmt::format(
                 "[{}/{}] {:<10} best {:<6} nodes {:>9} shadow {:>10} misses {:>5} control hits {:>4} "
                 "{:.2f}s{}\n",
                 i + 1, todo.size(), p.name(), to_uci(a.result.best), a.result.nodes,
                 a.shadow_nodes, a.misses.size(), a.control_hits.size(), a.time_s,
                 diff.empty() ? "" : "  INVARIANT BROKEN")
          << std::flush;
    add_position(t, p, ref, a, t_plain);
  }
  return t;
}

RunFigures classify_and_measure(RunTotals& t, const ShadowSettings& s) {
  RunFigures f;
  auto t0 = std::chrono::steady_clock::now();
  classify_sample(t.misses, s.classify_max, s.classify_depths, s.classify_nodes);
  f.classify_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  f.nps_off = t.plain_time > 0 ? t.plain_nodes / t.plain_time : 0;
  f.nps_on = t.audit_time > 0 ? t.real_nodes / t.audit_time : 0;
  f.nps_on_all = t.audit_time > 0 ? (t.real_nodes + t.shadow_nodes) / t.audit_time : 0;
  for (const Miss& m : t.misses) ++f.verdicts[search::mechanism_name(m.mechanism)][m.verdict];
  f.art = artifact_share(t.misses, 3);
  for (int mi = 0; mi < search::kMechanismCount; ++mi)
    for (const Cell& c : t.counts.decisions[mi]) f.mismatches += c.depth_mismatches;
  for (int ci = 0; ci < kControlCount; ++ci)
    for (const ControlCell& c : t.counts.controls[ci]) f.mismatches += c.depth_mismatches;
  return f;
}

Excess band_excess(const RunTotals& t, const BootstrapSettings& boot, Mechanism m, int lo, int hi) {
  return excess_of(band_clusters(t.per_position, m, lo, hi), boot);
}

}  // namespace stk::harness::shadow
