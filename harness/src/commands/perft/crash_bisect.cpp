#include "commands/perft/crash_bisect.h"

#include <sstream>

#include <fmt/format.h>

#include "movegen.h"
#include "notation.h"
#include "commands/perft/isolated.h"
#include "position.h"

namespace stk::harness {

namespace {

constexpr const char* kPlayed = "played\n";

// In the child: the root, then the line; writes kPlayed once the line is on the board.
Position play_line(const std::string& fen, const std::vector<std::string>& line,
                   const ChildWriter& write) {
  Position pos;
  if (auto err = pos.set(fen)) throw std::runtime_error("bad FEN: " + *err);
  for (const std::string& m : line) {
    auto move = parse_uci(pos, m);
    if (!move) throw std::runtime_error("illegal move " + m);
    pos.make_move(*move);
  }
  write(kPlayed);
  return pos;
}

std::string line_text(const std::vector<std::string>& line) {
  return line.empty() ? "the root" : fmt::format("{}", fmt::join(line, " "));
}

}  // namespace

BisectResult bisect_crash(const std::string& fen, int depth, PerftFn fn, double timeout_s) {
  BisectResult r;
  {
    Position root;
    root.set(fen, true);
    r.fen = root.fen();
  }
  for (int d = depth; d >= 1; --d) {
    // 1. Play the line and generate this node's moves.
    std::vector<std::string> moves;
    ChildResult probe = run_isolated(
        [&](const ChildWriter& write) {
          Position pos = play_line(r.fen, r.moves, write);
          fn(pos, 1);
          std::string list;
          for (const ExtMove& e : MoveList(pos)) list += " " + to_uci(e.move);
          write("moves" + list + "\n");
        },
        timeout_s);
    if (!probe.ok()) {
      const bool played = probe.output.starts_with(kPlayed);
      const std::string where = r.moves.empty() ? "at the root" : "after " + line_text(r.moves);
      r.finding = played
                      ? fmt::format("generating the moves {} {} (perft 1 there)", where,
                                    probe.describe())
                      : fmt::format("playing the line {} {}", line_text(r.moves), probe.describe());
      return r;
    }
    std::istringstream in(probe.output.substr(probe.output.find("moves") + 5));
    for (std::string m; in >> m;) moves.push_back(m);

    // 2. Each move's subtree in its own child: the first that crashes or hangs extends the line.
    std::string next;
    for (const std::string& m : moves) {
      std::vector<std::string> line = r.moves;
      line.push_back(m);
      ChildResult sub = run_isolated(
          [&](const ChildWriter& write) {
            Position pos = play_line(r.fen, line, write);
            fn(pos, d - 1);
          },
          timeout_s);
      if (sub.ok()) continue;
      if (!sub.output.starts_with(kPlayed)) {
        r.moves = line;
        r.finding = fmt::format("making the move {} {}", m, sub.describe());
        return r;
      }
      next = m;
      r.finding = fmt::format("perft {} after {} {}", d - 1, fmt::join(line, " "), sub.describe());
      break;
    }
    if (next.empty()) {
      r.finding = fmt::format(
          "no single move from {} reproduces it: perft {} of each subtree runs cleanly in a "
          "fresh process (the crash depends on what ran before it)",
          line_text(r.moves), d - 1);
      return r;
    }
    r.moves.push_back(next);
  }
  return r;
}

}  // namespace stk::harness
