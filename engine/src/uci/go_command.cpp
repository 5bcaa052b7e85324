#include "uci/go_command.h"

#include <charconv>
#include <limits>

namespace stk::uci {

namespace {

// The whole token as an integer within [lo, hi], else false.
bool parse_integer(const std::string& token, long long lo, long long hi, long long* out) {
  long long v = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || end != token.data() + token.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

}  // namespace

GoCommand parse_go(std::istream& args) {
  GoCommand go;
  search::Limits& l = go.limits;
  bool zero_limit = false;
  std::string token;
  constexpr long long kIntMax = std::numeric_limits<int>::max();
  while (args >> token) {
    if (token == "infinite" || token == "ponder") {  // either way no clock counts at first
      l.infinite = true;
      (token == "ponder" ? go.ponder : go.infinite) = true;
      continue;
    }
    if (token == "searchmoves" || token == "mate") {
      go.error = "'go " + token + "' is not supported";
      return go;
    }
    // Every other parameter takes one integer value: the lowest accepted, and where it goes.
    long long lo = 0, hi = kIntMax;
    std::string value;
    long long v = 0;
    if (token == "wtime" || token == "btime") lo = std::numeric_limits<int>::min();
    else if (token == "nodes") hi = std::numeric_limits<long long>::max();
    else if (token != "depth" && token != "movetime" && token != "winc" && token != "binc" &&
             token != "movestogo" && token != "perft") {
      go.error = "unknown go parameter '" + token + "'";
      return go;
    }
    if (!(args >> value) || !parse_integer(value, lo, hi, &v)) {
      go.error = "'go " + token + "' needs " + (lo < 0 ? "an integer" : "a non-negative integer") +
                 (value.empty() ? std::string(", got nothing") : ", got '" + value + "'");
      return go;
    }
    const int iv = int(std::min(v, kIntMax));
    if (token == "depth") l.depth = iv, zero_limit |= v == 0;
    else if (token == "nodes") l.nodes = std::uint64_t(v), zero_limit |= v == 0;
    else if (token == "movetime") l.movetime_ms = iv, zero_limit |= v == 0;
    else if (token == "wtime") l.time_ms[WHITE] = std::max(iv, 0);
    else if (token == "btime") l.time_ms[BLACK] = std::max(iv, 0);
    else if (token == "winc") l.inc_ms[WHITE] = iv;
    else if (token == "binc") l.inc_ms[BLACK] = iv;
    else if (token == "movestogo") l.movestogo = iv;
    else go.perft_depth = iv;
  }
  if (zero_limit) l.depth = 1;  // the least search, whatever else was given
  return go;
}

search::Limits limits_after_ponderhit(const GoCommand& go) {
  search::Limits l = go.limits;
  l.infinite = go.infinite;
  return l;
}

}  // namespace stk::uci
