#include "epd/epd_suite.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "common/cli.h"
#include "notation.h"

namespace stk::harness::epd {

namespace {

bool valid_opcode(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_count(const std::string& s) {
  return !s.empty() && s.size() < 10 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         std::stol(s) > 0;
}

}  // namespace

bool EpdPosition::solved_by(Move m) const {
  if (!bm.empty() && std::find(bm.begin(), bm.end(), m) == bm.end()) return false;
  if (!am.empty() && std::find(am.begin(), am.end(), m) != am.end()) return false;
  return true;
}

EpdPosition parse_epd_line(const std::string& text, const std::string& file, int line) {
  auto fail = [&](const std::string& why) -> InputError {
    return InputError(file + ":" + std::to_string(line) + ": " + why);
  };
  EpdPosition p;
  p.file = file;
  p.line = line;

  // 1. The four position fields.
  std::size_t i = 0;
  std::vector<std::string> fields;
  while (fields.size() < 4) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (start == i) throw fail("expected 4 FEN fields (board, side, castling, en passant), found " +
                               std::to_string(fields.size()));
    fields.push_back(text.substr(start, i - start));
  }
  p.fen = fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3];
  Position pos;
  if (auto err = pos.set(p.fen, true)) throw fail("illegal FEN: " + *err);

  // 2. Operations: an opcode, operands (bare or "quoted", quotes may hold ';'), then ';'.
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) break;
    EpdOperation op;
    bool terminated = false;
    while (i < text.size()) {
      char c = text[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (c == ';') {
        ++i;
        terminated = true;
        break;
      } else if (c == '"') {
        std::size_t close = text.find('"', i + 1);
        if (close == std::string::npos) throw fail("unterminated quoted operand");
        if (op.opcode.empty()) throw fail("quoted text where an opcode was expected");
        op.operands.push_back(text.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
               text[i] != ';' && text[i] != '"')
          ++i;
        std::string tok = text.substr(start, i - start);
        if (op.opcode.empty())
          op.opcode = tok;
        else
          op.operands.push_back(tok);
      }
    }
    if (op.opcode.empty()) throw fail("empty operation (';' with no opcode)");
    if (!valid_opcode(op.opcode)) throw fail("malformed operation: bad opcode '" + op.opcode + "'");
    if (!terminated) throw fail("operation '" + op.opcode + "' is not terminated by ';'");
    p.ops.push_back(std::move(op));
  }

  // 3. The operations this harness understands; others (c0..c9, ce, pv, ...) are kept as read.
  for (const EpdOperation& op : p.ops) {
    auto once = [&] {
      if (std::count_if(p.ops.begin(), p.ops.end(),
                        [&](const EpdOperation& o) { return o.opcode == op.opcode; }) > 1)
        throw fail("operation '" + op.opcode + "' given more than once");
    };
    if (op.opcode == "bm" || op.opcode == "am") {
      once();
      if (op.operands.empty()) throw fail("operation '" + op.opcode + "' has no moves");
      for (const std::string& san : op.operands) {
        auto m = parse_san(pos, san);
        if (!m)
          throw fail(op.opcode + " move '" + san + "' matches no legal move (or is ambiguous) in " +
                     p.fen);
        (op.opcode == "bm" ? p.bm : p.am).push_back(*m);
        (op.opcode == "bm" ? p.bm_san : p.am_san).push_back(san);
      }
    } else if (op.opcode == "id") {
      once();
      if (op.operands.size() != 1 || op.operands[0].empty())
        throw fail("operation 'id' needs exactly one non-empty operand");
      p.id = op.operands[0];
    } else if (op.opcode == "sd" || op.opcode == "sn") {
      once();
      if (op.operands.size() != 1 || !is_count(op.operands[0]))
        throw fail("operation '" + op.opcode + "' needs one positive integer");
    }
  }
  if (p.bm.empty() && p.am.empty()) throw fail("no 'bm' or 'am' operation: nothing to solve");
  return p;
}

std::vector<EpdPosition> read_epd_file(const std::string& path) {
  std::vector<std::string> lines = read_lines(path);
  std::vector<EpdPosition> out;
  // Every name (an id, or "line N" for a line without one) once: names are baseline keys and
  // testcase names, unique in their class.
  struct Named {
    int line;
    bool explicit_id;
  };
  std::map<std::string, Named> names;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string& l = lines[n];
    auto first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') continue;
    EpdPosition p = parse_epd_line(l, path, int(n + 1));
    auto [it, fresh] = names.emplace(p.name(), Named{p.line, !p.id.empty()});
    if (!fresh) {
      const std::string where = path + ":" + std::to_string(p.line) + ": ", earlier = std::to_string(it->second.line);
      if (p.id.empty())
        throw InputError(where + "this line has no id and its name '" + p.name() + "' is the id of line " + earlier);
      if (!it->second.explicit_id)
        throw InputError(where + "id \"" + p.id + "\" is the name of line " + earlier + ", which has no id");
      throw InputError(where + "id \"" + p.id + "\" repeats the id of line " + earlier);
    }
    p.index = int(out.size());
    out.push_back(std::move(p));
  }
  if (out.empty()) throw InputError(path + ": no EPD positions");
  return out;
}

}  // namespace stk::harness::epd
