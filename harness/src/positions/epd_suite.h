// Tactical-suite EPD files with bm/am in SAN, in the standard form "FEN(4 fields) op operands; ..."
// (hmvc/fmvn set the move counters) or the common variant with the 6 FEN fields, counters included.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "position.h"

namespace stk::harness::epd {

struct EpdOperation {
  std::string opcode;
  std::vector<std::string> operands;  // quotes removed
};

struct EpdPosition {
  std::string file;
  int line = 0;      // 1-based line in `file`
  int index = 0;     // 0-based ordinal among the file's positions
  std::string fen;   // the four EPD fields as written: the position's key in results and baselines
  int halfmove = 0;  // from hmvc or the 5th field, else 0
  int fullmove = 1;  // from fmvn or the 6th field, else 1
  std::string id;    // the "id" operand, or "" when absent
  std::vector<Move> bm, am;
  std::vector<std::string> bm_san, am_san;  // as written in the file
  std::vector<EpdOperation> ops;            // every operation, including unknown ones

  // The six-field FEN, counters included: what is searched.
  std::string full_fen() const {
    return fen + " " + std::to_string(halfmove) + " " + std::to_string(fullmove);
  }
  // The name used in reports and as the baseline key: the id, or "line N".
  std::string name() const { return id.empty() ? "line " + std::to_string(line) : id; }
  // bm: the move is one of the best moves; am: it is none of the avoid moves (both if both).
  bool solved_by(Move m) const;
};

// Parses one EPD line. Throws InputError "FILE:LINE: reason" (with "(column N)" where a place in
// the line is at fault, the opcode where an operation is) for a malformed line, an illegal
// position, an operand that is not a legal move in SAN, a missing bm/am, a bad sd/sn/hmvc/fmvn
// value, or hmvc/fmvn contradicting the counters in the FEN fields.
EpdPosition parse_epd_line(const std::string& text, const std::string& file, int line);

// Reads every position of `path` (blank lines and lines starting with '#' are not positions).
// Throws InputError naming the file (and line) for an unreadable file, any bad line, a repeated
// id, or a file with no positions.
std::vector<EpdPosition> read_epd_file(const std::string& path);

}  // namespace stk::harness::epd
