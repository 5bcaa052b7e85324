// The runner's resumable state as an append-only journal (JSON Lines): a header line (kind
// "stk-match-journal", version 1, the definition and the shard), then one line per finished pair,
// each written with one write(2) and flushed to disk (fdatasync) before the next pair is recorded.
// Recording a pair costs one short line, not a rewrite of every pair so far.
//
// A kill can leave only the last line torn (no final newline): reading drops it with a message and
// truncates the file there, so the next pair starts on a clean line. Anything else that does not
// parse, or a pair recorded twice, is refused naming the file and line: nothing counts twice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "io/output_file.h"
#include "match_results/match_result.h"

namespace stk::harness::match {

inline constexpr const char* kMatchJournalKind = "stk-match-journal";
inline constexpr int kMatchJournalVersion = 1;

struct JournalRead {
  MatchResult result;
  std::string
      dropped;  // "" or what was dropped: "FILE: dropped a torn last line (N bytes at byte B) ..."
  std::uint64_t good_bytes = 0;  // the file up to and including the last complete line
};

// Whether `path` starts with a journal header line (by its "kind"), without validating the rest.
bool is_match_journal(const std::string& path);

// Reads a journal; throws InputError "FILE:LINE: ..." on a malformed line (other than a torn last one),
// a pair refused by MatchResult::add_pair (recorded twice, outside the shard...), a bad header.
JournalRead read_match_journal(const std::string& path);

class MatchJournal {
 public:
  // Resumes `path` (its definition and shard must equal these, else InputError naming the first
  // differing field; a torn last line is dropped, and cut from the file at the first record) or
  // starts a new one, written from the first record on. `notice` receives what was dropped.
  MatchJournal(const std::string& path, const MatchDefinition& def, int shard_index,
               std::string* notice = nullptr);
  ~MatchJournal();
  MatchJournal(const MatchJournal&) = delete;
  MatchJournal& operator=(const MatchJournal&) = delete;

  const MatchResult& result() const { return result_; }
  const std::string& path() const { return path_; }
  // Adds the pair to the result (std::invalid_argument, nothing written, if refused), then appends
  // its line and flushes it to disk; InputError naming the file if the write fails.
  void record(const PairRecord& pair);
  // Opens the journal for appending (its header written when new); record() does it too. The
  // runner opens it before the first pair's PGN games are written, so that a run stopped between
  // the two leaves a journal whose resume cuts those games (selfplay::drop_unrecorded_tail).
  void open() {
    if (!file_.is_open()) open_for_append();
  }
  // Whether this run resumes a journal that was there before it.
  bool resumed() const { return resume_bytes_.has_value(); }
  // Closes the journal, checked (InputError naming it); the destructor closes unchecked.
  void close() { file_.close(); }

 private:
  void open_for_append();
  void append(const std::string& line);
  std::string path_;
  MatchResult result_;
  std::optional<std::uint64_t> resume_bytes_;  // resuming: the stored file's whole lines
  io::AppendFile file_;
};

}  // namespace stk::harness::match
