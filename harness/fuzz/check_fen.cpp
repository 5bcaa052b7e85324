// FEN target: Position::set is the engine's only way in from text (UCI, EPD, every harness).
#include <string>

#include "fuzz_checks.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"

namespace stk::fuzz {

namespace {

void require_ok(const Position& pos, const std::string& context) {
  std::string why;
  require(pos.is_ok(&why), context + ": is_ok fails (" + why + ") at " + pos.fen());
}

// Every legal move: make keeps is_ok and gives a key equal to a recompute, unmake restores the
// FEN and key; NOISY + QUIET partition LEGAL. Then continues along one move picked by `choice`.
void walk(Position& pos, std::uint64_t choice, int plies) {
  for (int ply = 0; ply < plies; ++ply) {
    MoveList legal(pos), noisy(pos, NOISY), quiet(pos, QUIET);
    require(legal.size() == noisy.size() + quiet.size(),
            "generate<LEGAL> is not NOISY + QUIET at " + pos.fen());
    if (legal.size() == 0) return;
    const std::string fen = pos.fen();
    const Key key = pos.key();
    for (const ExtMove& e : legal) {
      require(parse_uci(pos, to_uci(e.move)) == e.move,
              "UCI round trip of " + to_uci(e.move) + " at " + fen);
      pos.make_move(e.move);
      require_ok(pos, "after " + to_uci(e.move));
      require(pos.key() == pos.compute_key(),
              "incremental key after " + to_uci(e.move) + " at " + fen);
      pos.unmake_move();
      require(pos.fen() == fen && pos.key() == key,
              "unmake of " + to_uci(e.move) + " does not restore " + fen);
    }
    pos.make_move(legal.begin()[choice % legal.size()].move);
    choice = choice / legal.size() + choice * 0x9E3779B97F4A7C15ULL;
  }
}

}  // namespace

bool check_fen(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::uint64_t choice = 0xcbf29ce484222325ULL;
  bool accepted_strict = false;
  for (std::uint8_t b : text) choice = (choice ^ b) * 0x100000001b3ULL;

  for (bool allow_missing_counters : {false, true}) {
    Position pos;
    pos.set(Position::kStartFen);
    const std::string before = pos.fen();
    if (auto err = pos.set(text, allow_missing_counters)) {
      require(!err->empty(), "rejected with an empty reason");
      require(pos.fen() == before && pos.is_ok(),
              "a rejected FEN changed the position (" + *err + ")");
      continue;
    }
    require_ok(pos, "after set");
    accepted_strict |= !allow_missing_counters;
    const std::string fen = pos.fen();
    Position again;
    auto err = again.set(fen);
    require(!err, "fen() output '" + fen + "' does not parse: " + err.value_or(""));
    require(again.fen() == fen && again.key() == pos.key(),
            "fen() round trip differs: " + fen + " vs " + again.fen());
    Position mirror = pos.mirrored();
    require_ok(mirror, "mirrored");
    require(mirror.mirrored().fen() == fen, "mirror twice is not the identity: " + fen);
    walk(pos, choice, 4);
  }
  return accepted_strict;
}

}  // namespace stk::fuzz
