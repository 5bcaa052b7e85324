#include "position.h"

#include <cctype>
#include <mutex>
#include <sstream>

#include "movegen.h"

namespace stk {

namespace zobrist {
Key psq[12][64];
Key castling[16];
Key ep_file[8];
Key side;

void init() {
  std::uint64_t s = 1070372;  // fixed seed: keys (and so hash-dependent search) are reproducible
  auto next = [&s] {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ULL;
  };
  for (auto& row : psq)
    for (Key& k : row) k = next();
  for (Key& k : ep_file) k = next();
  Key base[4];
  for (Key& k : base) k = next();
  for (int cr = 0; cr < 16; ++cr) {
    castling[cr] = 0;
    for (int i = 0; i < 4; ++i)
      if (cr & (1 << i)) castling[cr] ^= base[i];
  }
  side = next();
}
}  // namespace zobrist

void init_engine() {
  static std::once_flag once;
  std::call_once(once, [] {
    init_bitboards();
    zobrist::init();
  });
}

namespace {
constexpr const char* kPieceChars = "PNBRQKpnbrqk";

int piece_from_char(char c) {
  for (int i = 0; i < 12; ++i)
    if (kPieceChars[i] == c) return i;
  return -1;
}
}  // namespace

Position::Position() {
  init_engine();
  for (Piece& p : board_) p = NO_PIECE;
  states_.reserve(256);
  states_.emplace_back();
}

std::optional<std::string> Position::set(const std::string& fen, bool allow_missing_counters) {
  std::istringstream in(fen);
  std::vector<std::string> f;
  for (std::string tok; in >> tok;) f.push_back(tok);
  if (f.size() != 6 && !(allow_missing_counters && f.size() == 4))
    return "expected 6 fields (placement side castling ep halfmove fullmove), got " +
           std::to_string(f.size());

  Position p;  // built aside and swapped in only when valid: a bad FEN never half-loads
  // 1. Placement: 8 ranks of exactly 8 files each.
  int rank = 7, file = 0;
  for (std::size_t i = 0; i < f[0].size(); ++i) {
    char c = f[0][i];
    if (c == '/') {
      if (file != 8)
        return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
               " files, expected 8";
      if (--rank < 0) return "more than 8 ranks in piece placement";
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return "rank " + std::to_string(rank + 1) + " overflows 8 files";
    } else {
      int pc = piece_from_char(c);
      if (pc < 0) return std::string("bad piece letter '") + c + "' in piece placement";
      if (file >= 8) return "rank " + std::to_string(rank + 1) + " overflows 8 files";
      p.put_piece(Piece(pc), make_square(file, rank));
      ++file;
    }
  }
  if (rank != 0) return "piece placement has " + std::to_string(8 - rank) + " ranks, expected 8";
  if (file != 8) return "rank 1 has " + std::to_string(file) + " files, expected 8";

  for (Color c : {WHITE, BLACK}) {
    const char* name = c == WHITE ? "white" : "black";
    int kings = p.count(c, KING);
    if (kings != 1)
      return std::string(kings == 0 ? "missing " : "extra ") + name + " king (" +
             std::to_string(kings) + " found)";
    if (p.count(c, PAWN) > 8) return std::string("more than 8 ") + name + " pawns";
    if (popcount(p.pieces(c)) > 16) return std::string("more than 16 ") + name + " pieces";
  }
  if (p.pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) return "pawn on the first or last rank";

  // 2. Side to move.
  if (f[1] == "w") p.side_ = WHITE;
  else if (f[1] == "b") p.side_ = BLACK;
  else return "side to move must be 'w' or 'b', got '" + f[1] + "'";

  // 3. Castling rights: each must match a king and rook on their original squares.
  int cr = 0;
  if (f[2] != "-") {
    for (char c : f[2]) {
      int right;
      Color col;
      Square rook;
      switch (c) {
        case 'K': right = WHITE_OO, col = WHITE, rook = SQ_H1; break;
        case 'Q': right = WHITE_OOO, col = WHITE, rook = SQ_A1; break;
        case 'k': right = BLACK_OO, col = BLACK, rook = SQ_H8; break;
        case 'q': right = BLACK_OOO, col = BLACK, rook = SQ_A8; break;
        default: return std::string("bad castling character '") + c + "'";
      }
      if (cr & right) return std::string("castling right '") + c + "' repeated";
      Square ksq = col == WHITE ? SQ_E1 : SQ_E8;
      if (p.piece_on(ksq) != make_piece(col, KING))
        return std::string("castling right '") + c + "' but the king is not on " + square_name(ksq);
      if (p.piece_on(rook) != make_piece(col, ROOK))
        return std::string("castling right '") + c + "' but no rook on " + square_name(rook);
      cr |= right;
    }
  }
  p.st().castling = cr;
  p.castling_mask_[4] = WHITE_OO | WHITE_OOO;
  p.castling_mask_[7] = WHITE_OO;
  p.castling_mask_[0] = WHITE_OOO;
  p.castling_mask_[60] = BLACK_OO | BLACK_OOO;
  p.castling_mask_[63] = BLACK_OO;
  p.castling_mask_[56] = BLACK_OOO;

  // 4. En passant: only the square a double push just skipped over.
  if (f[3] != "-") {
    Square ep = parse_square(f[3]);
    if (ep == NO_SQUARE) return "bad en-passant square '" + f[3] + "'";
    Color us = p.side_;
    Square pushed = ep - pawn_push(us);  // the enemy pawn that just moved two squares
    if (relative_rank(us, ep) != 5)
      return "impossible en-passant square " + f[3] + ": wrong rank for the side to move";
    if (p.piece_on(pushed) != make_piece(~us, PAWN))
      return "impossible en-passant square " + f[3] + ": no pawn on " + square_name(pushed) +
             " that just moved two squares";
    if (!p.empty(ep) || !p.empty(ep + pawn_push(us)))
      return "impossible en-passant square " + f[3] + ": the squares the pawn crossed are occupied";
    p.st().ep_square = ep;
  }

  // 5. Move counters.
  auto parse_int = [](const std::string& s, int& out) {
    if (s.empty() || s.size() > 6) return false;
    for (char c : s)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = std::stoi(s);
    return true;
  };
  int halfmove = 0, fullmove = 1;
  if (f.size() == 6) {
    if (!parse_int(f[4], halfmove)) return "bad halfmove clock '" + f[4] + "'";
    if (!parse_int(f[5], fullmove) || fullmove < 1) return "bad fullmove number '" + f[5] + "'";
  }
  p.st().rule50 = halfmove;
  p.game_ply_ = 2 * (fullmove - 1) + (p.side_ == BLACK);

  // 6. Legality of the whole: the side not to move must not be in check.
  Color them = ~p.side_;
  if (p.is_attacked_by(p.side_, p.king_square(them), p.pieces()))
    return std::string("side not to move (") + (them == WHITE ? "white" : "black") +
           ") is in check";
  p.set_check_info();
  if (popcount(p.checkers()) > 2) return "side to move is in check by more than two pieces";
  p.st().key = p.compute_key();
  p.st().pawn_key = p.compute_pawn_key();

  *this = std::move(p);
  return std::nullopt;
}

// FEN piece placement, rank 8 first; `colour_mirror` swaps colours and flips ranks.
std::string Position::placement(bool colour_mirror) const {
  std::string out;
  for (int i = 0; i < 8; ++i) {
    int r = colour_mirror ? i : 7 - i;
    int empty_run = 0;
    for (int f = 0; f < 8; ++f) {
      Piece pc = board_[make_square(f, r)];
      if (pc == NO_PIECE) {
        ++empty_run;
        continue;
      }
      if (empty_run) out += char('0' + empty_run), empty_run = 0;
      out += kPieceChars[colour_mirror ? (pc + 6) % 12 : pc];
    }
    if (empty_run) out += char('0' + empty_run);
    if (i < 7) out += '/';
  }
  return out;
}

std::string Position::fen() const {
  std::string out = placement(false);
  out += side_ == WHITE ? " w " : " b ";
  int cr = st().castling;
  if (!cr) out += '-';
  if (cr & WHITE_OO) out += 'K';
  if (cr & WHITE_OOO) out += 'Q';
  if (cr & BLACK_OO) out += 'k';
  if (cr & BLACK_OOO) out += 'q';
  out += ' ' + (st().ep_square == NO_SQUARE ? std::string("-") : square_name(st().ep_square));
  out += ' ' + std::to_string(st().rule50) + ' ' + std::to_string(1 + game_ply_ / 2);
  return out;
}

std::string Position::pretty() const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    out += char('1' + r);
    out += ' ';
    for (int f = 0; f < 8; ++f) {
      Piece pc = board_[make_square(f, r)];
      out += pc == NO_PIECE ? '.' : kPieceChars[pc];
      out += ' ';
    }
    out += '\n';
  }
  out += "  a b c d e f g h\nFen: " + fen() + "\n";
  return out;
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard ft = square_bb(from) | square_bb(to);
  by_type_[type_of(p)] ^= ft;
  by_color_[color_of(p)] ^= ft;
  board_[from] = NO_PIECE;
  board_[to] = p;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
  return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
         (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) | (knight_attacks(s) & pieces(KNIGHT)) |
         (rook_attacks(s, occ) & pieces(ROOK, QUEEN)) |
         (bishop_attacks(s, occ) & pieces(BISHOP, QUEEN)) | (king_attacks(s) & pieces(KING));
}

