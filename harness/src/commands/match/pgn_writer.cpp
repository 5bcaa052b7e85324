#include "commands/match/pgn_writer.h"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/input_file.h"
#include "io/output_file.h"

namespace stk::harness::selfplay {

namespace {

std::string tag(const std::string& name, const std::string& value) {
  std::string v;
  for (char c : value) {
    if (c == '"' || c == '\\') v += '\\';
    v += c;
  }
  return "[" + name + " \"" + v + "\"]\n";
}

// Comments must not close early: '}' in a reason becomes ')'.
std::string comment(const std::string& text) {
  std::string t = text;
  for (char& c : t)
    if (c == '}') c = ')';
  return "{" + t + "}";
}

}  // namespace

std::string to_pgn(const PgnHeader& h, const Opening& opening, const PlayedGame& g) {
  std::string out;
  out += tag("Event", h.event);
  out += tag("Site", "stk-harness match");
  out += tag("Date", "????.??.??");  // no wall-clock facts: a replay gives the same bytes
  out += tag("Round", fmt::format("{}.{}", h.opening, h.game));
  out += tag("White", h.white);
  out += tag("Black", h.black);
  out += tag("Result", g.result);
  if (opening.fen != Position::kStartFen) out += tag("SetUp", "1") + tag("FEN", opening.fen);
  out += tag("TimeControl", h.time_control);
  out += tag("Termination", g.termination);
  out += tag("Opening", h.opening_source);
  out += tag("PlyCount", std::to_string(g.moves.size()));
  out += "\n";
  Position pos;
  pos.set(opening.fen);
  int ply = pos.game_ply();
  std::string line;
  auto word = [&](const std::string& w) {
    if (!line.empty() && line.size() + 1 + w.size() > 79) out += line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + w;
  };
  bool need_number = true;
  for (const MoveNote& m : g.moves) {
    if (ply % 2 == 0) word(fmt::format("{}.", 1 + ply / 2));
    else if (need_number) word(fmt::format("{}...", 1 + ply / 2));
    word(m.san);
    need_number = false;
    if (m.comment) word(comment(*m.comment)), need_number = true;
    ++ply;
  }
  word(comment(g.reason));
  word(g.result);
  out += line + "\n\n";
  return out;
}

namespace {

// The value of tag `name` in one game's text ("" when absent), PGN escapes undone.
std::string tag_value(const std::string& game, const std::string& name) {
  const std::string open = "[" + name + " \"";
  const auto at = game.rfind(open, 0) == 0 ? 0 : game.find("\n" + open);
  if (at == std::string::npos) return "";
  std::string v;
  for (std::size_t i = game.find('"', at) + 1; i < game.size() && game[i] != '"'; ++i) {
    if (game[i] == '\\' && i + 1 < game.size()) ++i;
    v += game[i];
  }
  return v;
}

// The pair a game of this harness belongs to: the opening of Round "<opening>.<game>".
std::optional<std::uint64_t> round_opening(const std::string& game) {
  const std::string round = tag_value(game, "Round");
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(round.data(), round.data() + round.size(), n);
  if (ec != std::errc() || end == round.data() || end == round.data() + round.size() || *end != '.')
    return std::nullopt;
  return n;
}

// Where each game starts: its "[Event " tag at the start of a line.
std::vector<std::size_t> game_starts(const std::string& text) {
  std::vector<std::size_t> starts;
  if (text.rfind("[Event ", 0) == 0) starts.push_back(0);
  for (auto at = text.find("\n[Event "); at != std::string::npos;
       at = text.find("\n[Event ", at + 1))
    starts.push_back(at + 1);
  return starts;
}

}  // namespace

void drop_unrecorded_tail(const std::string& path, const std::string& event,
                          const std::set<std::uint64_t>& recorded, bool resuming) {
  if (!resuming) return;  // a new run appends to the collection as it is
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) return;
  const std::string text = io::read_input_file(path);
  const std::vector<std::size_t> starts = game_starts(text);
  // Pairs are appended one at a time, each before its journal line: at most one pair (its two
  // games, one opening) can be unrecorded, and only at the end.
  std::size_t cut = text.size();
  std::optional<std::uint64_t> orphan;
  int games = 0;
  for (auto it = starts.rbegin(); it != starts.rend() && games < 2; ++it, ++games) {
    const std::string game = text.substr(*it, cut - *it);
    const auto opening = round_opening(game);
    if (tag_value(game, "Event") != event || !opening || recorded.count(*opening)) break;
    if (orphan && *orphan != *opening) break;
    orphan = opening;
    cut = *it;
  }
  if (cut == text.size()) return;
  io::AppendFile file;
  file.open(path, cut);
  file.close();
}

}  // namespace stk::harness::selfplay
