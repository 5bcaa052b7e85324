#include "uci.h"

#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include "notation.h"
#include "perft.h"
#include "position.h"

namespace stk {

namespace {

// "position startpos|fen <6 fields> [moves m1 m2 ...]". On any error the previous position
// stays and the reason is reported as an info string.
void cmd_position(std::istringstream& is, Position& pos, std::ostream& out) {
  std::string token, fen;
  is >> token;
  if (token == "startpos") {
    fen = Position::kStartFen;
    is >> token;
  } else if (token == "fen") {
    while (is >> token && token != "moves") fen += token + " ";
  } else {
    out << "info string error: expected 'startpos' or 'fen', got '" << token << "'" << std::endl;
    return;
  }
  Position next;
  if (auto err = next.set(fen)) {
    out << "info string error: bad FEN: " << *err << std::endl;
    return;
  }
  if (token == "moves") {
    while (is >> token) {
      auto m = parse_uci(next, token);
      if (!m) {
        out << "info string error: illegal move '" << token << "' in " << next.fen() << std::endl;
        return;
      }
      next.make_move(*m);
    }
  }
  pos = next;
}

void cmd_go(std::istringstream& is, Position& pos, std::ostream& out) {
  std::string token;
  while (is >> token) {
    if (token == "perft") {
      int depth = 0;
      if (!(is >> depth) || depth < 0) {
        out << "info string error: go perft needs a depth" << std::endl;
        return;
      }
      std::uint64_t total = 0;
      for (auto& [m, n] : perft_divide(pos, std::max(depth, 1))) {
        out << to_uci(m) << ": " << n << "\n";
        total += n;
      }
      out << "\nNodes searched: " << (depth == 0 ? 1 : total) << "\n" << std::endl;
      return;
    }
  }
  out << "info string error: only 'go perft N' is supported by this build" << std::endl;
}

}  // namespace

int uci_loop(std::istream& in, std::ostream& out) {
  Position pos;
  pos.set(Position::kStartFen);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) continue;
    if (cmd == "quit") break;
    if (cmd == "uci") {
      out << "id name stk 0.1\nid author stk developers\nuciok" << std::endl;
    } else if (cmd == "isready") {
      out << "readyok" << std::endl;
    } else if (cmd == "ucinewgame") {
      pos.set(Position::kStartFen);
    } else if (cmd == "position") {
      cmd_position(is, pos, out);
    } else if (cmd == "go") {
      cmd_go(is, pos, out);
    } else if (cmd == "d") {
      out << pos.pretty() << std::flush;
    } else {
      out << "info string unknown command: " << line << std::endl;
    }
  }
  return 0;
}

}  // namespace stk
