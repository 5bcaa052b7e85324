#include "commands/datagen/datagen_file.h"

#include <sys/stat.h>

#include <cerrno>

#include <filesystem>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/input_file.h"
#include "io/interruption.h"
#include "position.h"

namespace stk::harness::datagen {

using Json = nlohmann::ordered_json;

std::string game_text(const Game& game) {
  std::string out;
  const char* result = white_result(game.result);
  for (const Record& r : game.records)
    out += fmt::format("{} | {} | {} | {} | {}\n", r.fen, r.score, result, r.ply, r.quiet ? 1 : 0);
  return out;
}

namespace {

Json parse_line(const std::string& text, const std::string& where) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw InputError(fmt::format("{}: not JSON (byte {}): {}", where, e.byte, e.what()));
  }
}

// The first field where two definitions differ, as "FIELD: stored vs now"; "" when equal.
std::string first_difference(const Json& stored, const Json& now) {
  for (auto it = now.begin(); it != now.end(); ++it)
    if (!stored.contains(it.key()) || stored[it.key()] != it.value())
      return fmt::format("{}: {} vs {}", it.key(),
                         stored.contains(it.key()) ? stored[it.key()].dump() : "missing",
                         it.value().dump());
  for (auto it = stored.begin(); it != stored.end(); ++it)
    if (!now.contains(it.key()))
      return fmt::format("{}: {} vs missing", it.key(), it.value().dump());
  return "";
}

// A journal number within [lo, hi]: JSON's integers are wider than the fields, and a value that
// does not fit would wrap silently (a game index of 2^32 read as 0).
std::int64_t bounded(const Json& v, const char* key, std::int64_t lo, std::int64_t hi,
                     const std::string& where) {
  if (!v.is_number_integer())
    throw InputError(where + ": field '" + key + "' is " + v.dump() + ", not an integer");
  const bool fits = v.is_number_unsigned()
                        ? v.get<std::uint64_t>() <= std::uint64_t(hi)
                        : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
  if (!fits)
    throw InputError(
        fmt::format("{}: field '{}' is {}, outside [{}, {}]", where, key, v.dump(), lo, hi));
  return v.get<std::int64_t>();
}

// `games`: the definition's game count (a game index is below it).
JournalGame game_from_json(const Json& j, const std::string& where, std::int64_t games) {
  auto need = [&](const char* key) -> const Json& {
    if (!j.is_object() || !j.contains(key))
      throw InputError(where + ": field '" + key + "' is missing");
    return j[key];
  };
  JournalGame g;
  try {
    g.game = int(bounded(need("game"), "game", 0, std::max<std::int64_t>(games - 1, 0), where));
    g.records = int(bounded(need("records"), "records", 0, 1000000, where));
    g.bytes = std::uint64_t(bounded(need("bytes"), "bytes", 0, std::int64_t(1) << 53, where));
    g.result = need("result").get<std::string>();
    g.end = need("end").get<std::string>();
    if (j.contains("termination")) {
      const std::string name = j["termination"].get<std::string>();
      const auto t = match::parse_termination(name);
      if (!t)
        throw InputError(where + ": field 'termination' is \"" + name + "\", not a termination");
      g.termination = *t;
    }
  } catch (const Json::type_error& e) {
    throw InputError(where + ": a field has the wrong type: " + e.what());
  }
  if (g.result != "1-0" && g.result != "0-1" && g.result != "1/2-1/2")
    throw InputError(where + ": field 'result' is \"" + g.result + "\", not 1-0, 0-1 or 1/2-1/2");
  if (const std::string why = match::result_problem(g.termination, g.result); !why.empty())
    throw InputError(where + ": result " + g.result + " with termination " +
                     match::to_string(g.termination) + ": " + why);
  return g;
}

}  // namespace

Stored read_journal(const std::string& path, const Json& definition) {
  const std::string text = io::read_input_file(path);
  Stored out;
  const std::size_t header_end = text.find('\n');
  if (header_end == std::string::npos)
    throw InputError(path + ":1: the journal header line is incomplete");
  const Json h = parse_line(text.substr(0, header_end), path + ":1");
  // Compared as JSON, not through value(): a kind that is no string would throw a bare type
  // error, and a version 1.0 would pass as 1 (a result file's version is the integer).
  if (!h.is_object() || !h.contains("kind") || h["kind"] != kJournalKind)
    throw InputError(path + ":1: field 'kind' must be \"" + std::string(kJournalKind) +
                     "\" (not a datagen journal)");
  if (!h.contains("version") || !h["version"].is_number_unsigned() ||
      h["version"] != kJournalVersion)
    throw InputError(fmt::format("{}:1: field 'version' is not {}", path, kJournalVersion));
  if (!h.contains("definition")) throw InputError(path + ":1: field 'definition' is missing");
  if (auto diff = first_difference(h["definition"], definition); !diff.empty())
    throw InputError(path + ": holds a different run, cannot resume (stored vs now: " + diff + ")");
  out.journal_bytes = header_end + 1;
  std::uint64_t last_bytes = 0;
  for (std::size_t begin = header_end + 1, line = 2; begin < text.size(); ++line) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      out.dropped = fmt::format(
          "{}: dropped a torn last line ({} bytes at byte {}, line {}): a game whose recording was "
          "cut short; it is played again",
          path, text.size() - begin, begin, line);
      break;
    }
    const std::string where = fmt::format("{}:{}", path, line);
    JournalGame g = game_from_json(parse_line(text.substr(begin, end - begin), where), where,
                                   definition.value("games", std::int64_t(1) << 31));
    if (g.bytes < last_bytes)
      throw InputError(fmt::format("{}: field 'bytes' {} is below the game before ({})", where,
                                   g.bytes, last_bytes));
    for (const JournalGame& e : out.games)
      if (e.game == g.game)
        throw InputError(fmt::format("{}: game {} is recorded twice", where, g.game));
    last_bytes = g.bytes;
    out.games.push_back(std::move(g));
    begin = end + 1;
    out.journal_bytes = begin;
  }
  return out;
}

