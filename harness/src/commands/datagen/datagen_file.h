// The data a datagen run writes, and the journal that makes it resumable.
//
// Data file: one line per position, " | " between fields (docs/datagen.md):
//   <FEN, six fields> | <score, White's view, cp> | <result, White's view: 1.0 0.5 0.0> | <ply> | <quiet 0/1>
// The first three fields are the text format bullet and marlinflow convert; the last two are ours.
// Journal "<data>.journal" (JSON Lines): a header (kind "stk-datagen-journal", version, the run's
// definition, its shard), then one line per finished game, written after the game's records are on
// disk: {"game", "records", "bytes" (the data file's length after it), "result", "end",
// "termination" (match_results/termination.h; absent in journals written before it). Games are
// written whole and in the shard's order, so any concurrency writes the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/datagen/datagen_game.h"
#include "io/output_file.h"

namespace stk::harness::datagen {

inline constexpr const char* kJournalKind = "stk-datagen-journal";
inline constexpr int kJournalVersion = 1;

// The data file's lines of one game.
std::string game_text(const Game& game);

struct JournalGame {
  int game = 0;
  int records = 0;
  std::uint64_t bytes = 0;
  std::string result, end;
  match::Termination termination = match::Termination::Unrecorded;
};

struct Stored {
  std::vector<JournalGame> games;   // in the order written
  std::string dropped;              // "" or the torn last line that was dropped
  std::uint64_t journal_bytes = 0;  // the journal's whole lines
};

// Reads a journal; InputError "FILE:LINE: why" for a malformed line (a torn last line is dropped
// and said), "FILE: holds a different run (FIELD: stored vs now)" when the definition or shard
// differs from `definition`.
Stored read_journal(const std::string& path, const nlohmann::ordered_json& definition);

class DataWriter {
 public:
  // Resumes `data_path` from its journal (the data cut back to the last journaled game; a data file
  // shorter than its journal says is refused) or starts both files.
  DataWriter(std::string data_path, nlohmann::ordered_json definition, std::string* notice);
  const std::vector<JournalGame>& done() const { return stored_.games; }
  // Appends the game's records, then its journal line (each fdatasync'd); InputError naming the
  // file on any failure, with both files as they were before the game.
  void write(const Game& game);
  void close();
  const std::string& data_path() const { return data_path_; }
  std::string journal_path() const { return data_path_ + ".journal"; }

 private:
  void open();
  std::string data_path_;
  nlohmann::ordered_json definition_;
  Stored stored_;
  std::uint64_t data_bytes_ = 0;
  io::AppendFile data_, journal_;
};

// Reads the data file back (once, whatever its size) against its journal: every line five fields,
// a legal FEN, a result that is the game's, line counts per game as journaled.
struct ReadBack {
  std::string problem;  // "" when it holds, else the first problem
  long long quiet = 0;  // records flagged quiet (the journal does not count them)
};
ReadBack verify_data(const std::string& data_path, const std::vector<JournalGame>& games);

}  // namespace stk::harness::datagen
