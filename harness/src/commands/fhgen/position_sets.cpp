#include "commands/fhgen/position_sets.h"

#include <cmath>
#include <set>
#include <utility>

#include "cli/cli.h"
#include "positions/epd_suite.h"

namespace stk::harness::fhgen {

namespace {

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// ECM positions in a seeded random order (Fisher-Yates on a stream no game uses), canonical FEN,
// positions in check or already over left out.
std::vector<SetEntry> shuffled_ecm(const std::string& path, std::uint64_t seed) {
  std::vector<epd::EpdPosition> suite = epd::read_epd_file(path);
  std::mt19937_64 rng = game_rng(seed, -1);
  for (std::size_t i = suite.size(); i > 1; --i)
    std::swap(suite[i - 1], suite[uniform_below(rng, i)]);
  std::vector<SetEntry> out;
  for (const epd::EpdPosition& p : suite) {
    Position pos;
    pos.set(p.fen, true);  // read_epd_file has checked it
    if (!pos.in_check() && !game_over(pos)) out.push_back({canonical_fen(pos), p.name(), true});
  }
  return out;
}

}  // namespace

bool goes_to_heldout(const std::string& canonical, double heldout, std::uint64_t split_seed) {
  return double(mix64(fnv1a64(canonical) ^ mix64(split_seed)) >> 11) * 0x1p-53 < heldout;
}

int ecm_count_for(int unique, double ecm_fraction) {
  if (ecm_fraction <= 0) return 0;
  return int(std::llround(ecm_fraction * unique / (1 - ecm_fraction)));
}

search::Options self_play_search_options() { return search::Options{16, false, nullptr}; }

PositionSets generate_position_sets(const GenOptions& opt) {
  PositionSets out;
  std::vector<SetEntry> all;
  std::set<std::string> seen;
  // The ECM file is read first, so that a bad file stops the run before any game.
  const std::vector<SetEntry> ecm = opt.ecm_fraction > 0 ? shuffled_ecm(opt.ecm_path, opt.seed)
                                                         : std::vector<SetEntry>();

  // 1. Self-play samples, first occurrence of each position kept.
  search::Searcher searcher(self_play_search_options());
  for (int g = 0; g < opt.games; ++g) {
    GameRecord rec = play_seeded_game(searcher, opt.play, opt.seed, g);
    out.sampled += int(rec.samples.size());
    for (const SampledPosition& s : rec.samples)
      if (seen.insert(s.fen).second)
        all.push_back({s.fen, "g" + std::to_string(s.game) + "-p" + std::to_string(s.ply), false});
    rec.samples.clear();
    out.games.push_back(std::move(rec));
  }
  out.selfplay_unique = int(all.size());

  // 2. The tactical share: the first ecm_wanted new positions of the seeded ECM order.
  out.ecm_wanted = ecm_count_for(out.selfplay_unique, opt.ecm_fraction);
  int taken = 0;
  for (const SetEntry& e : ecm) {
    if (!seen.insert(e.fen).second) continue;
    ++out.ecm_available;
    if (taken < out.ecm_wanted) all.push_back(e), ++taken;
  }

  // 3. The split, by position: every entry is a distinct position, decided by its FEN alone.
  for (SetEntry& e : all)
    (goes_to_heldout(e.fen, opt.heldout, opt.split_seed) ? out.heldout : out.fit)
        .push_back(std::move(e));
  return out;
}

std::string epd_line(const SetEntry& e) {
  return e.fen + " id \"" + e.id + "\"; c0 \"src=" + (e.ecm ? "ecm" : "selfplay") + "\";";
}

}  // namespace stk::harness::fhgen