bool Position::is_attacked_by(Color c, Square s, Bitboard occ) const {
  return (pawn_attacks(~c, s) & pieces(c, PAWN)) || (knight_attacks(s) & pieces(c, KNIGHT)) ||
         (king_attacks(s) & pieces(c, KING)) || (rook_attacks(s, occ) & pieces(c, ROOK, QUEEN)) ||
         (bishop_attacks(s, occ) & pieces(c, BISHOP, QUEEN));
}

void Position::update_blockers(Color c) {
  // Sliders of the enemy that would attack king c if exactly one piece stepped aside.
  StateInfo& s = st();
  Square ksq = king_square(c);
  s.blockers[c] = 0;
  s.pinners[~c] = 0;
  Bitboard snipers = ((rook_attacks(ksq, 0) & pieces(ROOK, QUEEN)) |
                      (bishop_attacks(ksq, 0) & pieces(BISHOP, QUEEN))) &
                     pieces(~c);
  Bitboard occ = pieces() ^ snipers;
  while (snipers) {
    Square sn = pop_lsb(snipers);
    Bitboard b = between_bb(ksq, sn) & ~square_bb(sn) & occ;
    if (b && !more_than_one(b)) {
      s.blockers[c] |= b;
      if (b & pieces(c)) s.pinners[~c] |= square_bb(sn);
    }
  }
}

