#include "stats/homogeneity_simulation.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "stats/homogeneity.h"
#include "stats/normal.h"

namespace stk::harness::match {

namespace {

// Uniform in [0, 1) from the top 53 bits.
double unit_uniform(SplitMix& rng) { return double(rng.next() >> 11) * 0x1.0p-53; }

}  // namespace

HomogeneitySimulationReport simulate_homogeneity(const HomogeneitySimulation& sim) {
  if (sim.shards < 2 || sim.pairs_per_shard < 1 || sim.merges < 1)
    throw std::invalid_argument("homogeneity simulation: 2 shards, 1 pair and 1 merge at least");
  if (!(sim.confidence > 0 && sim.confidence < 1))
    throw std::invalid_argument("homogeneity simulation: confidence must be in (0, 1)");
  HomogeneitySimulationReport rep;
  rep.merges = sim.merges;
  std::vector<LabelledShard> shards(std::size_t(sim.shards));
  for (int s = 0; s < sim.shards; ++s) shards[std::size_t(s)].label = "shard-" + std::to_string(s);
  for (int m = 0; m < sim.merges; ++m) {
    SplitMix rng(mix64(sim.seed + std::uint64_t(m)));
    const int bad = sim.bad ? m % sim.shards : -1;
    for (int s = 0; s < sim.shards; ++s) {
      const PentanomialModel& law = s == bad ? *sim.bad : sim.honest;
      PentanomialCounts& c = shards[std::size_t(s)].counts;
      c = {};
      for (std::uint64_t p = 0; p < sim.pairs_per_shard; ++p)
        ++c.n[std::size_t(draw_pair(law, unit_uniform(rng)))];
    }
    const HomogeneityResult r = homogeneity(shards, HomogeneityOptions{sim.alpha, sim.permutations,
                                                                       rng.next()});
    rep.flagged += r.flagged;
    rep.bad_named_worst += bad >= 0 && r.worst && *r.worst == std::size_t(bad);
  }
  const double z = normal_quantile(1 - (1 - sim.confidence) / 2);
  rep.flag_rate = wilson_interval(std::uint64_t(rep.flagged), std::uint64_t(sim.merges), z);
  rep.named_rate = wilson_interval(std::uint64_t(rep.bad_named_worst), std::uint64_t(sim.merges),
                                   z);
  return rep;
}

}  // namespace stk::harness::match
