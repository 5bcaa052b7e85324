// Board state: bitboards, mailbox, strict FEN, make/unmake with an undo stack, Zobrist keys.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bitboard.h"
#include "types.h"

namespace stk {

// What a move changed on the board: the record an incremental evaluator replays.
// from == NO_SQUARE means the piece appeared (promotion); to == NO_SQUARE means it left (capture).
struct DirtyPiece {
  int count = 0;
  Piece piece[3];
  Square from[3];
  Square to[3];
};

// Per-ply state, saved on the undo stack so that unmake restores it exactly.
struct StateInfo {
  Key key = 0;
  Key pawn_key = 0;
  int castling = NO_CASTLING;
  Square ep_square = NO_SQUARE;  // as read from FEN or set by a double push
  int rule50 = 0;
  int plies_from_null = 0;
  Piece captured = NO_PIECE;
  Move move = Move::none();
  Bitboard checkers = 0;
  Bitboard blockers[2] = {0, 0};  // pieces (either colour) shielding king c from a slider
  Bitboard pinners[2] = {0, 0};   // sliders of colour c pinning an enemy piece to its king
  DirtyPiece dirty;
};

// Thrown by Position::set with a message that says what is wrong with the FEN.
struct FenError {
  std::string message;
};

class Position {
 public:
  static constexpr const char* kStartFen =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  Position();

  // Strict parse: 6 fields (4 accepted when allow_missing_counters, for EPD). Returns the reason
  // on failure and leaves *this unchanged (a failed parse never half-loads).
  std::optional<std::string> set(const std::string& fen, bool allow_missing_counters = false);
  std::string fen() const;
  std::string pretty() const;

  // Board queries.
  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == NO_PIECE; }
  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & pieces(a, b); }
  int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }
  Color side_to_move() const { return side_; }
  int castling_rights() const { return st().castling; }
  Square ep_square() const { return st().ep_square; }
  int rule50() const { return st().rule50; }
  int game_ply() const { return game_ply_; }
  Key key() const { return st().key; }
  Key pawn_key() const { return st().pawn_key; }
  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers != 0; }
  Bitboard blockers_for_king(Color c) const { return st().blockers[c]; }
  Bitboard pinners(Color c) const { return st().pinners[c]; }
  Piece captured_piece() const { return st().captured; }
  Move last_move() const { return st().move; }
  const StateInfo& state() const { return st(); }
  // Depth of the undo stack (number of moves made since set()).
  int ply_count() const { return int(states_.size()) - 1; }

  Bitboard attackers_to(Square s, Bitboard occ) const;
  Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
  bool is_attacked_by(Color c, Square s, Bitboard occ) const;

  // Move properties (m must be legal in this position).
  bool is_capture(Move m) const {
    return (!empty(m.to()) && m.kind() != CASTLING) || m.kind() == EN_PASSANT;
  }
  bool is_capture_or_promotion(Move m) const { return is_capture(m) || m.kind() == PROMOTION; }
  Piece moved_piece(Move m) const { return board_[m.from()]; }
  bool gives_check(Move m) const;
  // Static exchange evaluation: does m win at least `threshold` in material?
  bool see_ge(Move m, int threshold) const;

  void make_move(Move m);
  void unmake_move();
  // Null move: passes the turn; records an empty DirtyPiece (evaluators treat it as a no-op).
  void make_null();
  void unmake_null();

  // Draw by fifty-move rule or repetition (twofold within the search tree after `ply`,
  // threefold before it), as engines usually score them.
  bool is_draw(int ply) const;
  bool has_repeated() const;
  bool has_non_pawn_material(Color c) const { return pieces(c) & ~pieces(PAWN) & ~pieces(KING); }

  // Hash recomputed from scratch: the reference the incremental key is tested against.
  Key compute_key() const;
  Key compute_pawn_key() const;
  // Debug invariant: bitboards, mailbox, keys and check info are mutually consistent.
  bool is_ok(std::string* why = nullptr) const;

  // Colour mirror: swap colours, flip ranks, flip side to move.
  Position mirrored() const;

 private:
  std::string placement(bool colour_mirror) const;
  const StateInfo& st() const { return states_.back(); }
  StateInfo& st() { return states_.back(); }
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void set_check_info();
  void update_blockers(Color c);
  bool ep_capture_possible(Square ep) const;

  Bitboard by_type_[6] = {};
  Bitboard by_color_[2] = {};
  Piece board_[64];
  Color side_ = WHITE;
  int game_ply_ = 0;
  int castling_mask_[64] = {};  // rights lost when a piece moves from or to the square
  std::vector<StateInfo> states_;
};

namespace zobrist {
extern Key psq[12][64];
extern Key castling[16];
extern Key ep_file[8];
extern Key side;
void init();
}  // namespace zobrist

// Call once before using positions (idempotent).
void init_engine();

// Material values used by SEE and move ordering (centipawns).
constexpr int kPieceValue[7] = {100, 320, 330, 500, 950, 0, 0};

}  // namespace stk
