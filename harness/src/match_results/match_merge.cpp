#include "match_results/match_merge.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "cli/cli.h"

namespace stk::harness::match {

MatchResult merge_match_results(const std::vector<NamedResult>& parts) {
  if (parts.empty()) throw InputError("merge: no match result files given");
  const NamedResult& first = parts.front();
  std::map<int, const std::string*> shard_owner;
  std::map<std::uint64_t, const std::string*> opening_owner;
  std::vector<const PairRecord*> pairs;
  for (const NamedResult& part : parts) {
    if (auto diff = first_difference(first.result.definition(), part.result.definition());
        !diff.empty())
      throw InputError(fmt::format("{}: not a shard of the match in {} ({}: {} vs {})", part.file,
                                   first.file, diff, first.file, part.file));
    for (int s : part.result.shards())
      if (auto [it, fresh] = shard_owner.emplace(s, &part.file); !fresh)
        throw InputError(fmt::format("{}: shard {}/{} is also in {} (a shard given twice)",
                                     part.file, s, first.result.definition().shard_count,
                                     *it->second));
    for (const PairRecord& p : part.result.pairs()) {
      if (auto [it, fresh] = opening_owner.emplace(p.opening, &part.file); !fresh)
        throw InputError(
            fmt::format("{}: opening pair {} is also in {} (overlapping pairs would count twice)",
                        part.file, p.opening, *it->second));
      pairs.push_back(&p);
    }
  }
  std::set<int> shards;
  for (const auto& [s, owner] : shard_owner) shards.insert(s);
  MatchResult merged(first.result.definition(), shards);
  std::sort(pairs.begin(), pairs.end(),
            [](const PairRecord* a, const PairRecord* b) { return a->opening < b->opening; });
  for (const PairRecord* p : pairs) merged.add_pair(*p);
  return merged;
}

}  // namespace stk::harness::match
