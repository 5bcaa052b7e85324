// The fail-high predictor's position sets: seeded self-play samples plus a tactical share of ECM
// positions, deduplicated and split by position (never by record) into fit and held-out sets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "positions/seeded_games.h"

namespace stk::harness::fhgen {

struct GenOptions {
  SelfPlayOptions play;
  int games = 0;
  std::uint64_t seed = 0;
  std::string ecm_path;          // read only when ecm_fraction > 0
  double ecm_fraction = 0.1;     // ECM share of all positions, in [0, 1)
  double heldout = 0.2;          // share of positions (by hash) that go to the held-out set, [0, 1]
  std::uint64_t split_seed = 0;  // salt of the split hash; independent of `seed` on purpose
};

struct SetEntry {
  std::string fen;  // canonical four fields
  std::string id;   // "g<game>-p<ply>" or the ECM id
  bool ecm = false;
};

struct PositionSets {
  std::vector<SetEntry> fit, heldout;
  std::vector<GameRecord> games;  // samples cleared; kept for the game statistics
  int sampled = 0;                // self-play samples before deduplication
  int selfplay_unique = 0;
  int ecm_wanted = 0;     // round(f * unique / (1 - f))
  int ecm_available = 0;  // distinct ECM positions not in check and not already sampled
};

// True when the position goes to the held-out set: a 64-bit FNV-1a hash of the canonical FEN,
// mixed with `split_seed`, falls below `heldout` of the range. A function of the position only,
// so one position is always on one side, in every run with the same split seed.
bool goes_to_heldout(const std::string& canonical, double heldout, std::uint64_t split_seed);

// ECM positions to mix in for `unique` self-play positions: round(f * unique / (1 - f)).
int ecm_count_for(int unique, double ecm_fraction);

// What every game is searched with: one thread (the Searcher's only mode), Hash 16 MB, the
// classical evaluation. positions.json records these same values.
search::Options self_play_search_options();

// Plays the games (self_play_search_options), samples, reads and mixes ECM,
// splits. Throws InputError for a missing or malformed ECM file (naming file and line).
PositionSets generate_position_sets(const GenOptions& opt);

// An EPD line: fen, id and c0 "src=selfplay|ecm".
std::string epd_line(const SetEntry& e);

}  // namespace stk::harness::fhgen
