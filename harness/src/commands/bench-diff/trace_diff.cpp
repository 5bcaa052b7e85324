#include "commands/bench-diff/trace_diff.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

namespace stk::harness::bench_diff {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < line.size()) {
    const std::size_t space = line.find(' ', at);
    const std::size_t end = space == std::string::npos ? line.size() : space;
    if (end > at) out.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// The record's ply (its first word), or -1 when it has none.
int ply_of(const std::vector<std::string>& w) {
  if (w.empty() || w[0].empty() || w[0].size() > 4) return -1;
  int v = 0;
  for (char c : w[0]) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string event_of(const std::vector<std::string>& w) { return w.size() > 1 ? w[1] : ""; }

// The name of the i-th word of a record: "key" of "key=value", "event" for the event, "move" for
// the move that follows the event of a move record, else "word N".
std::string field_name(const std::vector<std::string>& w, std::size_t i) {
  if (i == 0) return "ply";
  if (i == 1) return "event";
  if (i < w.size()) {
    const std::size_t eq = w[i].find('=');
    if (eq != std::string::npos) return w[i].substr(0, eq);
    if (i == 2) return "move";
  }
  return "word " + std::to_string(i);
}

std::string field_value(const std::vector<std::string>& w, std::size_t i) {
  if (i >= w.size()) return "";
  const std::size_t eq = w[i].find('=');
  return eq == std::string::npos ? w[i] : w[i].substr(eq + 1);
}

// The first word where two records differ (the longer record's extra word when one is a prefix).
std::size_t first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// Events that are a decision of their own: one side took it, the other did not.
const std::set<std::string>& decisions() {
  static const std::set<std::string> d = {"tt-cut", "static-null", "null-move", "iir",
                                          "lmp",    "futility",    "see-prune", "lmr",
                                          "qskip",  "stand-pat",   "return"};
  return d;
}

// The mechanism one record names by itself (its event and, where it matters, a field).
std::string mechanism_of_record(const std::vector<std::string>& w, const std::string& field) {
  const std::string e = event_of(w);
  if (e == "iteration" || e == "root-score") return "aspiration window (root)";
  if (e == "node") {
    if (field == "window") return "search window (node entry)";
    if (field == "depth") return "depth (node entry)";
    if (field == "key") return "position (node entry)";
    return "node type (node entry)";
  }
  if (e == "qnode") return "quiescence node entry";
  if (e == "tt-hit") return "TT contents";
  if (e == "tt-cut") return "TT cut";
  if (e == "return") return "early return (" + field_value(w, 2) + ")";
  if (e == "eval") return field == "improving" ? "improving flag" : "static evaluation";
  if (e == "static-null") return "static null move (reverse futility)";
  if (e == "null-move" || e == "null-move-result") return "null move";
  if (e == "iir") return "IIR (internal iterative reduction)";
  if (e == "move") {
    if (field == "lmr-table")
      return "LMR (reduction table entry r[" + field_value(w, 4) + "][" + field_value(w, 3) + "])";
    if (field == "lmr-depth") return "LMR depth (futility and SEE pruning margin)";
    if (field == "check") return "gives check";
    return "move ordering";
  }
  if (e == "lmp") return "LMP";
  if (e == "futility") return "futility";
  if (e == "see-prune") return "SEE pruning";
  if (e == "see") return "SEE (" + field_value(w, 3) + ")";
  if (e == "search") return field == "extension" ? "extension" : "child depth";
  if (e == "lmr") return "LMR";
  if (e == "score") return "search result (" + field_value(w, 3) + " child)";
  if (e == "qskip")
    return field_value(w, 3) == "delta" ? "delta pruning (qsearch)"
                                        : "underpromotion skip (qsearch)";
  if (e == "stand-pat") return "stand pat (qsearch)";
  if (e == "exit") return "node result";
  return e.empty() ? "?" : e;
}

}  // namespace

bool FdLineSource::next(std::string& line) {
  line.clear();
  while (true) {
    const char* start = buffer_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl) {
      const std::size_t n = std::size_t(static_cast<const char*>(nl) - start);
      line.append(start, n);
      begin_ += n + 1;
      return true;
    }
    line.append(start, end_ - begin_);
    begin_ = end_ = 0;
    if (eof_) return !line.empty();
    const ssize_t got = ::read(fd_, buffer_.data(), buffer_.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("reading a trace: ") + std::strerror(errno));
    }
    if (got == 0) eof_ = true;
    end_ = std::size_t(got);
  }
}

