#include "positions/epd_suite.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "cli/cli.h"
#include "notation.h"

namespace stk::harness::epd {

namespace {

bool valid_opcode(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_digits(const std::string& s) {
  return !s.empty() && s.size() < 10 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

bool is_count(const std::string& s) { return is_digits(s) && std::stol(s) > 0; }

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)); }

// Reads one line left to right; every error names the file, the line and, where a place in the
// line is at fault, its 1-based column.
struct LineReader {
  const std::string& text;
  const std::string& file;
  int line;
  std::size_t i = 0;

  InputError fail(const std::string& why) const {
    return InputError(file + ":" + std::to_string(line) + ": " + why);
  }
  InputError fail_at(std::size_t at, const std::string& why) const {
    return fail(why + " (column " + std::to_string(at + 1) + ")");
  }
  void skip_space() {
    while (i < text.size() && is_space(text[i])) ++i;
  }
  // The next whitespace-delimited token without consuming it, and where it starts.
  std::string peek_token(std::size_t* at) {
    skip_space();
    *at = i;
    std::size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    return text.substr(i, end - i);
  }
  std::string take_token(std::size_t* at) {
    std::string tok = peek_token(at);
    i += tok.size();
    return tok;
  }
};

// 1. The four position fields (board, side, castling, en passant).
std::string read_position_fields(LineReader& r) {
  std::string fen;
  for (int n = 0; n < 4; ++n) {
    std::size_t at = 0;
    std::string f = r.take_token(&at);
    if (f.empty())
      throw r.fail_at(at, "expected 4 FEN fields (board, side, castling, en passant), found " +
                              std::to_string(n));
    fen += (n ? " " : "") + f;
  }
  return fen;
}

// 2. The 6-field variant: two counters follow the four fields (an opcode starts with a letter).
void read_counters(LineReader& r, EpdPosition& p, bool* present) {
  std::size_t at = 0;
  std::string half = r.peek_token(&at);
  *present = !half.empty() && std::isdigit(static_cast<unsigned char>(half[0]));
  if (!*present) return;
  r.take_token(&at);
  if (!is_digits(half)) throw r.fail_at(at, "bad halfmove clock '" + half + "'");
  std::size_t at2 = 0;
  std::string full = r.take_token(&at2);
  if (full.empty() || !std::isdigit(static_cast<unsigned char>(full[0])))
    throw r.fail_at(at2, "the halfmove clock '" + half +
                             "' must be followed by the fullmove number, found '" + full + "'");
  if (!is_count(full)) throw r.fail_at(at2, "bad fullmove number '" + full + "'");
  p.halfmove = std::stoi(half);
  p.fullmove = std::stoi(full);
}

// 3. Operations: an opcode, operands (bare or "quoted", quotes may hold ';'), then ';'.
std::vector<EpdOperation> read_operations(LineReader& r) {
  const std::string& text = r.text;
  std::vector<EpdOperation> ops;
  while (true) {
    r.skip_space();
    if (r.i >= text.size()) break;
    EpdOperation op;
    std::size_t op_at = r.i;
    bool terminated = false;
    while (r.i < text.size()) {
      char c = text[r.i];
      if (is_space(c)) {
        ++r.i;
      } else if (c == ';') {
        ++r.i;
        terminated = true;
        break;
      } else if (c == '"') {
        std::size_t close = text.find('"', r.i + 1);
        if (close == std::string::npos) throw r.fail_at(r.i, "unterminated quoted operand");
        if (op.opcode.empty()) throw r.fail_at(r.i, "quoted text where an opcode was expected");
        op.operands.push_back(text.substr(r.i + 1, close - r.i - 1));
        r.i = close + 1;
      } else {
        std::size_t start = r.i;
        while (r.i < text.size() && !is_space(text[r.i]) && text[r.i] != ';' && text[r.i] != '"')
          ++r.i;
        std::string tok = text.substr(start, r.i - start);
        if (op.opcode.empty()) op.opcode = tok, op_at = start;
        else op.operands.push_back(tok);
      }
    }
    if (op.opcode.empty()) throw r.fail_at(op_at, "empty operation (';' with no opcode)");
    if (!valid_opcode(op.opcode))
      throw r.fail_at(op_at, "malformed operation: bad opcode '" + op.opcode + "'");
    if (!terminated) throw r.fail("operation '" + op.opcode + "' is not terminated by ';'");
    ops.push_back(std::move(op));
  }
  return ops;
}

// hmvc/fmvn set a counter; with the 6-field variant they must repeat what the fields say.
void apply_counter_op(const LineReader& r, const EpdOperation& op, bool from_fields, int* counter,
                      const char* field_name) {
  const bool fullmove = op.opcode == "fmvn";
  if (op.operands.size() != 1 || !(fullmove ? is_count(op.operands[0]) : is_digits(op.operands[0])))
    throw r.fail("operation '" + op.opcode + "' needs one " +
                 (fullmove ? "positive integer" : "integer >= 0"));
  const int value = std::stoi(op.operands[0]);
  if (from_fields && value != *counter)
    throw r.fail("operation '" + op.opcode + "' says " + op.operands[0] +
                 " but the FEN fields say " + field_name + " " + std::to_string(*counter));
  *counter = value;
}

// 4. The operations this harness understands; others (c0..c9, ce, pv, ...) are kept as read.
void interpret_operations(const LineReader& r, EpdPosition& p, const Position& pos,
                          bool counters_in_fields) {
  for (const EpdOperation& op : p.ops) {
    auto once = [&] {
      if (std::count_if(p.ops.begin(), p.ops.end(),
                        [&](const EpdOperation& o) { return o.opcode == op.opcode; }) > 1)
        throw r.fail("operation '" + op.opcode + "' given more than once");
    };
    if (op.opcode == "bm" || op.opcode == "am") {
      once();
      if (op.operands.empty()) throw r.fail("operation '" + op.opcode + "' has no moves");
      for (const std::string& san : op.operands) {
        auto m = parse_san(pos, san);
        if (!m)
          throw r.fail(op.opcode + " move '" + san +
                       "' matches no legal move (or is ambiguous) in " + p.fen);
        (op.opcode == "bm" ? p.bm : p.am).push_back(*m);
        (op.opcode == "bm" ? p.bm_san : p.am_san).push_back(san);
      }
    } else if (op.opcode == "id") {
      once();
      if (op.operands.size() != 1 || op.operands[0].empty())
        throw r.fail("operation 'id' needs exactly one non-empty operand");
      p.id = op.operands[0];
    } else if (op.opcode == "sd" || op.opcode == "sn") {
      once();
      if (op.operands.size() != 1 || !is_count(op.operands[0]))
        throw r.fail("operation '" + op.opcode + "' needs one positive integer");
    } else if (op.opcode == "hmvc") {
      once();
      apply_counter_op(r, op, counters_in_fields, &p.halfmove, "halfmove clock");
    } else if (op.opcode == "fmvn") {
      once();
      apply_counter_op(r, op, counters_in_fields, &p.fullmove, "fullmove number");
    }
  }
}

}  // namespace