DataWriter::DataWriter(std::string data_path, Json definition, std::string* notice)
    : data_path_(std::move(data_path)), definition_(std::move(definition)) {
  namespace fs = std::filesystem;
  io::require_own_regular_target(data_path_);
  io::require_own_regular_target(journal_path());
  const bool resume = fs::exists(journal_path()) && fs::file_size(journal_path()) > 0;
  if (!resume && fs::exists(data_path_) && fs::file_size(data_path_) > 0)
    throw InputError(data_path_ + ": exists without its journal " + journal_path() +
                     ": not overwritten (remove it, or give another --out)");
  if (resume) {
    stored_ = read_journal(journal_path(), definition_);
    if (notice) *notice = stored_.dropped;
    data_bytes_ = stored_.games.empty() ? 0 : stored_.games.back().bytes;
    const std::uint64_t have = fs::exists(data_path_) ? fs::file_size(data_path_) : 0;
    if (have < data_bytes_)
      throw InputError(fmt::format(
          "{}: {} bytes, but its journal {} records {}: the data file was cut or replaced",
          data_path_, have, journal_path(), data_bytes_));
    return;
  }
}

// Opened at the first game: a run refused or stopped before it leaves no file behind. The journal
// first (its header written when new), then the data cut back to the last journaled game (a game
// written after its last journal line goes).
void DataWriter::open() {
  const bool fresh = stored_.journal_bytes == 0;
  journal_.open(journal_path(), stored_.journal_bytes);
  if (fresh) {
    const Json header = {{"kind", kJournalKind},
                         {"version", kJournalVersion},
                         {"definition", definition_}};
    const std::string line = header.dump() + "\n";
    journal_.append(line);
    stored_.journal_bytes = line.size();
  }
  data_.open(data_path_, data_bytes_);
}

void DataWriter::write(const Game& game) {
  // One write section for the game's data and journal lines, and at the first game for the files'
  // creation too: a run stopped between a file's creation and its first bytes left a 0-byte
  // journal (fault matrix datagen/run/sigterm, seen under load).
  const io::WriteSection writing;
  if (!data_.is_open()) open();
  const std::string text = game_text(game);
  data_.append(text);
  data_bytes_ += text.size();
  JournalGame g{game.index, int(game.records.size()), data_bytes_, game.result,
                game.end,   game.termination};
  const Json line = {{"game", g.game},   {"records", g.records},
                     {"bytes", g.bytes}, {"result", g.result},
                     {"end", g.end},     {"termination", match::to_string(g.termination)}};
  journal_.append(line.dump() + "\n");
  stored_.games.push_back(std::move(g));
}

void DataWriter::close() {
  if (data_.is_open()) data_.close();
  if (journal_.is_open()) journal_.close();
}

ReadBack verify_data(const std::string& data_path, const std::vector<JournalGame>& games) {
  // A shard given no games (more shards than games) writes nothing: nothing to read back.
  if (struct stat st{}; games.empty() && ::lstat(data_path.c_str(), &st) != 0 && errno == ENOENT)
    return {};
  const std::string text = io::read_input_file(data_path, std::uint64_t(1) << 40);
  ReadBack out;
  auto fail = [&](std::string why) {
    out.problem = std::move(why);
    return out;
  };
  std::size_t begin = 0;
  int line = 0;
  for (const JournalGame& g : games) {
    for (int k = 0; k < g.records; ++k) {
      ++line;
      const std::size_t end = text.find('\n', begin);
      if (end == std::string::npos)
        return fail(fmt::format("{}: ends at line {}, inside game {} (journal: {} records)",
                                data_path, line, g.game, g.records));
      const std::string l = text.substr(begin, end - begin);
      begin = end + 1;
      std::vector<std::string> f;
      for (std::size_t a = 0;;) {
        const std::size_t b = l.find(" | ", a);
        f.push_back(l.substr(a, b == std::string::npos ? std::string::npos : b - a));
        if (b == std::string::npos) break;
        a = b + 3;
      }
      const std::string at = fmt::format("{}:{}", data_path, line);
      if (f.size() != 5) return fail(fmt::format("{}: {} fields, not 5", at, f.size()));
      Position pos;
      if (auto why = pos.set(f[0])) return fail(at + ": bad FEN: " + *why);
      if (f[2] != white_result(g.result))
        return fail(fmt::format("{}: result {} but game {} ended {}", at, f[2], g.game, g.result));
      if (f[4] != "0" && f[4] != "1") return fail(at + ": quiet flag is not 0 or 1");
      out.quiet += f[4] == "1";
    }
    if (begin != g.bytes)
      return fail(fmt::format("{}: game {} ends at byte {}, its journal says {}", data_path, g.game,
                              begin, g.bytes));
  }
  if (begin != text.size())
    return fail(
        fmt::format("{}: {} bytes after the last journaled game", data_path, text.size() - begin));
  return out;
}

}  // namespace stk::harness::datagen
