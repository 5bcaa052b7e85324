// One match (or one shard of it) as the match runner records it: what was played (engines, options,
// time control, openings, seed, shard, the SPRT and gate fixed before the first game) and every
// completed game pair. The pairs are the source of truth; counts are kept in step as pairs are added.
// File format: docs/match-results.md (match/match_result_file.h reads and writes it).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "stats/pentanomial.h"
#include "stats/sprt.h"
#include "match_results/termination.h"

namespace stk::harness::match {

enum class Color { White, Black };

struct GameRecord {
  Color a_color = Color::White;  // the colour engine A played
  std::string result;            // PGN result from White's view: "1-0", "0-1" or "1/2-1/2"
  std::string reason;  // how it ended: "checkmate", "threefold repetition", "adjudication: ..."
  int plies = 0;       // moves the engines played (the opening's excluded)
  Termination termination = Termination::Unrecorded;

  GameScore score_for_a() const;  // throws std::invalid_argument on a result other than the three
  bool operator==(const GameRecord&) const = default;
};

// One opening played twice, colours reversed.
struct PairRecord {
  std::uint64_t opening = 0;  // index of the opening pair in the run's (seeded) order
  std::array<GameRecord, 2> games;
  std::string position{};  // the opening's position as FEN fields 1-4 ("" when unrecorded)

  int score() const { return int(games[0].score_for_a()) + int(games[1].score_for_a()); }  // 0..4
  bool operator==(const PairRecord&) const = default;
};

struct EngineSpec {
  std::string name;
  std::string command;
  std::map<std::string, std::string> options;  // UCI options as set
  bool operator==(const EngineSpec&) const = default;
};

enum class GateMode { Gain, NonRegression, AAControl };
const char* to_string(GateMode m);               // "gain", "non-regression", "aa-control"
GateMode parse_gate_mode(const std::string& s);  // std::invalid_argument

// Pass conditions: gain: the SPRT accepts H1. non-regression: the SPRT (bounds like [-3, 1]) accepts
// H1, or without an SPRT the lower end of the 95% Elo interval is above min_elo_lower95; with both,
// the SPRT's verdict when it reached a bound, else (undecided at the pair budget) the bar.
// aa-control (identical engines): the 95% Elo interval contains 0 and the SPRT did not accept H1.
struct GateSpec {
  GateMode mode = GateMode::Gain;
  std::optional<double> min_elo_lower95;
  bool operator==(const GateSpec&) const = default;
};

// Everything that must be identical for two results to be parts of one match.
struct MatchDefinition {
  std::string config;                 // the report name: reports/match/<config>.json
  std::array<EngineSpec, 2> engines;  // [0] = A (the candidate; counts are A's), [1] = B (baseline)
  std::string time_control;           // e.g. "10+0.1", "nodes=20000"
  std::map<std::string, std::string>
      settings;  // anything else both sides share (hash, adjudication...)
  std::string openings_file;
  std::uint64_t openings_seed = 0;
  std::uint64_t pairs_planned =
      0;  // opening pairs 0..pairs_planned-1 across all shards (an SPRT may stop sooner)
  int shard_count = 1;  // pair i belongs to shard (i % shard_count) + 1
  std::optional<SprtParams> sprt;
  GateSpec gate;

  // "" when usable, else what is wrong.
  std::string problem() const;
  bool operator==(const MatchDefinition&) const = default;
};

// "" when equal, else the first differing field and both values, e.g.
// "engines[0].options.Hash: '16' vs '32'".
std::string first_difference(const MatchDefinition& a, const MatchDefinition& b);

class MatchResult {
 public:
  // Throws std::invalid_argument if the definition is unusable or a shard index is out of range.
  MatchResult(MatchDefinition def, std::set<int> shards);

  const MatchDefinition& definition() const { return def_; }
  const std::set<int>& shards() const { return shards_; }
  const std::vector<PairRecord>& pairs() const { return pairs_; }
  const MatchCounts& counts() const { return counts_; }

  // Whether opening pair i belongs to this result's shards.
  bool planned(std::uint64_t opening) const;
  bool has(std::uint64_t opening) const { return done_.count(opening) > 0; }
  // Planned pairs not yet played, in ascending order: what a resumed runner plays next.
  std::vector<std::uint64_t> remaining() const;
  bool complete() const;

  // Records a finished pair. Throws std::invalid_argument (nothing changed) if the opening is not
  // planned here or already recorded, if the two games are not colour-reversed, a result is bad or
  // cannot end a game by its termination (a stalemate won, a crash drawn).
  void add_pair(const PairRecord& pair);

  // The SPRT on the pentanomial counts; nullopt without SPRT parameters.
  std::optional<SprtResult> sprt_result() const;

 private:
  MatchDefinition def_;
  std::set<int> shards_;
  std::vector<PairRecord> pairs_;
  std::set<std::uint64_t> done_;
  MatchCounts counts_;
};

}  // namespace stk::harness::match
