// Perft EPD files: "FEN ;D1 n ;D2 n ..." (optionally "id <name>;" is not used: ids are line numbers).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stk::harness {

struct PerftEntry {
  std::string file;
  int line = 0;  // 1-based
  std::string fen;
  std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, expected nodes), ascending depth
  std::string id() const;                             // "<file-stem>:<line>"
};

// Parses every non-blank, non-'#' line. Throws InputError naming file and line for a malformed
// line, an illegal FEN (with the reason), a depth given twice or out of order.
std::vector<PerftEntry> read_perft_epd(const std::string& path);

}  // namespace stk::harness
