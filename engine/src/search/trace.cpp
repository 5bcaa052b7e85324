#include "search/trace.h"

#include <cinttypes>

#include "notation.h"
#include "search/worker.h"

namespace stk::search {

namespace {

const char* bound_name(int b) {
  switch (b) {
    case BOUND_UPPER: return "upper";
    case BOUND_LOWER: return "lower";
    case BOUND_EXACT: return "exact";
    default: return "none";
  }
}

const char* return_name(int r) {
  switch (TraceReturn(r)) {
    case TraceReturn::Draw: return "draw";
    case TraceReturn::Horizon: return "horizon";
    case TraceReturn::MateDistance: return "mate-distance";
    case TraceReturn::NoMoves: return "no-moves";
    case TraceReturn::AllPruned: return "all-pruned";
    case TraceReturn::Stopped: return "stopped";
  }
  return "?";
}

const char* see_site_name(int s) {
  switch (TraceSeeSite(s)) {
    case TraceSeeSite::Ordering: return "ordering";
    case TraceSeeSite::PruneQuiet: return "prune-quiet";
    case TraceSeeSite::PruneNoisy: return "prune-noisy";
    case TraceSeeSite::LosingCapture: return "losing-capture";
    case TraceSeeSite::QSearch: return "qsearch";
  }
  return "?";
}

const char* child_name(int c) {
  switch (TraceChild(c)) {
    case TraceChild::Pv: return "pv";
    case TraceChild::NullWindow: return "null-window";
    case TraceChild::Reduced: return "reduced";
    case TraceChild::ReSearch: return "re-search";
    case TraceChild::PvReSearch: return "pv-re-search";
    case TraceChild::QSearch: return "qsearch";
  }
  return "?";
}

std::string move_text(Move m) {
  if (m == Move::none()) return "none";
  if (m == Move::null()) return "0000";
  return to_uci(m);
}

}  // namespace

std::string format_trace_record(const TraceRecord& r) {
  char buf[160];
  const std::string mv = move_text(r.move);
  const char* m = mv.c_str();
  const int p = r.ply;
  switch (r.event) {
    case TraceEvent::Iteration:
      std::snprintf(buf, sizeof buf, "%d iteration depth=%d window=[%d,%d]", p, r.a, r.b, r.c);
      break;
    case TraceEvent::RootScore: std::snprintf(buf, sizeof buf, "%d root-score %d", p, r.a); break;
    case TraceEvent::Node:
      std::snprintf(buf, sizeof buf, "%d node depth=%d window=[%d,%d] %s key=%016" PRIx64, p, r.a,
                    r.b, r.c,
                    (r.d & 1)   ? "pv"
                    : (r.d & 2) ? "cut"
                                : "all",
                    r.key);
      break;
    case TraceEvent::QNode:
      std::snprintf(buf, sizeof buf, "%d qnode window=[%d,%d] %s key=%016" PRIx64, p, r.b, r.c,
                    r.d ? "pv" : "non-pv", r.key);
      break;
    case TraceEvent::TtHit:
      std::snprintf(buf, sizeof buf, "%d tt-hit move=%s depth=%d bound=%s score=%d eval=%d", p, m,
                    r.a, bound_name(r.b), r.c, r.d);
      break;
    case TraceEvent::TtCut: std::snprintf(buf, sizeof buf, "%d tt-cut score=%d", p, r.a); break;
    case TraceEvent::Return:
      std::snprintf(buf, sizeof buf, "%d return %s value=%d", p, return_name(r.a), r.b);
      break;
    case TraceEvent::Eval:
      std::snprintf(buf, sizeof buf, "%d eval static=%d eval=%d improving=%d", p, r.a, r.b, r.c);
      break;
    case TraceEvent::StaticNull:
      std::snprintf(buf, sizeof buf, "%d static-null value=%d", p, r.a);
      break;
    case TraceEvent::NullMove:
      std::snprintf(buf, sizeof buf, "%d null-move reduction=%d depth=%d", p, r.a, r.b);
      break;
    case TraceEvent::NullResult:
      std::snprintf(buf, sizeof buf, "%d null-move-result score=%d %s", p, r.a,
                    r.b ? "cut" : "no-cut");
      break;
    case TraceEvent::Iir: std::snprintf(buf, sizeof buf, "%d iir depth=%d", p, r.a); break;
    case TraceEvent::Move:
      std::snprintf(buf, sizeof buf, "%d move %s n=%d depth=%d lmr-table=%d lmr-depth=%d check=%d",
                    p, m, r.a, r.e, r.b, r.c, r.d);
      break;
    case TraceEvent::Lmp: std::snprintf(buf, sizeof buf, "%d lmp %s n=%d", p, m, r.a); break;
    case TraceEvent::Futility:
      std::snprintf(buf, sizeof buf, "%d futility %s n=%d", p, m, r.a);
      break;
    case TraceEvent::SeePrune:
      std::snprintf(buf, sizeof buf, "%d see-prune %s n=%d", p, m, r.a);
      break;
    case TraceEvent::See:
      std::snprintf(buf, sizeof buf, "%d see %s site=%s threshold=%d result=%d", p, m,
                    see_site_name(r.c), r.a, r.b);
      break;
    case TraceEvent::Search:
      std::snprintf(buf, sizeof buf, "%d search %s n=%d depth=%d extension=%d", p, m, r.a, r.b,
                    r.c);
      break;
    case TraceEvent::Lmr:
      std::snprintf(buf, sizeof buf, "%d lmr %s reduction=%d depth=%d", p, m, r.a, r.b);
      break;
    case TraceEvent::Score:
      std::snprintf(buf, sizeof buf, "%d score %s child=%s value=%d", p, m, child_name(r.a), r.b);
      break;
    case TraceEvent::QSkip:
      std::snprintf(buf, sizeof buf, "%d qskip %s %s", p, m,
                    TraceQSkip(r.a) == TraceQSkip::Delta ? "delta" : "underpromotion");
      break;
    case TraceEvent::StandPat:
      std::snprintf(buf, sizeof buf, "%d stand-pat value=%d", p, r.a);
      break;
    case TraceEvent::Exit:
      std::snprintf(buf, sizeof buf, "%d exit best=%s value=%d bound=%s", p, m, r.a,
                    bound_name(r.b));
      break;
    default: std::snprintf(buf, sizeof buf, "%d ? %d", p, int(r.event)); break;
  }
  return buf;
}

void TraceWriter::trace(const TraceRecord& r) {
  ++records_;
  nodes_ += r.event == TraceEvent::Node || r.event == TraceEvent::QNode;
  const std::string line = format_trace_record(r);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fputc('\n', out_);
}

TraceSearchResult trace_search(Position& pos, int depth, std::size_t hash_mb, std::FILE* out) {
  FreshSearch fresh(hash_mb);
  TraceWriter writer(out);
  const Result r = fresh.run(pos, writer, depth, 0);
  std::fflush(out);
  return {r.nodes, writer.records()};
}

}  // namespace stk::search
