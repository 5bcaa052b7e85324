// EPD target: the tactical-suite line parser (FEN fields, quoted operands, bm/am in SAN).
#include <algorithm>
#include <string>

#include "cli/cli.h"
#include "positions/epd_suite.h"
#include "fuzz_checks.h"
#include "movegen.h"
#include "notation.h"

namespace stk::fuzz {

bool check_epd(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string where = "fuzz.epd:7: ";
  harness::epd::EpdPosition p;
  try {
    p = harness::epd::parse_epd_line(text, "fuzz.epd", 7);
  } catch (const harness::InputError& e) {
    require(std::string(e.what()).rfind(where, 0) == 0,
            std::string("error does not name file:line: ") + e.what());
    return false;
  }
  Position pos;
  auto err = pos.set(p.fen, true);
  require(!err, "accepted position '" + p.fen + "' does not parse: " + err.value_or(""));
  require(!p.bm.empty() || !p.am.empty(), "accepted a line with neither bm nor am");
  require(p.bm.size() == p.bm_san.size() && p.am.size() == p.am_san.size(),
          "moves and their SAN disagree in number");
  require(!p.name().empty(), "empty position name");
  const MoveList legal(pos);
  for (const auto* moves : {&p.bm, &p.am})
    for (Move m : *moves) {
      require(legal.contains(m), "accepted move " + to_uci(m) + " is not legal in " + p.fen);
      const std::string san = to_san(pos, m);
      require(parse_san(pos, san) == m,
              "SAN round trip of " + to_uci(m) + " ('" + san + "') in " + p.fen);
    }
  // The best move solves it, an avoid move does not.
  for (Move m : p.bm)
    require(p.solved_by(m) == !std::count(p.am.begin(), p.am.end(), m), "solved_by(bm)");
  for (Move m : p.am) require(!p.solved_by(m), "solved_by(am) is true");
  return true;
}

}  // namespace stk::fuzz
