// Implementation of Worker<Policy> (included from worker.h).
#pragma once

namespace stk::search {

// Shadow searches (audit policies only; every guard and hook below sits behind `if constexpr
// (Policy::kEnabled)` and costs the normal build nothing). An audit re-searches a decision
// with the same worker, so:
//   - it saves and restores the worker's node count, stop state, seldepth and budget through
//     shadow_access() (its nodes are counted apart and never reach the real node or time limit);
//   - the search reads and writes the policy's table(), whatever type that returns: the audit's
//     own while in_shadow(), so the real table is never written by a shadow search (an audit may
//     let it read the real table as it was before the decision's search: the entries that search
//     wrote are the answer under audit);
//   - on_search_begin/on_search_end bracket each judged search (the LMR reduced search, the
//     null-move search, unreduced null-window move searches and the move loop of non-PV nodes),
//     and on_quiet_stats / on_killers_reset precede every write to history, countermoves and
//     killers: an audit journals them to start a shadow or control search from the state of
//     the mark; on_search_entry lets it check the depth each shadow root was entered with;
//   - mechanisms that fabricate a bound score to signal the caller are disabled or tainted
//     while in_shadow(): (a) the value returned by a stopped search (0): the audit sets its own
//     node cap and discards a stopped shadow search; (b) mate-distance clamping (returns alpha
//     when no mate can beat it): off unless the audit replays the real search exactly
//     (shadow_skip_mate_distance); (c) the "everything pruned: return alpha" path: reported
//     through shadow_fabricated(), and the audit discards that shadow search (unreachable today:
//     move pruning needs a searched move); (d) TT cut-offs on entries the decision's own search
//     wrote: the audit's table.
//   - at the shadow search's root, null-move / static-null cut-offs are off for node-cutoff
//     audits, and internal iterative reduction is off unless the audit replays the real search
//     exactly (shadow_skip_iir).
// The table a search uses: always the real one in the normal build. An audit policy may return
// its own table type (same probe/store interface) by value.
template <class Policy>
decltype(auto) search_table(TranspositionTable& real, Policy& policy) {
  if constexpr (Policy::kEnabled) return policy.table(real);
  else return static_cast<TranspositionTable&>(real);
}

template <class Policy>
bool Worker<Policy>::out_of_budget() {
  if (stopped_) return true;
  if (budget_.node_limit && nodes_ >= budget_.node_limit) return stopped_ = true;
  if ((nodes_ & 1023) == 0) {
    if (stop_flag_ && stop_flag_->load(std::memory_order_relaxed)) return stopped_ = true;
    if (budget_.hard_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
            budget_.hard_s)
      return stopped_ = true;
  }
  return false;
}

template <class Policy>
void Worker<Policy>::score_moves(const Position& pos, ExtMove* begin, ExtMove* end, Move tt_move,
                                 const StackEntry* ss) const {
  Move counter = Move::none();
  if ((ss - 1)->moved_piece != NO_PIECE)
    counter = heur_.countermove[(ss - 1)->moved_piece][(ss - 1)->move.to()];
  Color us = pos.side_to_move();
  for (ExtMove* e = begin; e != end; ++e) {
    Move m = e->move;
    if (m == tt_move) {
      e->score = 1 << 30;
    } else if (pos.is_capture(m) || m.kind() == PROMOTION) {
      PieceType victim = m.kind() == EN_PASSANT ? PAWN
                         : pos.empty(m.to())    ? NO_PIECE_TYPE
                                                : type_of(pos.piece_on(m.to()));
      int mvv = kPieceValue[victim] + (m.kind() == PROMOTION ? kPieceValue[m.promotion()] : 0);
      int lva = type_of(pos.moved_piece(m));
      bool good = m.kind() == PROMOTION ? m.promotion() == QUEEN
                                        : see_ge(pos, m, 0, TraceSeeSite::Ordering, ss->ply);
      e->score = (good ? 1 << 28 : -(1 << 28)) + mvv * 8 - lva;
    } else if (m == ss->killers[0]) {
      e->score = (1 << 27) + 2;
    } else if (m == ss->killers[1]) {
      e->score = (1 << 27) + 1;
    } else if (m == counter) {
      e->score = 1 << 27;
    } else {
      e->score = heur_.history[us][m.from()][m.to()];
    }
  }
}

template <class Policy>
std::optional<int> Worker<Policy>::draw_or_horizon(const Position& pos, int ply, bool in_check) {
  if (pos.is_draw(ply)) {
    if constexpr (kTrace) trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::Draw));
    return 0;
  }
  if (ply >= kMaxPly - 1) {
    const int v = in_check ? 0 : eval_.evaluate(pos);
    if constexpr (kTrace)
      trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::Horizon), v);
    return v;
  }
  return std::nullopt;
}

