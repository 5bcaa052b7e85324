// PGN of a played game (score/depth comments on engine moves, the reason as the last comment, the
// Termination tag), and the repair of a PGN file on resume: games of pairs the state file does not
// hold (the pair in progress when a run was killed) are cut from the end, so that no game appears
// twice. The PGN is a collection users keep: games are only ever appended, and a repair cuts only
// this match's unrecorded games at the end of the file, never anything before them.
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

// Resuming a journal: cuts from the end of `path` the games of match `event` of one pair (one
// Round opening, at most two games) that `recorded` does not hold, stopping at the first game that
// is recorded, another event's or another pair's. Nothing without the file or for a new run; a
// path that is not a regular file (a device, a FIFO) is refused by name (InputError), never read.
void drop_unrecorded_tail(const std::string& path, const std::string& event,
                          const std::set<std::uint64_t>& recorded, bool resuming);

}  // namespace stk::harness::selfplay
