// The openings of a match: read from an EPD or PGN book, or generated (seeded random legal plies
// from the start position, kept only when a short in-process stk search finds them balanced).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "position.h"

namespace stk::harness::selfplay {

struct Opening {
  std::string fen = Position::kStartFen;  // six fields
  std::vector<std::string> moves;         // UCI moves played from `fen` (PGN books)
  std::string source;                     // "FILE:LINE"
  std::vector<std::string>
      generated_plies;  // generated openings: the random plies that led to `fen`
  // The position after the moves, history included (repetitions count from the book moves on).
  Position position() const;
  // That position as FEN fields 1-4 (placement, side, castling, en passant): equal for two
  // openings that reach one position by different moves.
  std::string position_key() const;
};

// An .epd (FEN, four or six fields, operations ignored) or .pgn book (tags, SAN movetext; the
// FEN tag is honoured; comments, NAGs and variations skipped), by the file's extension. Throws
// InputError "FILE:LINE: reason" for an illegal position or move, a position with no legal move,
// an unreadable or empty file.
std::vector<Opening> read_openings(const std::string& path);

// The book in a seeded order (Fisher-Yates driven by SplitMix(mix64(seed))): the same seed gives the
// same order on every machine; the match plays it only when --seed is given (else file order).
void shuffle_openings(std::vector<Opening>& openings, std::uint64_t seed);

struct GeneratorSettings {
  std::uint64_t seed = 1;
  int plies = 8;                      // random legal plies from the start position (at least 6)
  int max_abs_cp = 100;               // kept when the search scores the position within +-this
  std::uint64_t check_nodes = 10000;  // the in-process search that judges the balance
};

// `count` distinct balanced openings, each played from its final position (moves empty), exactly as
// the same set read back from write_openings_epd; depends only on the settings and the count.
std::vector<Opening> generate_openings(const GeneratorSettings& g, std::size_t count);

// Writes the openings as EPD (their final positions, id "seed<S>-<i>", the UCI plies as a comment op).
void write_openings_epd(const std::string& path, const std::vector<Opening>& openings,
                        const GeneratorSettings& g);

}  // namespace stk::harness::selfplay