template <class Policy>
void Worker<Policy>::update_quiet_stats(const Position& pos, StackEntry* ss, Move best, int depth,
                                        const Move* quiets, int quiet_count) {
  if constexpr (Policy::kEnabled) policy_.on_quiet_stats(*this, pos, ss, best, quiets, quiet_count);
  Color us = pos.side_to_move();
  if (ss->killers[0] != best) {
    ss->killers[1] = ss->killers[0];
    ss->killers[0] = best;
  }
  int bonus = std::min(16 * depth * depth + 32 * depth, 1600);
  heur_.update_history(us, best, bonus);
  for (int i = 0; i < quiet_count; ++i)
    if (quiets[i] != best) heur_.update_history(us, quiets[i], -bonus);
  if ((ss - 1)->moved_piece != NO_PIECE)
    heur_.countermove[(ss - 1)->moved_piece][(ss - 1)->move.to()] = best;
}

template <class Policy>
fh::Inputs Worker<Policy>::node_inputs(const StackEntry* ss, fh::Side side, int depth, int gap,
                                       bool improving, bool cut_node, const Position& pos) {
  fh::Inputs in;
  in.side = side;
  in.depth = std::min(depth, 255);
  in.gap = std::min(gap, 65535);
  in.improving = improving;
  in.opp_improving = ss->ply >= 3 && (ss - 1)->static_eval != kValueNone &&
                     (ss - 3)->static_eval != kValueNone &&
                     (ss - 1)->static_eval > (ss - 3)->static_eval;
  in.cut_node = cut_node;
  in.phase = std::min(popcount(pos.pieces(KNIGHT, BISHOP)) + 2 * popcount(pos.pieces(ROOK)) +
                          4 * popcount(pos.pieces(QUEEN)),
                      24);
  return in;
}

// The SEE ladder of the contract: the largest of 0, -100, -300, -500, -900 the move is worth
// at least, else -1200 (a hang estimate for quiets, the loss for losing captures). `below_zero`:
// the caller already knows SEE < 0 (a losing capture), so the first rung is skipped.
inline int see_ladder(const Position& pos, Move m, bool below_zero) {
  for (int t : {0, -100, -300, -500, -900})
    if ((t < 0 || !below_zero) && pos.see_ge(m, t)) return t;
  return -1200;
}

template <class Policy>
fh::Inputs Worker<Policy>::move_inputs(const fh::Inputs& node, const Position& pos,
                                       const StackEntry* ss, Move m, Move tt_move,
                                       bool losing_capture, int ordinal, int good_captures) const {
  fh::Inputs in = node;
  Move counter = (ss - 1)->moved_piece != NO_PIECE
                     ? heur_.countermove[(ss - 1)->moved_piece][(ss - 1)->move.to()]
                     : Move::none();
  in.tier = m == tt_move     ? fh::kTableMove
            : losing_capture ? fh::kLosingCapture
            : m == counter   ? fh::kCountermove
                             : fh::kQuiet;
  in.ordinal = std::min(ordinal, 255);
  in.good_captures = std::min(good_captures, 255);
  in.move_value = see_ladder(pos, m, losing_capture);
  Color us = pos.side_to_move();
  in.fh_cuts = heur_.fh_cuts[us][m.from()][m.to()];
  in.fh_tries = heur_.fh_tries[us][m.from()][m.to()];
  return in;
}

