// A reproducer bundle (docs/reproducers.md): the folder <repro dir>/<id>/ a failure leaves, with
// everything needed to see it again: bundle.json (the engine, its binary's and net's SHA-256, the
// revision, the side that failed, the symptom, the commands and the minimized commands, the
// minimizer's trials, the replay command), transcript.txt (both directions, timestamped),
// stderr.txt, commands.uci and minimized.uci (one command a line, for piping into the engine).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "repro/minimize.h"
#include "repro/uci_replay.h"

namespace stk::harness::repro {

struct Failure {
  std::string id;      // the folder name: a file-name-safe word (cli/file_names.h)
  std::string source;  // the run that saw it: "match", "uci-check"
  std::string engine;  // the engine command, as the run started it
  std::string side;    // which engine failed, in the run's words ("B (stk-new) as Black")
  std::string what;    // the run's own message
  Symptom symptom;     // what a replay must see again
  std::vector<std::string> commands;       // every command the engine was sent, in order
  std::vector<TranscriptLine> transcript;  // both directions, as recorded by the run
  std::string stderr_text;                 // what the engine wrote on stderr, when kept
  // A failure no replay of commands can judge (symptom kind "scenario"): the stk-harness command
  // line that runs its check again (without --out-dir).
  std::vector<std::string> rerun;
};

// Writes the bundle (every file through the checked writer); returns its folder. `minimized`
// comes from minimize_commands on failure.commands, or is empty when it was not run.
std::string write_bundle(const std::string& repro_dir, const Failure& failure,
                         const Minimized* minimized);

// The SHA-256 of the program an engine command starts (its first word, or the first after
// `env NAME=VALUE ...`, looked up in PATH), or "" when it cannot be read.
std::string engine_sha256(const std::string& engine);

// The words of an engine command other than its program (its `env NAME=VALUE` words and its
// arguments), in order; empty when the command cannot be split.
std::vector<std::string> engine_arguments(const std::string& engine);

// Reads <bundle>/bundle.json (the engine, the symptom, the rerun command line) and both command
// lists from commands.uci and minimized.uci (their exact bytes). Throws InputError naming the
// file (and the byte offset of a JSON syntax error) when it is not a bundle.
struct LoadedBundle {
  std::string dir, id, engine;
  std::string engine_sha256;  // of its engine's program when written; "" when not recorded
  Symptom symptom;
  std::vector<std::string> commands, minimized, rerun;
};
LoadedBundle load_bundle(const std::string& dir);

}  // namespace stk::harness::repro
