// stk game: plays UCI moves from a position and prints the game state after every ply as JSON
// lines, the contract the Python reference (python-chess) checks the engine's rules against:
// FEN, clocks, key consistency, unmake, check/mate/stalemate, legal moves and draw verdicts.
//   {"game": G, "ply": k, "move": "e2e4"|null, "fen": ..., "rule50": n, "fullmove": n,
//    "key": "hex", "key_ok": b, "is_ok": b, "unmake": "ok"|reason|null, "in_check": b,
//    "checkers": n, "legal": ["a2a3", ...] (sorted), "checkmate": b, "stalemate": b,
//    "repeated": b, "draw_at_root": b, "draw_in_tree": b}
// draw_at_root is Position::is_draw(0) (fifty-move rule, or threefold: two earlier occurrences);
// draw_in_tree is is_draw with the whole game inside the search tree (one earlier occurrence).
// --fen-verdicts FILE: one FEN per line; prints {"line": n, "valid": b, "error": s, "fen": s}
// and never stops at a rejected FEN (that is what it reports).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "tools/commands.h"

namespace stk::tools {

namespace {

constexpr const char* kUsage =
    "usage: stk game (\"<FEN>\" | startpos) [moves] [UCI_MOVE...]\n"
    "       stk game --batch FILE        lines: (startpos | fen <6 FEN fields>) [moves UCI_MOVE...]\n"
    "       stk game --fen-verdicts FILE lines: a FEN; prints whether the strict parser accepts it\n";

constexpr int kWholeGameInTree = 1 << 20;  // is_draw(ply) with every earlier ply inside the tree

std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o + "\"";
}

const char* json_bool(bool b) { return b ? "true" : "false"; }

struct Game {
  int line = 0;
  std::string fen;
  std::vector<std::string> moves;
};

// Everything unmake must give back, compared field by field.
struct Snapshot {
  std::string fen;
  Key key, pawn_key;
  int rule50, game_ply, castling, ply_count;
  Square ep;
  Bitboard checkers;
  explicit Snapshot(const Position& p)
      : fen(p.fen()),
        key(p.key()),
        pawn_key(p.pawn_key()),
        rule50(p.rule50()),
        game_ply(p.game_ply()),
        castling(p.castling_rights()),
        ply_count(p.ply_count()),
        ep(p.ep_square()),
        checkers(p.checkers()) {}
  std::string differs(const Snapshot& o) const {
    if (fen != o.fen) return "fen " + o.fen + " instead of " + fen;
    if (key != o.key) return "key";
    if (pawn_key != o.pawn_key) return "pawn key";
    if (rule50 != o.rule50) return "rule50";
    if (game_ply != o.game_ply) return "game ply";
    if (castling != o.castling) return "castling rights";
    if (ep != o.ep) return "en-passant square";
    if (ply_count != o.ply_count) return "undo stack depth";
    if (checkers != o.checkers) return "checkers";
    return "";
  }
};

void print_state(std::ostream& o, Position& pos, const Game& g, int ply,
                 const std::string& unmake) {
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(pos.key()));
  MoveList list(pos);
  std::vector<std::string> legal;
  for (const ExtMove& e : list) legal.push_back(to_uci(e.move));
  std::sort(legal.begin(), legal.end());
  const bool none = list.size() == 0;
  o << "{\"game\": " << g.line << ", \"ply\": " << ply
    << ", \"move\": " << (ply ? json_str(g.moves[ply - 1]) : "null")
    << ", \"fen\": " << json_str(pos.fen()) << ", \"rule50\": " << pos.rule50()
    << ", \"fullmove\": " << 1 + pos.game_ply() / 2 << ", \"key\": \"" << key
    << "\", \"key_ok\": " << json_bool(pos.key() == pos.compute_key())
    << ", \"is_ok\": " << json_bool(pos.is_ok())
    << ", \"unmake\": " << (ply ? json_str(unmake.empty() ? "ok" : unmake) : "null")
    << ", \"in_check\": " << json_bool(pos.in_check())
    << ", \"checkers\": " << popcount(pos.checkers()) << ", \"legal\": [";
  for (std::size_t i = 0; i < legal.size(); ++i) o << (i ? ", " : "") << '"' << legal[i] << '"';
  o << "], \"checkmate\": " << json_bool(none && pos.in_check())
    << ", \"stalemate\": " << json_bool(none && !pos.in_check())
    << ", \"repeated\": " << json_bool(pos.has_repeated())
    << ", \"draw_at_root\": " << json_bool(pos.is_draw(0))
    << ", \"draw_in_tree\": " << json_bool(pos.is_draw(kWholeGameInTree)) << "}\n";
}

