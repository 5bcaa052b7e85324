#include "match_results/match_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/input_file.h"
#include "cli/cli.h"
#include "io/output_file.h"
#include "match_results/match_result_file.h"

namespace stk::harness::match {

namespace {

using json = nlohmann::json;

std::string header_line(const MatchDefinition& def, int shard_index) {
  nlohmann::ordered_json h;
  h["kind"] = kMatchJournalKind;
  h["version"] = kMatchJournalVersion;
  h["definition"] = definition_to_json(def);
  h["shards"] = {shard_index};
  return h.dump() + "\n";
}

json parse_line(const std::string& line, const std::string& where) {
  try {
    return json::parse(line);
  } catch (const json::parse_error& e) {
    throw InputError(
        fmt::format("{}: not valid JSON at byte {} of the line: {}", where, e.byte, e.what()));
  }
}

}  // namespace

bool is_match_journal(const std::string& path) {
  if (!io::input_file_error(path).empty()) return false;  // /dev/zero has no first line
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first)) return false;
  try {
    const json h = json::parse(first);
    return h.is_object() && h.contains("kind") && h["kind"] == kMatchJournalKind;
  } catch (...) {
    return false;
  }
}

JournalRead read_match_journal(const std::string& path) {
  const std::string text = read_result_text(path);
  const std::size_t header_end = text.find('\n');
  if (header_end == std::string::npos)
    throw InputError(path + ":1: the journal header line is incomplete");
  const json h = parse_line(text.substr(0, header_end), path + ":1");
  if (!h.is_object() || !h.contains("kind") || h["kind"] != kMatchJournalKind)
    throw InputError(path + ":1: field 'kind' must be \"" + kMatchJournalKind +
                     "\" (not a match journal)");
  // An integer, as a result file's version is (JSON compares 1.0 equal to 1).
  if (!h.contains("version") || !h["version"].is_number_unsigned() ||
      h["version"] != kMatchJournalVersion)
    throw InputError(
        fmt::format("{}:1: field 'version' is not {} (a file from another harness version)", path,
                    kMatchJournalVersion));
  if (!h.contains("definition")) throw InputError(path + ":1: field 'definition' is missing");
  const MatchDefinition def = definition_from_json(h["definition"], path + ":1");
  std::set<int> shards;
  const json& s = h.contains("shards") ? h["shards"] : json();
  if (!s.is_array() || s.size() != 1 || !s[0].is_number_unsigned() ||
      s[0].get<std::uint64_t>() < 1 || s[0].get<std::uint64_t>() > std::uint64_t(def.shard_count))
    throw InputError(fmt::format("{}:1: field 'shards' must hold one shard index in 1..{}", path,
                                 def.shard_count));
  JournalRead out{MatchResult(def, {s[0].get<int>()}), "", header_end + 1};
  std::size_t begin = header_end + 1;
  for (int line_no = 2; begin < text.size(); ++line_no) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {  // a write cut short by a kill: the pair was never recorded
      out.dropped = fmt::format(
          "{}: dropped a torn last line ({} bytes at byte {}, line {}): a pair whose recording "
          "was cut short by a kill; it is played again",
          path, text.size() - begin, begin, line_no);
      break;
    }
    const std::string where = fmt::format("{}:{}", path, line_no);
    const json line = parse_line(text.substr(begin, end - begin), where);
    const PairRecord pair = pair_from_json(line, where, "pair");
    try {
      out.result.add_pair(pair);
    } catch (const std::invalid_argument& e) {
      throw InputError(where + ": pair is refused: " + e.what());
    }
    check_pair_score(line, pair, where, "pair");
    begin = end + 1;
    out.good_bytes = begin;
  }
  return out;
}

MatchJournal::MatchJournal(const std::string& path, const MatchDefinition& def, int shard_index,
                           std::string* notice)
    : path_(path), result_([&] {
        try {
          return MatchResult(def, {shard_index});
        } catch (const std::invalid_argument& e) {
          throw InputError(std::string("match definition: ") + e.what());
        }
      }()) {
  namespace fs = std::filesystem;
  if (!fs::exists(path) || fs::file_size(path) == 0) return;
  JournalRead stored = read_match_journal(path);
  if (auto diff = first_difference(stored.result.definition(), def); !diff.empty())
    throw InputError(path + ": holds a different match, cannot resume (stored vs now: " + diff +
                     ")");
  if (stored.result.shards() != std::set<int>{shard_index})
    throw InputError(fmt::format("{}: holds shard(s) {} of {}, not shard {}", path,
                                 fmt::join(stored.result.shards(), ","), def.shard_count,
                                 shard_index));
  if (notice) *notice = stored.dropped;
  resume_bytes_ = stored.good_bytes;
  result_ = std::move(stored.result);
}

// Opened at the first pair: a run refused before its first game leaves no file behind. The torn
// tail goes, so that the next line starts clean; then every line lands at the end, fdatasync'd.
void MatchJournal::open_for_append() {
  file_.open(path_, resume_bytes_.value_or(0));
  if (!resume_bytes_) append(header_line(result_.definition(), *result_.shards().begin()));
}

MatchJournal::~MatchJournal() = default;

void MatchJournal::append(const std::string& line) { file_.append(line); }

void MatchJournal::record(const PairRecord& pair) {
  result_.add_pair(pair);
  open();
  append(pair_to_json(pair).dump() + "\n");
}

}  // namespace stk::harness::match
