#include "commands/perft/perft_subject.h"

#include <chrono>
#include <csignal>
#include <thread>

#include "cli/cli.h"
#include "movegen.h"
#include "perft.h"

namespace stk::harness {

namespace {

bool has_underpromotion_capture(const Position& pos) {
  for (const ExtMove& e : MoveList(pos))
    if (e.move.kind() == PROMOTION && e.move.promotion() != QUEEN &&
        pos.piece_on(e.move.to()) != NO_PIECE)
      return true;
  return false;
}

// The engine's perft walk with a defect where an under-promotion capture is generated.
template <bool Hang>
std::uint64_t planted_perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (has_underpromotion_capture(pos)) {
    if constexpr (Hang)
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    else
      std::signal(SIGSEGV, SIG_DFL),
          std::raise(SIGSEGV);  // past a sanitizer's handler: a plain crash
  }
  MoveList list(pos);
  if (depth == 1) return list.size();
  std::uint64_t nodes = 0;
  for (const ExtMove& e : list) {
    pos.make_move(e.move);
    nodes += planted_perft<Hang>(pos, depth - 1);
    pos.unmake_move();
  }
  return nodes;
}

}  // namespace

const std::vector<std::string>& perft_plants() {
  static const std::vector<std::string> plants = {"none", "crash-underpromotion-capture",
                                                  "hang-underpromotion-capture"};
  return plants;
}

PerftFn perft_subject(const std::string& plant) {
  if (plant == "none") return &perft;
  if (plant == "crash-underpromotion-capture") return &planted_perft<false>;
  if (plant == "hang-underpromotion-capture") return &planted_perft<true>;
  throw UsageError("unknown --plant '" + plant + "'");
}

}  // namespace stk::harness
