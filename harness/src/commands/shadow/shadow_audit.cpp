#include "commands/shadow/shadow_audit.h"

#include <fmt/format.h>

namespace stk::harness::shadow {

void Counts::add(const Counts& o) {
  for (int m = 0; m < search::kMechanismCount; ++m)
    for (int d = 0; d < kDepthCells; ++d) {
      Cell& a = decisions[m][d];
      const Cell& b = o.decisions[m][d];
      a.audited += b.audited, a.misses += b.misses, a.discarded += b.discarded;
      a.depth_mismatches += b.depth_mismatches;
    }
  for (int c = 0; c < kControlCount; ++c) {
    for (int d = 0; d < kDepthCells; ++d) {
      ControlCell& a = controls[c][d];
      const ControlCell& b = o.controls[c][d];
      a.audited += b.audited, a.hits += b.hits, a.replayed += b.replayed,
          a.discarded += b.discarded;
      a.depth_mismatches += b.depth_mismatches;
    }
    candidates[c] += o.candidates[c];
    sampled[c] += o.sampled[c];
  }
}

search::Result plain_search(const std::string& fen, const SearchSettings& s, double* time_s) {
  Position pos;
  if (auto err = pos.set(fen, true)) throw std::runtime_error("bad FEN '" + fen + "': " + *err);
  search::FreshSearch fresh(s.hash_mb);
  search::NoPolicy policy;
  auto t0 = std::chrono::steady_clock::now();
  search::Result r = fresh.run(pos, policy, s.depth, s.nodes);
  if (time_s)
    *time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string path_uci(const std::vector<Move>& path) {
  std::string out;
  for (Move m : path) {
    if (!out.empty()) out += ' ';
    out += m == Move::null() ? "0000" : to_uci(m);
  }
  return out;
}

std::string compare_results(const search::Result& a, const search::Result& b) {
  if (a.best != b.best) return fmt::format("best move {} vs {}", to_uci(a.best), to_uci(b.best));
  if (a.score != b.score) return fmt::format("score {} vs {}", a.score, b.score);
  if (a.nodes != b.nodes) return fmt::format("real nodes {} vs {}", a.nodes, b.nodes);
  if (a.pv != b.pv) return fmt::format("pv '{}' vs '{}'", path_uci(a.pv), path_uci(b.pv));
  if (a.iterations.size() != b.iterations.size())
    return fmt::format("{} vs {} completed iterations", a.iterations.size(), b.iterations.size());
  for (std::size_t i = 0; i < a.iterations.size(); ++i) {
    const auto &x = a.iterations[i], &y = b.iterations[i];
    if (x.score != y.score || x.nodes != y.nodes || x.pv != y.pv || x.seldepth != y.seldepth)
      return fmt::format(
          "depth {}: score {} vs {}, nodes {} vs {}, seldepth {} vs {}, pv '{}' vs '{}'", x.depth,
          x.score, y.score, x.nodes, y.nodes, x.seldepth, y.seldepth, path_uci(x.pv),
          path_uci(y.pv));
  }
  return "";
}

void classify(std::vector<Miss>& misses, int extra_depths, std::uint64_t node_cap) {
  search::TranspositionTable tt;
  tt.resize(8);
  auto heuristics = std::make_unique<search::Heuristics>();
  eval::Evaluator evaluator;
  search::NoPolicy policy;
  std::atomic<bool> stop{false};
  for (Miss& m : misses) {
    Position pos;
    pos.set(m.root_fen, true);
    for (Move p : m.path) {
      if (p == Move::null()) pos.make_null();
      else pos.make_move(p);
    }
    const bool child = m.move != Move::none();
    if (child) pos.make_move(m.move);
    tt.clear();
    heuristics->clear();
    const int first = std::max(m.shadow_depth, 1);
    search::Budget budget;
    budget.max_depth = std::min(first + extra_depths, search::kMaxPly - 1);
    budget.node_limit = node_cap;
    search::Worker<search::NoPolicy> worker(tt, *heuristics, evaluator, policy);
    search::Result r = worker.run(pos, budget, stop, nullptr);
    m.open_values.clear();
    for (const auto& it : r.iterations)
      if (it.depth >= first) m.open_values.push_back(child ? -it.score : it.score);
    if (r.iterations.empty() && !r.best.is_ok()) {
      // No legal move (mate or stalemate after the move): the value is exact at every depth.
      const int v = r.score;
      for (int i = 0; i <= extra_depths; ++i) m.open_values.push_back(child ? -v : v);
    }
    int on = 0;
    for (int v : m.open_values) on += on_miss_side(m, v);
    const int n = int(m.open_values.size());
    m.refuted_at_depth = n > 0 && !on_miss_side(m, m.open_values[0]);
    if (n == 0) m.verdict = "unclassified";
    else if (on == n && n == extra_depths + 1) m.verdict = "genuine";
    else if (on == 0) m.verdict = "noise";
    else m.verdict = n == extra_depths + 1 ? "mixed" : "unclassified";
  }
}

bool has_artifact_signature(const Miss& m) {
  const int gap = node_level(m.mechanism) ? m.beta - m.shadow_score : m.shadow_score - m.alpha;
  return m.refuted_at_depth && gap <= 2;
}

ArtifactShare artifact_share(const std::vector<Miss>& misses, int min_depth) {
  ArtifactShare a;
  for (const Miss& m : misses) {
    if (m.depth < min_depth || m.open_values.empty()) continue;
    ++a.misses;
    a.signature += has_artifact_signature(m);
  }
  return a;
}

}  // namespace stk::harness::shadow
