// Core value types shared by every part of the engine.
#pragma once

#include <cstdint>
#include <string>

namespace stk {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

// Squares a1=0 .. h8=63 (sq = rank*8 + file), as SPEC-NNUE.md numbers them.
using Square = int;
constexpr Square NO_SQUARE = 64;

enum Color : int { WHITE = 0, BLACK = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types P N B R Q K = 0..5 (the spec's order); a piece is color*6 + type.
enum PieceType : int { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NO_PIECE_TYPE };
using Piece = int;
constexpr Piece NO_PIECE = 12;
constexpr Piece make_piece(Color c, PieceType pt) { return c * 6 + pt; }
constexpr PieceType type_of(Piece p) { return PieceType(p % 6); }
constexpr Color color_of(Piece p) { return Color(p / 6); }

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return rank * 8 + file; }
// Rank as seen by colour c (rank 0 is that side's back rank).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
constexpr Square flip_rank(Square s) { return s ^ 56; }
constexpr Square flip_file(Square s) { return s ^ 7; }
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

enum CastlingRight : int {
  NO_CASTLING = 0,
  WHITE_OO = 1,
  WHITE_OOO = 2,
  BLACK_OO = 4,
  BLACK_OOO = 8,
  ALL_CASTLING = 15
};

// Move: bits 0-5 from, 6-11 to, 12-13 promotion piece (N,B,R,Q minus 1), 14-15 kind.
// Castling is encoded king-from to king-to (e1g1), as UCI writes it.
enum MoveKind : int { NORMAL = 0, PROMOTION = 1, EN_PASSANT = 2, CASTLING = 3 };

class Move {
 public:
  Move() =
      default;  // trivial, so move lists cost nothing to declare; use Move::none() for "no move"
  constexpr explicit Move(std::uint16_t d) : data_(d) {}
  constexpr Move(Square from, Square to, MoveKind kind = NORMAL, PieceType promo = KNIGHT)
      : data_(std::uint16_t(from | (to << 6) | ((promo - KNIGHT) << 12) | (kind << 14))) {}

  constexpr Square from() const { return data_ & 63; }
  constexpr Square to() const { return (data_ >> 6) & 63; }
  constexpr MoveKind kind() const { return MoveKind(data_ >> 14); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_ok() const { return data_ != 0 && from() != to(); }
  constexpr bool operator==(const Move&) const = default;

  static constexpr Move none() { return Move(std::uint16_t(0)); }
  static constexpr Move null() { return Move(std::uint16_t(65)); }  // b1b1: never legal

 private:
  std::uint16_t data_;
};

std::string square_name(Square s);
// Parses "e4" -> 28; returns NO_SQUARE if malformed.
Square parse_square(const std::string& s);

}  // namespace stk
