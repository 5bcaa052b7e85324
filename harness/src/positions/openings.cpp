#include "positions/openings.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/output_file.h"
#include "common/splitmix.h"
#include "positions/seeded_games.h"
#include "movegen.h"
#include "notation.h"
#include "search/search.h"

namespace stk::harness::selfplay {

Position Opening::position() const {
  Position pos;
  pos.set(fen);
  for (const std::string& m : moves) pos.make_move(*parse_uci(pos, m));
  return pos;
}

std::string Opening::position_key() const {
  const std::string full = position().fen();
  std::size_t cut = 0;
  for (int field = 0; field < 4 && cut != std::string::npos; ++field)
    cut = full.find(' ', cut + (field > 0));
  return full.substr(0, cut);
}

namespace {

std::string where(const std::string& path, int line) { return path + ":" + std::to_string(line); }

void require_playable(const Position& pos, const std::string& at) {
  if (fhgen::game_over(pos))
    throw InputError(at + ": the game is already over in this position (" + pos.fen() + ")");
}

std::vector<Opening> read_epd(const std::string& path) {
  std::vector<Opening> out;
  const auto lines = read_lines(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string at = where(path, int(i) + 1);
    std::istringstream is(lines[i]);
    std::vector<std::string> f;
    std::string t;
    while (f.size() < 6 && is >> t) f.push_back(t);
    if (f.empty() || f[0][0] == '#') continue;
    if (f.size() < 4)
      throw InputError(at + ": expected a FEN (4 or 6 fields), got '" + lines[i] + "'");
    std::string fen = f[0] + " " + f[1] + " " + f[2] + " " + f[3];
    auto number = [](const std::string& s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    // Counters: the 5th and 6th fields, else the hmvc and fmvn operations, else 0 1.
    auto op = [&](const std::string& code, const std::string& fallback) {
      const auto k = lines[i].find(" " + code + " ");
      if (k == std::string::npos) return fallback;
      std::istringstream os(lines[i].substr(k + code.size() + 2));
      std::string v;
      std::getline(os, v, ';');
      if (!number(v)) throw InputError(at + ": " + code + " '" + v + "' is not a number");
      return v;
    };
    fen += f.size() >= 6 && number(f[4]) && number(f[5])
               ? " " + f[4] + " " + f[5]
               : " " + op("hmvc", "0") + " " + op("fmvn", "1");
    Opening o;
    Position pos;
    if (auto err = pos.set(fen)) throw InputError(at + ": bad FEN '" + fen + "': " + *err);
    require_playable(pos, at);
    o.fen = pos.fen();
    o.source = at;
    out.push_back(o);
  }
  return out;
}

// Movetext tokens: move numbers, results, NAGs, comments and variations are not moves.
std::vector<Opening> read_pgn(const std::string& path) {
  std::vector<Opening> out;
  const auto lines = read_lines(path);
  std::optional<Opening> game;
  Position pos;
  int comment_depth = 0, variation_depth = 0;
  auto finish = [&] {
    if (game) out.push_back(*game);
    game.reset();
  };
  auto begin = [&](int line) {
    game = Opening{};
    game->source = where(path, line);
    pos.set(Position::kStartFen);
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const std::string at = where(path, int(i) + 1);
    if (comment_depth == 0 && variation_depth == 0 && !l.empty() && l[0] == '[') {
      if (game && !game->moves.empty()) finish();
      if (!game) begin(int(i) + 1);
      if (l.starts_with("[FEN ")) {
        const auto q1 = l.find('"'), q2 = l.rfind('"');
        if (q1 == std::string::npos || q2 <= q1) throw InputError(at + ": malformed FEN tag");
        const std::string fen = l.substr(q1 + 1, q2 - q1 - 1);
        if (auto err = pos.set(fen)) throw InputError(at + ": bad FEN tag '" + fen + "': " + *err);
        game->fen = pos.fen();
      }
      continue;
    }
    const std::string& text = l;
    std::size_t p = 0;
    while (p < text.size()) {
      const char c = text[p];
      if (comment_depth) {
        if (c == '}') comment_depth = 0;
        ++p;
        continue;
      }
      if (c == ';') break;  // rest-of-line comment
      if (c == '{') {
        comment_depth = 1;
        ++p;
        continue;
      }
      if (c == '(') {
        ++variation_depth;
        ++p;
        continue;
      }
      if (c == ')') {
        if (!variation_depth) throw InputError(at + ": ')' without '('");
        --variation_depth, ++p;
        continue;
      }
      if (isspace(static_cast<unsigned char>(c))) {
        ++p;
        continue;
      }
      std::size_t e = p;
      while (e < text.size() && !isspace(static_cast<unsigned char>(text[e])) && text[e] != '{' &&
             text[e] != '(' && text[e] != ')' && text[e] != ';')
        ++e;
      std::string tok = text.substr(p, e - p);
      p = e;
      if (variation_depth) continue;
      if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") {
        if (!game) throw InputError(at + ": a result without a game");
        finish();
        continue;
      }
      if (tok[0] == '$') continue;
      const auto dots = tok.find_last_of('.');
      if (dots != std::string::npos) {
        if (tok.find_first_not_of("0123456789.") == std::string::npos) continue;
        tok = tok.substr(dots + 1);
      }
      if (!game) begin(int(i) + 1);
      auto m = parse_san(pos, tok);
      if (!m) throw InputError(at + ": '" + tok + "' is not a legal move in " + pos.fen());
      game->moves.push_back(to_uci(*m));
      pos.make_move(*m);
      if (fhgen::game_over(pos))
        throw InputError(at + ": the game is over after '" + tok + "': not an opening");
    }
  }
  if (comment_depth || variation_depth)
    throw InputError(path + ": unterminated comment or variation at the end");
  finish();
  return out;
}

}  // namespace

std::vector<Opening> read_openings(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": no such openings file");
  const std::string ext = std::filesystem::path(path).extension().string();
  std::vector<Opening> out;
  if (ext == ".epd") out = read_epd(path);
  else if (ext == ".pgn") out = read_pgn(path);
  else throw InputError(path + ": an openings book must end in .epd or .pgn");
  if (out.empty()) throw InputError(path + ": no openings in the file");
  return out;
}

