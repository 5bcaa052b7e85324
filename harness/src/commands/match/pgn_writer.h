// PGN of a played game (score/depth comments on engine moves, the reason as the last comment, the
// Termination tag), and the repair of a PGN file on resume: games of pairs the state file does not
// hold (the pair in progress when a run was killed) are dropped, so that no game appears twice.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "commands/match/game_play.h"

namespace stk::harness::selfplay {

struct PgnHeader {
  std::string event, white, black, time_control;
  std::uint64_t opening = 0;  // the pair's index: Round "<opening>.<game 1|2>"
  int game = 1;
  std::string opening_source;
};

std::string to_pgn(const PgnHeader& h, const Opening& opening, const PlayedGame& g);

// Rewrites `path` keeping only games whose Round's opening is in `keep` (no-op without the file).
void keep_recorded_games(const std::string& path, const std::set<std::uint64_t>& keep);

}  // namespace stk::harness::selfplay