template <class Policy>
template <bool PvNode>
int Worker<Policy>::qsearch(Position& pos, StackEntry* ss, int alpha, int beta) {
  if (out_of_budget()) {
    if constexpr (kTrace)
      trace(TraceEvent::Return, ss->ply, Move::none(), int(TraceReturn::Stopped));
    return 0;
  }
  ++nodes_;
  if constexpr (Policy::kEnabled) policy_.on_node(*this, pos);
  if constexpr (kTrace)
    trace(TraceEvent::QNode, ss->ply, Move::none(), 0, alpha, beta, PvNode, pos.key());
  if (PvNode) ss->pv_length = 0;
  const int ply = ss->ply;
  seldepth_ = std::max(seldepth_, ply);
  const bool in_check = pos.in_check();
  if (const auto v = draw_or_horizon(pos, ply, in_check)) return *v;
  auto&& tt = search_table(tt_, policy_);

  // 1. Transposition table: quiescence entries are stored at depth 0.
  const TTEntry* tte = tt.probe(pos.key());
  Move tt_move = tte ? Move(tte->move) : Move::none();
  int tt_score = tte ? value_from_tt(tte->score, ply) : kValueNone;
  if constexpr (kTrace)
    if (tte) trace(TraceEvent::TtHit, ply, tt_move, tte->depth, tte->bound(), tt_score, tte->eval);
  if (!PvNode && tte && tte->depth >= 0 &&
      (tte->bound() == BOUND_EXACT || (tte->bound() == BOUND_LOWER && tt_score >= beta) ||
       (tte->bound() == BOUND_UPPER && tt_score <= alpha))) {
    if constexpr (kTrace) trace(TraceEvent::TtCut, ply, Move::none(), tt_score);
    return tt_score;
  }

  // 2. Stand pat: the side to move may decline every capture (not when in check).
  int best_score, static_eval = kValueNone;
  if (in_check) {
    best_score = -kValueInfinite;
  } else {
    static_eval = tte ? tte->eval : eval_.evaluate(pos);
    best_score = static_eval;
    if constexpr (kTrace) trace(TraceEvent::Eval, ply, Move::none(), static_eval, static_eval);
    if (best_score >= beta) {
      if (!tte)
        tt.store(pos.key(), Move::none(), value_to_tt(best_score, ply), static_eval, -1,
                 BOUND_LOWER);
      if constexpr (kTrace) trace(TraceEvent::StandPat, ply, Move::none(), best_score);
      return best_score;
    }
    alpha = std::max(alpha, best_score);
  }

  // 3. Captures and queen promotions; every evasion when in check.
  ExtMove list[256];
  ExtMove* end = in_check ? generate<LEGAL>(pos, list) : generate<NOISY>(pos, list);
  if (in_check && end == list) {
    if constexpr (kTrace)
      trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::NoMoves), mated_in(ply));
    return mated_in(ply);
  }
  score_moves(pos, list, end, tt_move, ss);
  Move best_move = Move::none();
  const int old_alpha = alpha;
  for (ExtMove* cur = list; cur != end; ++cur) {
    Move m = pick_next(cur, end);
    if constexpr (kTrace) trace(TraceEvent::Move, ply, m);
    if (!in_check) {
      if (m.kind() == PROMOTION && m.promotion() != QUEEN) {
        if constexpr (kTrace) trace(TraceEvent::QSkip, ply, m, int(TraceQSkip::Underpromotion));
        continue;
      }
      // Losing captures cannot raise a stand-pat score in a quiet continuation.
      if (!see_ge(pos, m, 0, TraceSeeSite::QSearch, ply)) continue;
      // Delta pruning: even winning the victim outright stays below alpha.
      int gain = m.kind() == EN_PASSANT ? kPieceValue[PAWN]
                 : pos.empty(m.to())    ? 0
                                        : kPieceValue[type_of(pos.piece_on(m.to()))];
      if (m.kind() != PROMOTION && static_eval + gain + 200 <= alpha) {
        if constexpr (kTrace) trace(TraceEvent::QSkip, ply, m, int(TraceQSkip::Delta));
        continue;
      }
    }
    do_move(pos, ss, m);
    (ss + 1)->ply = ply + 1;
    int score = -qsearch<PvNode>(pos, ss + 1, -beta, -alpha);
    undo_move(pos);
    if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::QSearch), score);
    if (stopped_) return 0;
    if (score > best_score) {
      best_score = score;
      if (score > alpha) {
        best_move = m;
        if (PvNode) ss->update_pv(m);
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  Bound b = best_score >= beta                 ? BOUND_LOWER
            : PvNode && best_score > old_alpha ? BOUND_EXACT
                                               : BOUND_UPPER;
  tt.store(pos.key(), best_move, value_to_tt(best_score, ply),
           static_eval == kValueNone ? 0 : static_eval, 0, b);
  if constexpr (kTrace) trace(TraceEvent::Exit, ply, best_move, best_score, b);
  return best_score;
}

template <class Policy>
template <bool PvNode>
int Worker<Policy>::search(Position& pos, StackEntry* ss, int alpha, int beta, int depth,
                           bool cut_node) {
  if constexpr (Policy::kEnabled) policy_.on_search_entry(ss, depth);
  if (depth <= 0) return qsearch<PvNode>(pos, ss, alpha, beta);
  if (out_of_budget()) {
    if constexpr (kTrace)
      trace(TraceEvent::Return, ss->ply, Move::none(), int(TraceReturn::Stopped));
    return 0;
  }
  ++nodes_;
  if constexpr (Policy::kEnabled) policy_.on_node(*this, pos);
  if constexpr (kTrace)
    trace(TraceEvent::Node, ss->ply, Move::none(), depth, alpha, beta,
          (PvNode ? 1 : 0) | (cut_node ? 2 : 0), pos.key());
  const int ply = ss->ply;
  const bool root = ply == 0;
  if (PvNode) ss->pv_length = 0;
  seldepth_ = std::max(seldepth_, ply);
  const bool in_check = pos.in_check();
  const Color us = pos.side_to_move();

  if (!root) {
    // 1. Draws, the ply horizon, and mate distance: no line can beat a mate already found.
    if (const auto v = draw_or_horizon(pos, ply, in_check)) return *v;
    bool mate_distance = true;
    if constexpr (Policy::kEnabled) mate_distance = !policy_.shadow_skip_mate_distance();
    if (mate_distance) {
      alpha = std::max(mated_in(ply), alpha);
      beta = std::min(mate_in(ply + 1), beta);
      if (alpha >= beta) {
        if constexpr (kTrace)
          trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::MateDistance), alpha);
        return alpha;
      }
    }
  }
  if constexpr (Policy::kEnabled) policy_.on_killers_reset(ss + 1);
  (ss + 1)->killers[0] = (ss + 1)->killers[1] = Move::none();
  auto&& tt = search_table(tt_, policy_);

  // 2. Transposition table cut-off (never at PV nodes, so the PV stays complete).
  const TTEntry* tte = tt.probe(pos.key());
  Move tt_move = tte ? Move(tte->move) : Move::none();
  int tt_score = tte ? value_from_tt(tte->score, ply) : kValueNone;
  if constexpr (kTrace)
    if (tte) trace(TraceEvent::TtHit, ply, tt_move, tte->depth, tte->bound(), tt_score, tte->eval);
  if (!PvNode && tte && tte->depth >= depth &&
      (tte->bound() == BOUND_EXACT || (tte->bound() == BOUND_LOWER && tt_score >= beta) ||
       (tte->bound() == BOUND_UPPER && tt_score <= alpha))) {
    if constexpr (kTrace) trace(TraceEvent::TtCut, ply, Move::none(), tt_score);
    return tt_score;
  }

  // 3. Static evaluation, refined by the table's bound when it is tighter.
  int eval = kValueNone;
  if (in_check) {
    ss->static_eval = kValueNone;
  } else {
    ss->static_eval = eval = tte ? tte->eval : eval_.evaluate(pos);
    if (tte && tt_score != kValueNone &&
        (tte->bound() & (tt_score > eval ? BOUND_LOWER : BOUND_UPPER)))
      eval = tt_score;
  }
  const bool improving = !in_check && ply >= 2 && (ss - 2)->static_eval != kValueNone &&
                         ss->static_eval > (ss - 2)->static_eval;
  if constexpr (kTrace)
    if (!in_check) trace(TraceEvent::Eval, ply, Move::none(), ss->static_eval, eval, improving);
  const DecisionContext node_ctx{ply, depth, alpha, beta, ss->static_eval, 0};
  bool node_cutoffs = true;
  if constexpr (Policy::kEnabled) node_cutoffs = !policy_.shadow_skip_node_cutoffs(ply);

  // 3b. Fail-high predictor population (docs/fail-high-predictor.md): null-window
  // nodes outside the mate window (bounds and the table-refined eval); `eval` is either <= alpha
  // (alpha side) or >= beta.
  constexpr bool kFh = Policy::kPredictor || Policy::kCollectFh;  // else none of this is compiled
  const bool fh_use = Policy::kPredictor && fh_->enabled;
  fh::Inputs fh_node{};
  bool fh_gate = false;
  [[maybe_unused]] long fh_id = -1;  // collection only: the logged node's id
  if (kFh && (Policy::kCollectFh || fh_use) && !PvNode && !in_check &&
      std::abs(alpha) < kValueMateInMaxPly && std::abs(beta) < kValueMateInMaxPly &&
      std::abs(eval) < kValueMateInMaxPly) {
    fh_gate = true;
    fh_node = node_inputs(ss, eval >= beta ? fh::kBeta : fh::kAlpha, depth,
                          eval >= beta ? eval - beta : alpha - eval, improving, cut_node, pos);
    if constexpr (Policy::kCollectFh) fh_id = policy_.fh_begin_node(depth);
  }

  if (!PvNode && !in_check && node_cutoffs && fh_id < 0) {
    // 4. Static null move: far enough above beta, assume it holds. The predictor, when on,
    // replaces the margin rule with its beta-side probability.
    if (fh_use) {
      if (fh_gate && fh_node.side == fh::kBeta && depth <= fh::Settings::kStaticNullDepth &&
          fh_->active().predict(fh_node) >= fh_static_null_p16_) {
        if constexpr (Policy::kEnabled) {
          policy_.on_node_cutoff(*this, shadow_access(), Mechanism::StaticNull, pos, ss, node_ctx,
                                 eval, cut_node, 0);
        }
        if constexpr (kTrace) trace(TraceEvent::StaticNull, ply, Move::none(), eval);
        return eval;
      }
    } else if (depth <= 5 && eval - 80 * (depth - improving) >= beta &&
               std::abs(beta) < kValueMateInMaxPly) {
      if constexpr (Policy::kEnabled) {
        policy_.on_node_cutoff(*this, shadow_access(), Mechanism::StaticNull, pos, ss, node_ctx,
                               eval, cut_node, 0);
      }
      if constexpr (kTrace) trace(TraceEvent::StaticNull, ply, Move::none(), eval);
      return eval;
    }
    // 5. Null move: give the opponent a free move; if we still beat beta, the node is a cut.
    if (depth >= 3 && eval >= beta && (ss - 1)->move != Move::null() &&
        pos.has_non_pawn_material(us) && std::abs(beta) < kValueMateInMaxPly) {
      int r = 3 + depth / 3 + std::min((eval - beta) / 200, 3);
      if constexpr (kTrace) trace(TraceEvent::NullMove, ply, Move::null(), r, depth - r);
      do_null(pos, ss);
      (ss + 1)->ply = ply + 1;
      if constexpr (Policy::kEnabled)
        policy_.on_search_begin(*this, JudgedSearch::NullMove, ss, depth);
      int score = -search<false>(pos, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
      undo_null(pos);
      if constexpr (kTrace)
        trace(TraceEvent::NullResult, ply, Move::null(), score, score >= beta ? 1 : 0);
      if (stopped_) return 0;
      if (score >= beta) {
        if (score >= kValueMateInMaxPly) score = beta;  // an unproven mate is only a bound
        if constexpr (Policy::kEnabled) {
          policy_.on_node_cutoff(*this, shadow_access(), Mechanism::NullMove, pos, ss, node_ctx,
                                 score, cut_node, depth - r);
          policy_.on_search_end(*this, JudgedSearch::NullMove, ss);
        }
        return score;
      }
      if constexpr (Policy::kEnabled) policy_.on_search_end(*this, JudgedSearch::NullMove, ss);
    }
  }

  // 6. Internal iterative reduction: without a table move, ordering is poor; search shallower.
  bool iir = true;
  if constexpr (Policy::kEnabled) iir = !policy_.shadow_skip_iir(ply);
  if (iir && !tt_move.is_ok() && depth >= 4 && (PvNode || cut_node)) {
    --depth;
    if constexpr (kTrace) trace(TraceEvent::Iir, ply, Move::none(), depth);
  }

  ExtMove list[256];
  ExtMove* end = generate<LEGAL>(pos, list);
  if (end == list) {
    if constexpr (kTrace)
      trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::NoMoves),
            in_check ? mated_in(ply) : 0);
    return in_check ? mated_in(ply) : 0;
  }
  score_moves(pos, list, end, tt_move, ss);

  const int old_alpha = alpha;
  int best_score = -kValueInfinite, move_count = 0, quiet_count = 0;
  Move best_move = Move::none();
  Move quiets[64];
  bool skip_quiets = false;
  [[maybe_unused]] int lmp_skipped = 0;  // audits only: ordinals of the quiets LMP skipped
  // The predictor's alpha side: per-move predictions need more than one legal move.
  const bool fh_alpha = fh_gate && fh_node.side == fh::kAlpha && end - list > 1;
  fh_node.legal = int(end - list);
  const bool fh_logged = fh_id >= 0 && (fh_alpha || fh_node.side == fh::kBeta);
  int good_captures_tried = 0;
  if constexpr (Policy::kEnabled)
    if (!PvNode && !in_check)
      policy_.on_search_begin(*this, JudgedSearch::Node, ss, node_ctx.depth);

  for (ExtMove* cur = list; cur != end; ++cur) {
    Move m = pick_next(cur, end);
    const bool quiet = !pos.is_capture_or_promotion(m);
    if (quiet && skip_quiets) {
      if constexpr (kTrace) {
        trace(TraceEvent::Move, ply, m);
        trace(TraceEvent::Lmp, ply, m);
      }
      if constexpr (Policy::kEnabled) {
        // Every quiet after the LMP decision is pruned by it too.
        const DecisionContext lmp_ctx{ply,  depth,           alpha,
                                      beta, ss->static_eval, move_count + ++lmp_skipped};
        const int would_be = depth - 1 + (pos.gives_check(m) && ply < 2 * root_depth_ ? 1 : 0);
        policy_.on_pruned(*this, shadow_access(), Mechanism::Lmp, pos, ss, m, lmp_ctx, would_be,
                          !cut_node);
      }
      continue;
    }
    ++move_count;
    const bool gives_check = pos.gives_check(m);
    const int lmr_depth =
        std::max(depth - 1 - reductions().r[std::min(depth, 63)][std::min(move_count, 63)], 0);
    const DecisionContext ctx{ply, depth, alpha, beta, ss->static_eval, move_count};
    if constexpr (kTrace)
      trace(TraceEvent::Move, ply, m, move_count,
            reductions().r[std::min(depth, 63)][std::min(move_count, 63)], lmr_depth, gives_check,
            0, depth);

    // 7. Move-level pruning, only once a non-losing score is secured (never at a logged node).
    if (!root && fh_id < 0 && best_score > -kValueMateInMaxPly && pos.has_non_pawn_material(us)) {
      if (quiet && !gives_check) {
        // Late move pruning: late quiet moves at shallow depth are almost never best.
        if (depth <= 8 && move_count >= (3 + depth * depth) / (2 - improving)) {
          if constexpr (kTrace) trace(TraceEvent::Lmp, ply, m, move_count);
          if constexpr (Policy::kEnabled) {
            const int would_be = depth - 1 + (gives_check && ply < 2 * root_depth_ ? 1 : 0);
            policy_.on_pruned(*this, shadow_access(), Mechanism::Lmp, pos, ss, m, ctx, would_be,
                              !cut_node);
          }
          skip_quiets = true;
          continue;
        }
        // Futility: a quiet move cannot lift a static eval this far below alpha.
        if (!in_check && lmr_depth <= 7 && ss->static_eval + 100 + 90 * lmr_depth <= alpha) {
          if constexpr (kTrace) trace(TraceEvent::Futility, ply, m, move_count);
          if constexpr (Policy::kEnabled) {
            const int would_be = depth - 1 + (gives_check && ply < 2 * root_depth_ ? 1 : 0);
            policy_.on_pruned(*this, shadow_access(), Mechanism::Futility, pos, ss, m, ctx,
                              would_be, !cut_node);
          }
          continue;
        }
        if (lmr_depth <= 6 &&
            !see_ge(pos, m, -30 * lmr_depth * lmr_depth, TraceSeeSite::PruneQuiet, ply)) {
          if constexpr (kTrace) trace(TraceEvent::SeePrune, ply, m, move_count);
          if constexpr (Policy::kEnabled) {
            const int would_be = depth - 1 + (gives_check && ply < 2 * root_depth_ ? 1 : 0);
            policy_.on_pruned(*this, shadow_access(), Mechanism::SeePrune, pos, ss, m, ctx,
                              would_be, !cut_node);
          }
          continue;
        }
      } else if (!quiet && depth <= 4 &&
                 !see_ge(pos, m, -100 * depth, TraceSeeSite::PruneNoisy, ply)) {
        if constexpr (kTrace) trace(TraceEvent::SeePrune, ply, m, move_count);
        if constexpr (Policy::kEnabled) {
          const int would_be = depth - 1 + (gives_check && ply < 2 * root_depth_ ? 1 : 0);
          policy_.on_pruned(*this, shadow_access(), Mechanism::SeePrune, pos, ss, m, ctx, would_be,
                            !cut_node);
        }
        continue;
      }
    }

    // 8. Check extension, bounded so that perpetual checks cannot run away.
    const int extension = gives_check && ply < 2 * root_depth_ ? 1 : 0;
    const int new_depth = depth - 1 + extension;
    const bool losing_capture = !quiet && !see_ge(pos, m, 0, TraceSeeSite::LosingCapture, ply);
    if constexpr (kTrace) trace(TraceEvent::Search, ply, m, move_count, new_depth, extension);
    // Gate 1: a quiet or losing capture, no check (so no extension), not a killer.
    const bool fh_move = fh_alpha && (quiet || losing_capture) && !gives_check &&
                         m != ss->killers[0] && m != ss->killers[1];
    // The inputs (an SEE ladder among them) only where they are used: every eligible move of a
    // logged node, and where late-move reduction consults the predictor.
    fh::Inputs fh_in{};
    if (fh_move && (fh_logged || (depth >= 3 && move_count > 1)))
      fh_in = move_inputs(fh_node, pos, ss, m, tt_move, losing_capture, move_count,
                          good_captures_tried);

    do_move(pos, ss, m);
    (ss + 1)->ply = ply + 1;
    // A null-window child leaves its PV untouched: never let update_pv copy a sibling's stale
    // line (a fail-high at the mate-distance bound is accepted without a PV re-search).
    if (PvNode) (ss + 1)->pv_length = 0;
    int score;
    if (PvNode && move_count == 1) {
      score = -search<true>(pos, ss + 1, -beta, -alpha, new_depth, false);
      if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::Pv), score);
    } else {
      // 9. Late move reductions, then PVS re-searches as needed.
      if (depth >= 3 && move_count > 1 + (PvNode ? 1 : 0) && (quiet || losing_capture) &&
          !(fh_move && fh_id >= 0)) {
        int r = reductions().r[std::min(depth, 63)][std::min(move_count, 63)];
        r += cut_node ? 1 : 0;
        r += improving ? 0 : 1;
        r -= PvNode ? 1 : 0;
        r -= gives_check ? 1 : 0;
        r -= quiet ? 0 : 1;
        r -= (m == ss->killers[0] || m == ss->killers[1]) ? 1 : 0;
        r -= quiet ? heur_.history[us][m.from()][m.to()] / 6000 : 0;
        if (fh_use && fh_move) {  // extra tiers where the move is predicted not to fail high
          const int p = fh_->active().predict(fh_in);
          r += (p < fh_lmr_tier1_p16_) + (p < fh_lmr_tier2_p16_);
        }
        r = std::clamp(r, 0, new_depth - 1);
        const int reduced = new_depth - r;
        if constexpr (kTrace) trace(TraceEvent::Lmr, ply, m, r, reduced);
        if constexpr (Policy::kEnabled)
          policy_.on_search_begin(*this, JudgedSearch::ReducedMove, ss, depth);
        score = -search<false>(pos, ss + 1, -alpha - 1, -alpha, reduced, true);
        if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::Reduced), score);
        if constexpr (Policy::kEnabled) {
          if (score <= alpha && r > 0 && !stopped_) {
            policy_.on_reduced_fail_low(*this, shadow_access(), pos, ss, m, ctx, r, reduced,
                                        new_depth, score, true, !cut_node);
          }
          policy_.on_search_end(*this, JudgedSearch::ReducedMove, ss);
        }
        if (score > alpha && reduced < new_depth) {
          score = -search<false>(pos, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
          if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::ReSearch), score);
        }
      } else {
        if constexpr (Policy::kEnabled)
          if (!PvNode) policy_.on_search_begin(*this, JudgedSearch::FullMove, ss, depth);
        score = -search<false>(pos, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::NullWindow), score);
        if constexpr (Policy::kEnabled)
          if (!PvNode) {
            if (score <= alpha && !stopped_) {
              policy_.on_full_fail_low(*this, shadow_access(), pos, ss, m, ctx, new_depth, score,
                                       !cut_node);
            }
            policy_.on_search_end(*this, JudgedSearch::FullMove, ss);
          }
      }
      if (PvNode && score > alpha && (root || score < beta)) {
        score = -search<true>(pos, ss + 1, -beta, -alpha, new_depth, false);
        if constexpr (kTrace) trace(TraceEvent::Score, ply, m, int(TraceChild::PvReSearch), score);
      }
    }
    undo_move(pos);
    if (stopped_) return 0;

    if (fh_gate) {
      if constexpr (Policy::kCollectFh)
        if (fh_logged && fh_move)
          policy_.fh_record(pos, fh_id, m, fh_in, score >= beta, fh_->active().predict(fh_in), ply,
                            eval);
      heur_.update_fh(us, m, score >= beta);
      good_captures_tried += !quiet && !losing_capture && score < beta;
    }
    if (score > best_score) {
      best_score = score;
      if (score > alpha) {
        best_move = m;
        if (PvNode) ss->update_pv(m);
        if (score >= beta) break;
        alpha = score;
      }
    }
    if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
  }
  if constexpr (Policy::kCollectFh)
    if (fh_logged && move_count > 0) {
      fh::Inputs whole = fh_node;
      whole.whole_node = true;
      policy_.fh_record(pos, fh_id, Move::none(), whole, best_score >= beta,
                        fh_->active().predict(whole), ply, eval);
    }

  if (move_count == 0) {  // everything pruned: a fail-low bound, nothing stored
    if constexpr (kTrace)
      trace(TraceEvent::Return, ply, Move::none(), int(TraceReturn::AllPruned), alpha);
    if constexpr (Policy::kEnabled) {
      if (policy_.in_shadow()) policy_.shadow_fabricated();  // the audit discards this shadow
      if (!PvNode && !in_check) policy_.on_search_end(*this, JudgedSearch::Node, ss);
    }
    return alpha;
  }
  if (best_score >= beta && !pos.is_capture_or_promotion(best_move))
    update_quiet_stats(pos, ss, best_move, depth, quiets, quiet_count);

  Bound b = best_score >= beta                 ? BOUND_LOWER
            : PvNode && best_score > old_alpha ? BOUND_EXACT
                                               : BOUND_UPPER;
  tt.store(pos.key(), best_move, value_to_tt(best_score, ply),
           ss->static_eval == kValueNone ? 0 : ss->static_eval, depth, b);
  if constexpr (kTrace) trace(TraceEvent::Exit, ply, best_move, best_score, b);
  if constexpr (Policy::kEnabled)
    if (!PvNode && !in_check) {
      if (best_score >= beta) {
        policy_.on_node_fail_high(*this, shadow_access(), pos, ss, node_ctx, best_score, cut_node);
      }
      policy_.on_search_end(*this, JudgedSearch::Node, ss);
    }
  return best_score;
}

