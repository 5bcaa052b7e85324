// Core value types shared by every part of the engine.
#pragma once

#include <cstdint>
#include <string>

namespace stk {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

// Squares a1=0 .. h8=63 (sq = rank*8 + file), as SPEC-NNUE.md numbers them. As in Stockfish's
// types.h, Square is an unscoped enum: it reads as an int wherever an index is wanted, but an int
// (or a Piece) becomes a Square only through an explicit Square(x).
// clang-format off
enum Square : int {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE = 64
};
// clang-format on
constexpr Square NO_SQUARE = SQ_NONE;

constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
// The distance between (or the sum of) two squares is an int, not a square.
constexpr int operator-(Square a, Square b) { return int(a) - int(b); }
constexpr int operator+(Square a, Square b) { return int(a) + int(b); }
constexpr Square& operator+=(Square& s, int d) { return s = s + d; }
constexpr Square& operator-=(Square& s, int d) { return s = s - d; }
constexpr Square& operator++(Square& s) { return s = Square(int(s) + 1); }
constexpr Square& operator--(Square& s) { return s = Square(int(s) - 1); }

enum Color : int { WHITE = 0, BLACK = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types P N B R Q K = 0..5 (the spec's order); a piece is color*6 + type.
enum PieceType : int { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NO_PIECE_TYPE };
// clang-format off
enum Piece : int {
  W_PAWN = 0, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 6, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  NO_PIECE = 12
};
// clang-format on
constexpr Piece make_piece(Color c, PieceType pt) { return Piece(c * 6 + pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p % 6); }
constexpr Color color_of(Piece p) { return Color(p / 6); }

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
// Rank as seen by colour c (rank 0 is that side's back rank).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
constexpr Square flip_file(Square s) { return Square(s ^ 7); }
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

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
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
