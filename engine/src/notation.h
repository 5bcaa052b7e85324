// Move notation: UCI long algebraic and SAN, both directions.
#pragma once

#include <optional>
#include <string>

#include "position.h"

namespace stk {

std::string to_uci(Move m);
// The legal move written as `text` in UCI notation, or nullopt.
std::optional<Move> parse_uci(const Position& pos, const std::string& text);

// SAN with minimal disambiguation and +/# suffixes (needs `pos` to be mutable for the suffix).
std::string to_san(Position& pos, Move m);
// Accepts standard SAN, tolerating a missing or extra +/#, "e.p." suffix, 0-0 for O-O, and
// promotion written with or without '='. Returns nullopt if no legal move matches exactly one.
std::optional<Move> parse_san(const Position& pos, const std::string& text);

}  // namespace stk