template <class Policy>
Result Worker<Policy>::run(Position& pos, const Budget& budget, const std::atomic<bool>& stop_flag,
                           const std::function<void(const Iteration&)>& on_iteration) {
  budget_ = budget;
  stop_flag_ = &stop_flag;
  start_ = std::chrono::steady_clock::now();
  nodes_ = 0;
  stopped_ = false;
  tt_.new_search();
  eval_.reset(pos);

  Result result;
  MoveList root_moves(pos);
  if (root_moves.size() == 0) {
    result.score = pos.in_check() ? -kValueMate : 0;
    return result;
  }
  result.best = root_moves.begin()->move;  // fallback if not even depth 1 completes

  static thread_local StackEntry stack[kMaxPly + 10];
  StackEntry* ss = stack + 4;  // (ss-4)..(ss-1) are sentinels for history lookups
  for (StackEntry& e : stack) e = StackEntry{};
  for (int i = 0; i <= kMaxPly; ++i) ss[i].ply = i;

  int prev_score = 0;
  for (int depth = 1;; ++depth) {  // max_depth >= 1: depth 1 always runs
    root_depth_ = depth;
    seldepth_ = 0;
    int delta = 20;
    int alpha = -kValueInfinite, beta = kValueInfinite;
    if (depth >= 5) {
      alpha = std::max(prev_score - delta, -kValueInfinite);
      beta = std::min(prev_score + delta, kValueInfinite);
    }
    int score;
    while (true) {
      if constexpr (kTrace) trace(TraceEvent::Iteration, 0, Move::none(), depth, alpha, beta);
      score = search<true>(pos, ss, alpha, beta, depth, false);
      if constexpr (kTrace) trace(TraceEvent::RootScore, 0, Move::none(), score);
      if (stopped_) break;
      // Aspiration: widen the failing side and search again.
      if (score <= alpha) {
        beta = (alpha + beta) / 2;
        alpha = std::max(score - delta, -kValueInfinite);
      } else if (score >= beta) {
        beta = std::min(score + delta, kValueInfinite);
      } else {
        break;
      }
      delta += delta / 2;
    }
    if (stopped_) break;  // a partial iteration is discarded: results stay reproducible
    prev_score = score;
    Iteration it;
    it.depth = depth;
    it.seldepth = seldepth_;
    it.score = score;
    it.nodes = nodes_;
    it.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    it.hashfull = tt_.hashfull();
    it.pv.assign(ss->pv, ss->pv + ss->pv_length);
    if (it.pv.empty()) it.pv.push_back(result.best);
    result.best = it.pv[0];
    result.ponder = it.pv.size() > 1 ? it.pv[1] : Move::none();
    result.score = score;
    result.depth = depth;
    result.pv = it.pv;
    result.iterations.push_back(it);
    if (on_iteration) on_iteration(it);
    if (last_iteration(budget, depth, it.time_s)) break;
  }
  result.nodes = nodes_;
  result.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return result;
}

}  // namespace stk::search