bool EpdPosition::solved_by(Move m) const {
  if (!bm.empty() && std::find(bm.begin(), bm.end(), m) == bm.end()) return false;
  if (!am.empty() && std::find(am.begin(), am.end(), m) != am.end()) return false;
  return true;
}

EpdPosition parse_epd_line(const std::string& text, const std::string& file, int line) {
  LineReader r{text, file, line};
  EpdPosition p;
  p.file = file;
  p.line = line;
  p.fen = read_position_fields(r);
  Position pos;
  if (auto err = pos.set(p.fen, true))
    throw r.fail("illegal FEN (columns 1-" + std::to_string(r.i) + "): " + *err);
  bool counters_in_fields = false;
  read_counters(r, p, &counters_in_fields);
  p.ops = read_operations(r);
  interpret_operations(r, p, pos, counters_in_fields);  // SAN does not depend on the counters
  if (auto err = Position().set(p.full_fen())) throw r.fail("bad move counters: " + *err);
  if (p.bm.empty() && p.am.empty()) throw r.fail("no 'bm' or 'am' operation: nothing to solve");
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
      const std::string where = path + ":" + std::to_string(p.line) + ": ",
                        earlier = std::to_string(it->second.line);
      if (p.id.empty())
        throw InputError(where + "this line has no id and its name '" + p.name() +
                         "' is the id of line " + earlier);
      if (!it->second.explicit_id)
        throw InputError(where + "id \"" + p.id + "\" is the name of line " + earlier +
                         ", which has no id");
      throw InputError(where + "id \"" + p.id + "\" repeats the id of line " + earlier);
    }
    p.index = int(out.size());
    out.push_back(std::move(p));
  }
  if (out.empty()) throw InputError(path + ": no EPD positions");
  return out;
}

}  // namespace stk::harness::epd
