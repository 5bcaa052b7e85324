// The match result file (JSON, kind "stk-match-result", version 1; schema in
// docs/match-results.md): the runner's state file, rewritten atomically after each pair so
// that a killed run resumes without losing or double-counting a pair, and the unit that
// `stk-harness merge` adds up.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "match_results/match_result.h"

namespace stk::harness::match {

inline constexpr const char* kMatchResultKind = "stk-match-result";
inline constexpr int kMatchResultVersion = 1;

// The whole file: definition, shards, counts (checked against the pairs on reading), a derived
// summary (statistics and SPRT, for people; ignored on reading) and one line per pair.
std::string to_json_text(const MatchResult& r);
// The same content as one JSON object (keys in file order), for the run report's summary.
nlohmann::ordered_json to_json(const MatchResult& r);

// Parses and validates; throws InputError naming `path` and the field or pair at fault: malformed
// JSON (with the byte offset), wrong kind or version, a missing or mistyped field, a pair outside the
// file's shards or twice, stored counts that differ from the pairs.
MatchResult parse_match_result(const std::string& text, const std::string& path);
// A result file or a runner's journal (match/match_journal.h; a torn last line is dropped, said on stderr).
MatchResult read_match_result(const std::string& path);

// Whether `path` holds a match result or journal (by its "kind"), without validating the rest.
bool is_match_result_file(const std::string& path);
// Whether `path` is, or was meant to be, a match result or journal: is_match_result_file, or its
// first 64 KiB name the kind ("stk-match-result", "stk-match-journal") though the file does not
// parse (cut short, damaged). `merge` hands such files to match-merge, whose error names them.
bool names_match_kind(const std::string& path);

// Writes `path` atomically: a temporary file beside it, flushed to disk, then renamed over it. A
// reader (or a resumed runner) sees the old file or the new one, never a torn one.
void save_match_result(const std::string& path, const MatchResult& r);

// The runner's entry point: the stored result if `path` exists (its definition and shard must equal
// these, else InputError naming the first differing field), else a new empty result.
MatchResult resume_or_start(const std::string& path, const MatchDefinition& def, int shard_index);

// The pieces the journal (match/match_journal.h) shares with the result file: a definition and a pair
// as JSON, and their parsers (InputError naming `file` and the field's path `where`).
nlohmann::ordered_json definition_to_json(const MatchDefinition& d);
nlohmann::ordered_json pair_to_json(const PairRecord& p);
MatchDefinition definition_from_json(const nlohmann::json& d, const std::string& file);
// A pair's stored "score" must be its games' score (a result file's pair, a journal line), else
// InputError naming the file and the field.
void check_pair_score(const nlohmann::json& p, const PairRecord& pair, const std::string& file,
                      const std::string& where);
PairRecord pair_from_json(const nlohmann::json& p, const std::string& file,
                          const std::string& where);
std::string read_result_text(const std::string& path);  // the whole file; InputError naming it

}  // namespace stk::harness::match
