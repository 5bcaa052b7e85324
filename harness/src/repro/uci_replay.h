// Replays a list of UCI commands against an engine and says how the engine failed, if it did:
// the oracle of a reproducer (docs/reproducers.md). Each command is sent as written; the replay
// waits for the answer a command asks for (uciok, readyok, a bestmove of a search with a limit)
// before the next, and judges every bestmove against the position the harness tracked itself.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace stk::harness::repro {

// How an engine failed. Two failures are the same when kind and detail are equal.
struct Symptom {
  std::string kind;    // "" (none), "crash", "disconnect", "illegal-move", "no-answer"
  std::string detail;  // crash: how it ended; illegal-move: the move; no-answer: what was awaited
  bool operator==(const Symptom&) const = default;
  bool failed() const { return !kind.empty(); }
  std::string describe() const;  // "crash (killed by signal 6 (Aborted))", "none"
};

// How long an engine that closed its output has to end before it counts as disconnected (still
// running) rather than crashed: the same for a game and its replay, so both name it alike.
inline constexpr std::chrono::milliseconds kExitGrace{2000};

struct TranscriptLine {
  double t_ms = 0;  // since the engine started
  char direction;   // '>' sent, '<' read, '#' a note
  std::string text;
};

struct ReplayLimits {
  // The longest wait for an answer beyond the command's own time limit (a go's movetime or
  // clock); a search without a limit that is answered by stop waits this long after the stop.
  std::chrono::milliseconds answer{5000};
  // After the last command, how long the engine has to show a failure (a crash after a go that
  // waits for nothing).
  std::chrono::milliseconds settle{300};
};

struct Replay {
  Symptom symptom;
  std::vector<TranscriptLine> transcript;
  std::size_t sent = 0;  // commands sent before the failure (all of them when none)
  double ms = 0;
};

// Runs `engine` (a path or "CMD ARGS", docs/uci.md), stderr to `stderr_path` ("" discards it),
// sends `commands` and stops at the first failure. Never throws for what the engine does; throws
// std::runtime_error when the engine cannot be started at all.
Replay replay_commands(const std::string& engine, const std::vector<std::string>& commands,
                       const ReplayLimits& limits = {}, const std::string& stderr_path = "");

// The command's position as a FEN ("position startpos moves e2e4" -> "position fen ..."), or the
// command unchanged when it is not a position command the harness can read.
std::string position_as_fen(const std::string& command);

}  // namespace stk::harness::repro
