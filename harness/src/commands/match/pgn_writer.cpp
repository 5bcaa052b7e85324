#include "commands/match/pgn_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/cli.h"
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

void keep_recorded_games(const std::string& path, const std::set<std::uint64_t>& keep) {
  if (!std::filesystem::exists(path)) return;
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::string out;
  // Games start at their "[Event " tag; the Round tag names the pair.
  std::size_t start = text.find("[Event ");
  while (start != std::string::npos) {
    std::size_t next = text.find("\n[Event ", start);
    const std::string game = text.substr(start, next == std::string::npos ? std::string::npos
                                                                          : next + 1 - start);
    const auto r = game.find("[Round \"");
    if (r != std::string::npos && keep.count(std::stoull(game.substr(r + 8)))) out += game;
    start = next == std::string::npos ? next : next + 1;
  }
  if (out != text) io::replace_file(path, out);
}

}  // namespace stk::harness::selfplay
