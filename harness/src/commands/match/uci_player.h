// One engine of a match behind its pipes: the handshake (uci, options checked against what the
// engine advertises, isready, each within the timeout), a new game, one move under a deadline.
// A move that does not come (crash, deadline) is reported as a fault, never thrown: the game
// runner scores it and restarts the engine.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "commands/match/match_settings.h"
#include "commands/match/stderr_log.h"
#include "repro/uci_replay.h"
#include "uci_client/uci_process.h"

namespace stk::harness::selfplay {

// An engine that cannot be brought up (no uciok or readyok in time, an unknown option, a missing
// binary): the match cannot be played, exit 2.
struct EngineStartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Thought {
  std::string move;             // as written after "bestmove"
  std::optional<int> score_cp;  // the last info score, mover's view; mate as +-(100000 - moves)
  std::optional<int> mate;      // signed moves to mate when the score was a mate score
  int depth = 0;
  std::optional<std::uint64_t> nodes;  // of the last scored info line that has them
  long elapsed_ms = 0;                 // from "go" written to "bestmove" read
};

// What a search's info lines (those that can hold a score, in the order read) leave for the
// PGN comment: the score of the last line with a score, the depth and the nodes of the last
// scored lines that have them; a line with no parsable score counts for nothing. No move, no time.
Thought thought_from(const std::vector<std::string>& scored_lines);

struct Fault {
  enum class Kind { Crash, Timeout, Disconnect } kind = Kind::Crash;
  std::string text;        // "exit status 1", "no bestmove within 5000 ms"
  repro::Symptom symptom;  // what a replay must see again (crash: how it ended; no-answer)
};

// What an engine was sent since it started (the handshake, then the commands of the current game)
// and what it answered in the current game: the material of a failed game's reproducer.
struct EngineRecord {
  std::vector<std::string> commands;
  std::vector<repro::TranscriptLine> transcript;  // at most kMaxTranscript lines a game
  static constexpr std::size_t kMaxTranscript = 20000;
};

class UciPlayer {
 public:
  // `label` names the engine in every message: "A (stk-new)".
  UciPlayer(EngineConfig config, std::string label, std::chrono::milliseconds timeout);
  ~UciPlayer();

  // Starts the process and performs the handshake; EngineStartError naming the engine on failure.
  void start();
  // Kills the process and starts it again (a fault left it in an unknown state).
  void restart();
  // ucinewgame + isready; a fault if the engine does not answer.
  std::optional<Fault> new_game();
  // "position ..." then "go ...", the answer read until `deadline`.
  std::variant<Thought, Fault> think(const std::string& position, const std::string& go,
                                     SteadyClock::time_point deadline);

  const std::string& label() const { return label_; }
  const EngineConfig& config() const { return config_; }
  const std::string& id_name() const { return id_name_; }
  const std::set<std::string>& advertised() const { return advertised_; }
  const EngineRecord& record() const { return record_; }
  // What the engine wrote on stderr since the current game's ucinewgame (its last 64 KB).
  std::string game_stderr() const { return stderr_.since_mark(); }

 private:
  Fault fault_from_silence(const std::string& waiting_for);
  bool send(const std::string& line, std::chrono::milliseconds timeout);
  void note(char direction, const std::string& text, SteadyClock::time_point at);
  EngineConfig config_;
  std::string label_, id_name_;
  std::chrono::milliseconds timeout_;
  std::set<std::string> advertised_;
  std::unique_ptr<UciProcess> process_;
  std::vector<std::string> scored_lines_;  // think(): this move's info lines that mention a score
  EngineRecord record_;
  std::size_t handshake_commands_ = 0;  // record_.commands kept from one game to the next
  SteadyClock::time_point started_;
  StderrLog stderr_;  // every process this player starts appends to it
};

}  // namespace stk::harness::selfplay