void Position::set_check_info() {
  st().checkers = attackers_to(king_square(side_)) & pieces(~side_);
  update_blockers(WHITE);
  update_blockers(BLACK);
}

bool Position::ep_capture_possible(Square ep) const {
  return pawn_attacks(~side_, ep) & pieces(side_, PAWN);
}

Key Position::compute_key() const {
  Key k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  k ^= zobrist::castling[st().castling];
  if (st().ep_square != NO_SQUARE && ep_capture_possible(st().ep_square))
    k ^= zobrist::ep_file[file_of(st().ep_square)];
  if (side_ == BLACK) k ^= zobrist::side;
  return k;
}

Key Position::compute_pawn_key() const {
  Key k = 0;
  for (Bitboard b = pieces(PAWN); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  return k;
}

void Position::make_move(Move m) {
  // Copy the state forward, then apply the move; unmake just pops it.
  states_.push_back(states_.back());
  StateInfo& s = st();
  const StateInfo& prev = states_[states_.size() - 2];
  Color us = side_, them = ~us;
  Square from = m.from(), to = m.to();
  Piece pc = board_[from];
  Piece captured = m.kind() == EN_PASSANT ? make_piece(them, PAWN)
                   : m.kind() == CASTLING ? NO_PIECE
                                          : board_[to];
  Key k = prev.key ^ zobrist::side;
  s.move = m;
  s.captured = captured;
  s.rule50 = prev.rule50 + 1;
  s.plies_from_null = prev.plies_from_null + 1;
  s.dirty.count = 1;
  s.dirty.piece[0] = pc;
  s.dirty.from[0] = from;
  s.dirty.to[0] = to;
  ++game_ply_;

  if (prev.ep_square != NO_SQUARE) {
    // Only an ep square with a possible capture was hashed (side_ is still `us` here).
    if (ep_capture_possible(prev.ep_square)) k ^= zobrist::ep_file[file_of(prev.ep_square)];
    s.ep_square = NO_SQUARE;
  }

  if (m.kind() == CASTLING) {
    bool king_side = to > from;
    Square rfrom = king_side ? from + 3 : from - 4;
    Square rto = king_side ? from + 1 : from - 1;
    Piece rook = board_[rfrom];
    move_piece(from, to);
    move_piece(rfrom, rto);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to] ^ zobrist::psq[rook][rfrom] ^
         zobrist::psq[rook][rto];
    s.dirty.count = 2;
    s.dirty.piece[1] = rook;
    s.dirty.from[1] = rfrom;
    s.dirty.to[1] = rto;
  } else {
    if (captured != NO_PIECE) {
      Square cap_sq = m.kind() == EN_PASSANT ? to - pawn_push(us) : to;
      remove_piece(cap_sq);
      k ^= zobrist::psq[captured][cap_sq];
      if (type_of(captured) == PAWN) s.pawn_key ^= zobrist::psq[captured][cap_sq];
      s.rule50 = 0;
      s.dirty.count = 2;
      s.dirty.piece[1] = captured;
      s.dirty.from[1] = cap_sq;
      s.dirty.to[1] = NO_SQUARE;
    }
    move_piece(from, to);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
    if (type_of(pc) == PAWN) {
      s.rule50 = 0;
      s.pawn_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
      if ((to ^ from) == 16) {
        s.ep_square = to - pawn_push(us);
        // side_ is still us: the capture test looks from them
        if (pawn_attacks(us, s.ep_square) & pieces(them, PAWN))
          k ^= zobrist::ep_file[file_of(s.ep_square)];
      } else if (m.kind() == PROMOTION) {
        Piece promo = make_piece(us, m.promotion());
        remove_piece(to);
        put_piece(promo, to);
        k ^= zobrist::psq[pc][to] ^ zobrist::psq[promo][to];
        s.pawn_key ^= zobrist::psq[pc][to];
        // The pawn leaves the board; the promoted piece appears on `to`.
        s.dirty.to[0] = NO_SQUARE;
        s.dirty.piece[s.dirty.count] = promo;
        s.dirty.from[s.dirty.count] = NO_SQUARE;
        s.dirty.to[s.dirty.count] = to;
        ++s.dirty.count;
      }
    }
  }

  int cr_lost = s.castling & (castling_mask_[from] | castling_mask_[to]);
  if (cr_lost) {
    k ^= zobrist::castling[s.castling] ^ zobrist::castling[s.castling & ~cr_lost];
    s.castling &= ~cr_lost;
  }
  s.key = k;
  side_ = them;
  set_check_info();
}

