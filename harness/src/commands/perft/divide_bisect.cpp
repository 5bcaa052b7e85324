#include "commands/perft/divide_bisect.h"

#include <map>
#include <sstream>

#include "notation.h"
#include "perft.h"
#include "position.h"
#include "common/counts.h"

namespace stk::harness {

namespace {

std::map<std::string, std::uint64_t> reference_divide(UciProcess& ref, const std::string& fen,
                                                      const std::vector<std::string>& moves,
                                                      int depth) {
  std::string cmd = "position fen " + fen;
  if (!moves.empty()) {
    cmd += " moves";
    for (const auto& m : moves) cmd += " " + m;
  }
  ref.send(cmd);
  ref.send("go perft " + std::to_string(depth));
  std::map<std::string, std::uint64_t> out;
  auto lines = ref.read_until([](const std::string& l) { return l.starts_with("Nodes searched"); },
                              std::chrono::seconds(600));
  for (const std::string& l : lines) {
    auto colon = l.find(':');
    if (colon == std::string::npos || colon < 4 || colon > 5) continue;
    if (auto n = parse_count_field(std::string_view(l).substr(colon + 1)))
      out[l.substr(0, colon)] = *n;
  }
  return out;
}

}  // namespace

std::string BisectResult::describe() const {
  std::string s = "position fen " + fen;
  if (!moves.empty()) {
    s += " moves";
    for (const auto& m : moves) s += " " + m;
  }
  return s + "\n  " + finding;
}

BisectResult bisect_perft(const std::string& fen, int depth, UciProcess& reference) {
  BisectResult r;
  Position pos;
  pos.set(fen, true);
  r.fen = pos.fen();
  for (int d = depth; d >= 1; --d) {
    std::map<std::string, std::uint64_t> ours;
    for (auto& [m, n] : perft_divide(pos, d)) ours[to_uci(m)] = n;
    auto theirs = reference_divide(reference, r.fen, r.moves, d);
    std::string only_ours, only_theirs;
    for (auto& [m, n] : ours)
      if (!theirs.count(m)) only_ours += " " + m;
    for (auto& [m, n] : theirs)
      if (!ours.count(m)) only_theirs += " " + m;
    if (!only_ours.empty() || !only_theirs.empty()) {
      r.finding = "at " + pos.fen() +
                  ": moves generated only by stk:" + (only_ours.empty() ? " none" : only_ours) +
                  "; only by the reference:" + (only_theirs.empty() ? " none" : only_theirs);
      return r;
    }
    std::string next;
    for (auto& [m, n] : ours)
      if (theirs[m] != n) {
        next = m;
        r.finding = "perft " + std::to_string(d - 1) + " after " + m + ": stk " +
                    std::to_string(n) + ", reference " + std::to_string(theirs[m]);
        break;
      }
    if (next.empty()) {
      r.finding = "no differing move at depth " + std::to_string(d) +
                  " (the totals agree here: the mismatch is against the golden count)";
      return r;
    }
    r.moves.push_back(next);
    pos.make_move(*parse_uci(pos, next));
  }
  return r;
}

}  // namespace stk::harness
