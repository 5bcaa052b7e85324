// Match counts from engine A's point of view: game results (W/D/L) and game-pair results
// (pentanomial: one opening played twice with colours reversed, scored as A's pair total).
// Counts add exactly, so merging shards is adding counts, and mirror when the engines swap.
#pragma once

#include <array>
#include <cstdint>

namespace stk::harness::match {

// A's result of one game in half points (0 loss, 1 draw, 2 win).
enum class GameScore : int { Loss = 0, Draw = 1, Win = 2 };

inline GameScore mirrored(GameScore g) { return GameScore(2 - int(g)); }

struct WdlCounts {
  std::uint64_t wins = 0, draws = 0, losses = 0;

  std::uint64_t games() const { return wins + draws + losses; }
  void add(GameScore g) { ++(g == GameScore::Win ? wins : g == GameScore::Draw ? draws : losses); }
  WdlCounts& operator+=(const WdlCounts& o) {
    wins += o.wins, draws += o.draws, losses += o.losses;
    return *this;
  }
  // The same games seen from B: wins and losses trade places.
  WdlCounts mirrored() const { return {losses, draws, wins}; }
  bool operator==(const WdlCounts&) const = default;
};

// n[k] counts the pairs in which A scored k half points: LL, LD, DD or WL, DW, WW.
// (DD and WL both score one point and are one class, as in fishtest and OpenBench.)
struct PentanomialCounts {
  std::array<std::uint64_t, 5> n{};

  std::uint64_t pairs() const { return n[0] + n[1] + n[2] + n[3] + n[4]; }
  std::uint64_t games() const { return 2 * pairs(); }
  void add_pair(GameScore first, GameScore second) { ++n[std::size_t(int(first) + int(second))]; }
  PentanomialCounts& operator+=(const PentanomialCounts& o) {
    for (std::size_t k = 0; k < 5; ++k) n[k] += o.n[k];
    return *this;
  }
  // B's pair score is 4 minus A's: LL<->WW, LD<->DW, the middle class stays.
  PentanomialCounts mirrored() const { return {{n[4], n[3], n[2], n[1], n[0]}}; }
  bool operator==(const PentanomialCounts&) const = default;
};

// Both views of the same games; a match runner feeds one pair at a time.
struct MatchCounts {
  WdlCounts wdl;
  PentanomialCounts penta;

  void add_pair(GameScore first, GameScore second) {
    wdl.add(first);
    wdl.add(second);
    penta.add_pair(first, second);
  }
  MatchCounts& operator+=(const MatchCounts& o) {
    wdl += o.wdl;
    penta += o.penta;
    return *this;
  }
  MatchCounts mirrored() const { return {wdl.mirrored(), penta.mirrored()}; }
  bool operator==(const MatchCounts&) const = default;
};

inline WdlCounts operator+(WdlCounts a, const WdlCounts& b) { return a += b; }
inline PentanomialCounts operator+(PentanomialCounts a, const PentanomialCounts& b) {
  return a += b;
}
inline MatchCounts operator+(MatchCounts a, const MatchCounts& b) { return a += b; }

}  // namespace stk::harness::match