void Position::unmake_move() {
  const StateInfo& s = st();
  Move m = s.move;
  side_ = ~side_;
  Color us = side_;
  Square from = m.from(), to = m.to();
  if (m.kind() == CASTLING) {
    bool king_side = to > from;
    Square rfrom = king_side ? from + 3 : from - 4;
    Square rto = king_side ? from + 1 : from - 1;
    move_piece(to, from);
    move_piece(rto, rfrom);
  } else {
    if (m.kind() == PROMOTION) {
      remove_piece(to);
      put_piece(make_piece(us, PAWN), to);
    }
    move_piece(to, from);
    if (s.captured != NO_PIECE)
      put_piece(s.captured, m.kind() == EN_PASSANT ? to - pawn_push(us) : to);
  }
  --game_ply_;
  states_.pop_back();
}

void Position::make_null() {
  states_.push_back(states_.back());
  StateInfo& s = st();
  s.key ^= zobrist::side;
  if (s.ep_square != NO_SQUARE) {
    if (ep_capture_possible(s.ep_square)) s.key ^= zobrist::ep_file[file_of(s.ep_square)];
    s.ep_square = NO_SQUARE;
  }
  s.move = Move::null();
  s.captured = NO_PIECE;
  s.rule50 += 1;
  s.plies_from_null = 0;
  s.dirty.count = 0;
  ++game_ply_;
  side_ = ~side_;
  set_check_info();
}