std::string mechanism_of(const std::string& base_record, const std::string& candidate_record) {
  const std::vector<std::string> a = words(base_record), b = words(candidate_record);
  const std::string ea = event_of(a), eb = event_of(b);
  const std::size_t i = first_difference(a, b);
  if (!ea.empty() && ea == eb) return mechanism_of_record(a, field_name(a, i));
  if (ea == "tt-hit" || eb == "tt-hit") return "TT contents";
  const bool da = decisions().count(ea) > 0, db = decisions().count(eb) > 0;
  if (da && !db) return mechanism_of_record(a, "");
  if (db && !da) return mechanism_of_record(b, "");
  if (ea.empty()) return mechanism_of_record(b, "") + " (the base trace ended)";
  if (eb.empty()) return mechanism_of_record(a, "") + " (the candidate trace ended)";
  return mechanism_of_record(a, "") + " vs " + mechanism_of_record(b, "");
}

TraceDiff diff_traces(LineSource& base, LineSource& candidate) {
  TraceDiff out;
  std::vector<PathStep> frames;  // frames[p]: the node at ply p on the current path
  std::string iteration, a, b;
  while (true) {
    const bool has_a = base.next(a), has_b = candidate.next(b);
    if (!has_a && !has_b) return out;
    ++out.records;
    if (!has_a || !has_b || a != b) {
      Divergence& d = out.divergence;
      out.diverged = true;
      d.record = out.records;
      d.base = has_a ? a : "<end of trace>";
      d.candidate = has_b ? b : "<end of trace>";
      d.iteration = iteration;
      const std::vector<std::string> wa = has_a ? words(a) : std::vector<std::string>{},
                                     wb = has_b ? words(b) : std::vector<std::string>{};
      const std::vector<std::string>& w = has_a ? wa : wb;
      d.ply = std::max(ply_of(w), 0);
      d.event = event_of(w);
      const std::size_t i = first_difference(wa, wb);
      d.field = field_name(wa.size() > i ? wa : wb, i);
      d.base_value = field_value(wa, i);
      d.candidate_value = field_value(wb, i);
      d.mechanism = mechanism_of(has_a ? a : "", has_b ? b : "");
      // A node entry's path is its ancestors and itself; another record's, its node's; an
      // iteration record starts a search of the root and belongs to no node yet.
      const bool entry = d.event == "node" || d.event == "qnode";
      const std::size_t keep = d.event == "iteration"
                                   ? 0
                                   : std::min(frames.size(), std::size_t(d.ply) + (entry ? 0 : 1));
      d.path.assign(frames.begin(), frames.begin() + std::ptrdiff_t(keep));
      if (entry) d.path.push_back(PathStep{d.ply, has_a ? a : b, ""});  // the base's, if it has one
      if (!d.path.empty()) d.path.back().move.clear();
      return out;
    }
    const std::vector<std::string> w = words(a);
    const int ply = ply_of(w);
    const std::string event = event_of(w);
    if (ply < 0) continue;
    if (event == "iteration") {
      frames.clear();
      iteration = a;
    } else if (event == "node" || event == "qnode") {
      frames.resize(std::size_t(ply));
      frames.push_back(PathStep{ply, a, ""});
      for (std::size_t p = 0; p < frames.size(); ++p) frames[p].ply = int(p);
      out.peak_path = std::max(out.peak_path, frames.size());
    } else if ((event == "move" || event == "null-move") && std::size_t(ply) < frames.size()) {
      frames[std::size_t(ply)].move = event == "null-move" ? "0000" : field_value(w, 2);
    }
  }
}

std::string path_text(const Divergence& d) {
  std::string out;
  for (const PathStep& s : d.path)
    if (!s.move.empty()) out += (out.empty() ? "" : " ") + s.move;
  return out.empty() ? "(root)" : out;
}

}  // namespace stk::harness::bench_diff