// Plays one game, printing every ply; on an illegal move prints the reason and returns false.
bool play(std::ostream& o, const Game& g, const std::string& where) {
  Position pos;
  if (auto err = pos.set(g.fen)) {
    std::cerr << "stk game: " << where << ": bad FEN \"" << g.fen << "\": " << *err << "\n";
    return false;
  }
  print_state(o, pos, g, 0, "");
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    auto m = parse_uci(pos, g.moves[i]);
    if (!m) {
      std::cerr << "stk game: " << where << ": move " << i + 1 << " '" << g.moves[i]
                << "' is not legal in " << pos.fen() << "\n";
      return false;
    }
    Snapshot before(pos);
    pos.make_move(*m);
    Snapshot after(pos);
    pos.unmake_move();
    std::string unmake = before.differs(Snapshot(pos));
    pos.make_move(*m);
    if (unmake.empty()) unmake = after.differs(Snapshot(pos)).empty() ? "" : "remake differs";
    print_state(o, pos, g, int(i + 1), unmake);
  }
  return true;
}

// (startpos | fen F1..F6 | F1..F6) [moves] M... ; `fen` is optional only on the command line.
std::optional<std::string> parse_game(const std::vector<std::string>& tok, bool fen_keyword,
                                      Game& g) {
  std::size_t i = 0;
  if (!tok.empty() && tok[0] == "startpos") {
    g.fen = Position::kStartFen;
    i = 1;
  } else {
    if (fen_keyword) {
      if (tok.empty() || tok[0] != "fen") return "expected 'startpos' or 'fen <6 fields>'";
      i = 1;
    }
    if (tok.size() < i + 6) return "a FEN needs 6 fields";
    g.fen.clear();
    for (std::size_t k = i; k < i + 6; ++k) g.fen += (k > i ? " " : "") + tok[k];
    i += 6;
  }
  if (i < tok.size() && tok[i] == "moves") ++i;
  g.moves.assign(tok.begin() + long(i), tok.end());
  return std::nullopt;
}

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

// Calls f(line_number, text) for each non-blank, non-comment line; false if the file is unreadable.
template <typename F>
bool for_each_line(const std::string& path, F&& f) {
  std::ifstream in(path);
  if (!in) return std::cerr << "stk game: " << path << ": cannot open file\n", false;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    if (!f(n, text)) return false;
  }
  if (in.bad()) return std::cerr << "stk game: " << path << ": read error\n", false;
  return true;
}

}  // namespace

int game_command(int argc, char** argv) {
  if (argc < 2) return std::cerr << kUsage, 2;
  std::string first = argv[1];
  std::ostringstream o;
  if (first == "--fen-verdicts" || first == "--batch") {
    if (argc != 3) return std::cerr << kUsage, 2;
    const std::string path = argv[2];
    bool ok = for_each_line(path, [&](int n, const std::string& text) {
      const std::string where = path + ":" + std::to_string(n);
      if (first == "--fen-verdicts") {
        Position pos;
        auto err = pos.set(text);
        o << "{\"line\": " << n << ", \"valid\": " << json_bool(!err)
          << ", \"error\": " << json_str(err ? *err : "")
          << ", \"fen\": " << json_str(err ? "" : pos.fen()) << "}\n";
        return true;
      }
      Game g;
      g.line = n;
      if (auto err = parse_game(split(text), true, g))
        return std::cerr << "stk game: " << where << ": " << *err << "\n", false;
      return play(o, g, where);
    });
    if (!ok) return 2;  // nothing printed: a bad line fails the whole batch
  } else {
    if (first.starts_with("--"))
      return std::cerr << "stk game: unknown option '" << first << "'\n" << kUsage, 2;
    std::vector<std::string> tok = split(first);
    for (int i = 2; i < argc; ++i)  // the words of every argument, as of the first
      for (std::string& word : split(argv[i])) tok.push_back(std::move(word));
    Game g;
    g.line = 1;
    if (auto err = parse_game(tok, false, g))
      return std::cerr << "stk game: " << *err << "\n" << kUsage, 2;
    if (!play(o, g, "argument")) return 2;
  }
  std::cout << o.str() << std::flush;
  return 0;
}

}  // namespace stk::tools