void Position::unmake_null() {
  side_ = ~side_;
  --game_ply_;
  states_.pop_back();
}

bool Position::gives_check(Move m) const {
  // Cheap and exact: try it on a copy of the occupancy.
  Color us = side_, them = ~us;
  Square ksq = king_square(them);
  Square from = m.from(), to = m.to();
  PieceType pt = type_of(board_[from]);
  Bitboard occ = (pieces() ^ square_bb(from)) | square_bb(to);
  if (m.kind() == PROMOTION) pt = m.promotion();
  if (m.kind() == EN_PASSANT) occ ^= square_bb(to - pawn_push(us));
  Square piece_sq = to;
  if (m.kind() == CASTLING) {
    bool king_side = to > from;
    Square rfrom = king_side ? from + 3 : from - 4;
    piece_sq = king_side ? from + 1 : from - 1;
    occ = (occ ^ square_bb(rfrom)) | square_bb(piece_sq);
    pt = ROOK;
  }
  // Direct check by the moved piece.
  if (pt == PAWN ? bool(pawn_attacks(us, piece_sq) & square_bb(ksq))
                 : bool(attacks_bb(pt, piece_sq, occ) & square_bb(ksq)))
    return true;
  // Discovered check by our sliders through the vacated squares.
  Bitboard ours = pieces(us) & occ & ~square_bb(piece_sq);
  if (m.kind() == CASTLING) ours &= ~square_bb(to);
  return (rook_attacks(ksq, occ) & ours & pieces(ROOK, QUEEN)) ||
         (bishop_attacks(ksq, occ) & ours & pieces(BISHOP, QUEEN));
}

bool Position::see_ge(Move m, int threshold) const {
  if (m.kind() != NORMAL) return 0 >= threshold;
  Square from = m.from(), to = m.to();
  int swap = (empty(to) ? 0 : kPieceValue[type_of(board_[to])]) - threshold;
  if (swap < 0) return false;
  swap = kPieceValue[type_of(board_[from])] - swap;
  if (swap <= 0) return true;

  Bitboard occ = pieces() ^ square_bb(from) ^ square_bb(to);
  Color stm = side_;
  Bitboard attackers = attackers_to(to, occ);
  int res = 1;
  while (true) {
    stm = ~stm;
    attackers &= occ;
    Bitboard stm_attackers = attackers & pieces(stm);
    if (!stm_attackers) break;
    // Pinned pieces may not recapture while their pinner stands.
    if (pinners(~stm) & occ) stm_attackers &= ~blockers_for_king(stm);
    if (!stm_attackers) break;
    res ^= 1;
    Bitboard bb;
    if ((bb = stm_attackers & pieces(PAWN))) {
      if ((swap = kPieceValue[PAWN] - swap) < res) break;
      occ ^= square_bb(lsb(bb));
      attackers |= bishop_attacks(to, occ) & pieces(BISHOP, QUEEN);
    } else if ((bb = stm_attackers & pieces(KNIGHT))) {
      if ((swap = kPieceValue[KNIGHT] - swap) < res) break;
      occ ^= square_bb(lsb(bb));
    } else if ((bb = stm_attackers & pieces(BISHOP))) {
      if ((swap = kPieceValue[BISHOP] - swap) < res) break;
      occ ^= square_bb(lsb(bb));
      attackers |= bishop_attacks(to, occ) & pieces(BISHOP, QUEEN);
    } else if ((bb = stm_attackers & pieces(ROOK))) {
      if ((swap = kPieceValue[ROOK] - swap) < res) break;
      occ ^= square_bb(lsb(bb));
      attackers |= rook_attacks(to, occ) & pieces(ROOK, QUEEN);
    } else if ((bb = stm_attackers & pieces(QUEEN))) {
      if ((swap = kPieceValue[QUEEN] - swap) < res) break;
      occ ^= square_bb(lsb(bb));
      attackers |= (bishop_attacks(to, occ) & pieces(BISHOP, QUEEN)) |
                   (rook_attacks(to, occ) & pieces(ROOK, QUEEN));
    } else {
      // King: can only capture if the other side has no attackers left.
      return (attackers & ~pieces(stm)) ? res ^ 1 : res;
    }
  }
  return bool(res);
}

