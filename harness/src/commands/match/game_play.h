// One game between two UCI players from an opening, judged by the harness: checkmate, stalemate,
// repetition, fifty moves and insufficient material come from the engine library (never from an
// engine); a crash, a missed deadline or an illegal move loses the game for the engine at fault,
// which is then restarted; adjudication by the engines' scores ends it early.
#pragma once

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "commands/match/match_settings.h"
#include "match_results/termination.h"
#include "positions/openings.h"
#include "commands/match/uci_player.h"

namespace stk::harness::selfplay {

struct GameSettings {
  std::array<TimeControl, 2> budget;  // per player, index as `players` (white, black)
  Adjudication adjudication;
  std::chrono::milliseconds move_timeout{10000};  // nodes/depth: the deadline of one move
  int time_margin_ms = 100;                       // clock: overrun tolerated before a time forfeit
};

struct MoveNote {
  std::string san;
  std::optional<std::string> comment;  // engine moves: "+0.35/12" (and " 0.123s" under a clock)
};

// The engine that lost a game by a fault, as it was when it failed (before its restart).
struct FailedEngine {
  int side = 0;  // 0 White, 1 Black
  std::string label, engine, reason;
  repro::Symptom symptom;
  EngineRecord record;
  std::string stderr_text;  // what the engine wrote on stderr in this game
};

struct PlayedGame {
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string reason;  // "checkmate", "time forfeit: A (stk) ...", "adjudication: ..."
  std::string
      termination;  // the PGN Termination tag: normal, adjudication, time forfeit, rules infraction, abandoned
  match::Termination ended = match::Termination::Unrecorded;  // how, as the result file records it
  int engine_plies = 0;                // moves the engines played (the opening's excluded)
  std::vector<MoveNote> moves;         // the opening's moves, then the engines'
  std::optional<FailedEngine> failed;  // a crash, a missed deadline or an illegal move
};

// players[0] plays White (from the opening's side to move on: whoever is to move).
PlayedGame play_game(const std::array<UciPlayer*, 2>& players, const Opening& opening,
                     const GameSettings& settings);

}  // namespace stk::harness::selfplay
