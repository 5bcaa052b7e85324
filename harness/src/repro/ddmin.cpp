#include "repro/ddmin.h"

#include <algorithm>
#include <map>

namespace stk::harness::repro {

namespace {

using Items = std::vector<std::size_t>;

// `items` cut into `parts` chunks of near-equal size, in order.
std::vector<Items> split(const Items& items, std::size_t parts) {
  std::vector<Items> chunks;
  std::size_t start = 0;
  for (std::size_t i = 0; i < parts; ++i) {
    const std::size_t end = start + (items.size() - start) / (parts - i);
    chunks.emplace_back(items.begin() + long(start), items.begin() + long(end));
    start = end;
  }
  return chunks;
}

Items without(const Items& items, const Items& chunk) {
  Items out;
  std::set_difference(items.begin(), items.end(), chunk.begin(), chunk.end(),
                      std::back_inserter(out));
  return out;
}

}  // namespace

DdminResult ddmin(std::size_t n, const std::function<bool(const Items&)>& fails,
                  std::size_t max_trials) {
  DdminResult r;
  for (std::size_t i = 0; i < n; ++i) r.kept.push_back(i);
  std::map<Items, bool> seen{{r.kept, true}};
  bool out_of_trials = false;
  // Tests a candidate once; an untested candidate past the budget counts as passing.
  auto test = [&](const Items& kept) {
    if (auto it = seen.find(kept); it != seen.end()) return it->second;
    if (r.trials.size() >= max_trials) return (out_of_trials = true, false);
    const bool failed = fails(kept);
    r.trials.push_back({kept, failed});
    return seen[kept] = failed;
  };
  std::size_t granularity = 2;
  while (r.kept.size() >= 2) {
    granularity = std::min(granularity, r.kept.size());
    const std::vector<Items> chunks = split(r.kept, granularity);
    bool reduced = false;
    for (const Items& chunk : chunks)
      if (test(chunk)) {
        r.kept = chunk, granularity = 2, reduced = true;
        break;
      }
    if (!reduced && granularity > 2)
      for (const Items& chunk : chunks)
        if (Items rest = without(r.kept, chunk); test(rest)) {
          r.kept = rest, granularity = std::max<std::size_t>(granularity - 1, 2), reduced = true;
          break;
        }
    if (reduced) continue;
    if (granularity >= r.kept.size()) break;
    granularity = std::min(granularity * 2, r.kept.size());
  }
  // One item left: the empty sequence may fail too (a crash at start-up needs no command).
  if (r.kept.size() == 1 && test({})) r.kept.clear();
  r.minimal = !out_of_trials;
  return r;
}

}  // namespace stk::harness::repro
