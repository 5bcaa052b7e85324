// Parsers for what a UCI engine prints: "info ...", "bestmove ...", "option name ...".
// They read any engine's output and never throw: a malformed field is reported, not fatal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stk::harness::uci {

struct InfoLine {
  std::optional<int> depth, seldepth, multipv;
  std::optional<std::uint64_t> nodes, time_ms;
  enum class Score { None, Cp, Mate } score_kind = Score::None;
  int score = 0;  // centipawns or signed moves to mate, side to move's view
  bool lowerbound = false, upperbound = false;
  bool has_pv = false;
  std::vector<std::string> pv;
  std::optional<std::string> text;     // "info string ..."
  std::vector<std::string> malformed;  // "nodes abc": fields whose value did not parse
  bool bound() const { return lowerbound || upperbound; }
};

// nullopt when the line is not an "info" line.
std::optional<InfoLine> parse_info(const std::string& line);

struct BestMove {
  std::string move;  // as written ("e2e4", "0000", "(none)", or "" if missing)
  std::optional<std::string> ponder;
};
// nullopt when the line is not a "bestmove" line.
std::optional<BestMove> parse_bestmove(const std::string& line);

// "option name N type T [default D] [min A] [max B] [var V]...".
struct OptionLine {
  std::string name, type;
  std::optional<std::string> default_value;
  std::optional<std::string> min, max;
  std::vector<std::string> vars;
};
// nullopt when the line is not an "option" line; *problem says what is wrong with a malformed
// one (missing name or type, unknown type, spin bounds not integers, default outside them...).
std::optional<OptionLine> parse_option(const std::string& line, std::string* problem);

}  // namespace stk::harness::uci