std::vector<Opening> generate_openings(const GeneratorSettings& g, std::size_t count) {
  if (g.plies < 6)
    throw UsageError("generated openings need at least 6 plies, got " + std::to_string(g.plies));
  std::vector<Opening> out;
  std::set<std::string> seen;
  search::Searcher searcher;
  search::Limits limits;
  limits.nodes = g.check_nodes;
  SplitMix rng(mix64(g.seed));
  for (std::uint64_t attempt = 0; out.size() < count; ++attempt) {
    if (attempt > 1000 + 200 * count)
      throw InputError("could not generate " + std::to_string(count) + " balanced openings");
    Opening o;
    Position pos;
    pos.set(Position::kStartFen);
    bool ok = true;
    for (int ply = 0; ply < g.plies && ok; ++ply) {
      MoveList list(pos);
      if (list.size() == 0) ok = false;
      else {
        const Move m = list.begin()[rng.below(list.size())].move;
        o.moves.push_back(to_uci(m));
        pos.make_move(m);
      }
    }
    if (!ok || fhgen::game_over(pos)) continue;
    const std::string key = fhgen::canonical_fen(pos);
    if (seen.count(key)) continue;
    searcher.clear();
    Position root = pos;
    const search::Result r = searcher.go(root, limits);
    if (std::abs(r.score) > g.max_abs_cp) continue;
    seen.insert(key);
    // Played from the final position, as a book written out by write_openings_epd and given back is.
    o.fen = pos.fen();
    o.source = "generated:" + std::to_string(out.size());
    o.generated_plies = std::move(o.moves);
    o.moves.clear();
    out.push_back(o);
  }
  return out;
}

void write_openings_epd(const std::string& path, const std::vector<Opening>& openings,
                        const GeneratorSettings& g) {
  std::string out;
  for (std::size_t i = 0; i < openings.size(); ++i) {
    const std::string fen = openings[i].position().fen();
    const std::vector<std::string>& moves = openings[i].generated_plies;
    // The four EPD fields, then the counters as hmvc/fmvn operations.
    std::istringstream is(fen);
    std::string f[6];
    for (auto& s : f) is >> s;
    std::string plies;
    for (const auto& m : moves) plies += (plies.empty() ? "" : " ") + m;
    out += fmt::format("{} {} {} {} hmvc {}; fmvn {}; id \"seed{}-{}\"; c0 \"{}\";\n", f[0], f[1],
                       f[2], f[3], f[4], f[5], g.seed, i, plies);
  }
  io::replace_file(path, out);
}

void shuffle_openings(std::vector<Opening>& openings, std::uint64_t seed) {
  SplitMix rng(mix64(seed));
  for (std::size_t i = openings.size(); i > 1; --i)
    std::swap(openings[i - 1], openings[rng.below(i)]);
}

}  // namespace stk::harness::selfplay