bool Position::is_draw(int ply) const {
  if (st().rule50 > 99 && (!in_check() || MoveList(*this).size() > 0)) return true;
  // Repetition: walk back over reversible plies with the same side to move. An earlier
  // occurrence inside the search tree (closer than the root) is enough; before the root it
  // takes a second one (threefold).
  int end = std::min(st().rule50, st().plies_from_null);
  int n = int(states_.size()) - 1;
  int reps = 0;
  for (int i = 4; i <= end && n - i >= 0; i += 2) {
    if (states_[n - i].key != st().key) continue;
    if (i < ply || ++reps >= 2) return true;
  }
  return false;
}

bool Position::has_repeated() const {
  int end = std::min(st().rule50, st().plies_from_null);
  int n = int(states_.size()) - 1;
  for (int i = 4; i <= end && n - i >= 0; i += 2)
    if (states_[n - i].key == st().key) return true;
  return false;
}

bool Position::is_ok(std::string* why) const {
  auto fail = [why](const char* msg) {
    if (why) *why = msg;
    return false;
  };
  Bitboard all = 0;
  for (int pt = 0; pt < 6; ++pt) {
    if (all & by_type_[pt]) return fail("piece-type bitboards overlap");
    all |= by_type_[pt];
  }
  if (by_color_[WHITE] & by_color_[BLACK]) return fail("colour bitboards overlap");
  if (all != (by_color_[WHITE] | by_color_[BLACK])) return fail("type and colour union differ");
  for (Square s = SQ_A1; s <= SQ_H8; ++s) {
    Piece p = board_[s];
    bool on = all & square_bb(s);
    if ((p != NO_PIECE) != on) return fail("mailbox and bitboards disagree on occupancy");
    if (on && !(pieces(color_of(p), type_of(p)) & square_bb(s)))
      return fail("mailbox piece differs from bitboards");
  }
  if (count(WHITE, KING) != 1 || count(BLACK, KING) != 1) return fail("king count");
  if (st().key != compute_key()) return fail("incremental key differs from recomputed key");
  if (st().pawn_key != compute_pawn_key()) return fail("pawn key differs from recomputed key");
  if (st().checkers != (attackers_to(king_square(side_)) & pieces(~side_)))
    return fail("stale checkers");
  if (is_attacked_by(side_, king_square(~side_), pieces()))
    return fail("side not to move in check");
  return true;
}

Position Position::mirrored() const {
  // Rebuild through FEN so the mirror goes through the same validation as any input.
  int cr = st().castling;
  std::string castle;
  if (cr & BLACK_OO) castle += 'K';
  if (cr & BLACK_OOO) castle += 'Q';
  if (cr & WHITE_OO) castle += 'k';
  if (cr & WHITE_OOO) castle += 'q';
  if (castle.empty()) castle.push_back('-');  // (push_back: GCC 12 warns falsely on = "-")
  std::string ep = st().ep_square == NO_SQUARE ? "-" : square_name(flip_rank(st().ep_square));
  Position m;
  auto err = m.set(placement(true) + (side_ == WHITE ? " b " : " w ") + castle + " " + ep + " " +
                   std::to_string(st().rule50) + " " + std::to_string(1 + game_ply_ / 2));
  (void)err;
  return m;
}

}  // namespace stk
