// An independent model of bench-diff's trace comparison (docs/harnesses/bench-diff.md "What it
// proves", "How" and "The trace"), written from the page: traces are generated as searches (a
// tree of node records, the moves made from them, and the records a node writes), and the
// generator itself knows, for every record, the path from the root to the node it belongs to. A
// second trace is the first one changed at one record (altered, dropped, inserted, or the trace cut
// there, on either side); the model's answer: the divergence is that record, its ply, the
// iteration it lies in, the path the generator recorded, the first differing word and, where the
// page names one, the mechanism.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "commands/bench-diff/bench_diff.h"
#include "commands/bench-diff/trace_diff.h"

namespace bench_diff_model {

namespace bd = stk::harness::bench_diff;

// One generated record and, from the generator, the path of the node it belongs to: every
// ancestor's node record with the move made from it towards this node, then the node itself.
struct Record {
  std::string text;
  std::vector<bd::PathStep> path;
};

struct Trace {
  std::vector<Record> records;
  std::size_t deepest = 0;  // the most plies on any path (the node records' ply + 1)
};

class TraceGenerator {
 public:
  explicit TraceGenerator(std::uint32_t seed) : rng_(seed) {}

  Trace generate() {
    const int iterations = pick(1, 3);
    for (int it = 1; it <= iterations; ++it) {
      const int lo = pick(-50, 0), hi = pick(1, 50);
      emit(0,
           "iteration depth=" + std::to_string(it) + " window=[" + std::to_string(lo) + "," +
               std::to_string(hi) + "]",
           {});
      std::vector<bd::PathStep> path;
      node(0, it + 1, path);
      emit(0, "root-score " + std::to_string(pick(-300, 300)), root_);  // the root's, ended
    }
    return trace_;
  }

 private:
  std::mt19937 rng_;
  Trace trace_;
  std::vector<bd::PathStep> root_;  // the last root node (root-score belongs to it)

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  std::string move_text() {
    static const char* files = "abcdefgh";
    return std::string{files[pick(0, 7)], char('1' + pick(0, 7)), files[pick(0, 7)],
                       char('1' + pick(0, 7))};
  }

  void emit(int ply, const std::string& body, std::vector<bd::PathStep> path) {
    if (!path.empty()) path.back().move.clear();
    trace_.records.push_back({std::to_string(ply) + " " + body, std::move(path)});
  }

  // A node at `ply`: its entry record, some records of its own, its moves (each searched in a child
  // node), then its exit. `path` holds the ancestors, each with the move towards this node.
  void node(int ply, int depth, std::vector<bd::PathStep>& path) {
    const bool quiescence = depth <= 0;
    std::ostringstream key;
    key << std::hex << rng_() << rng_();
    const std::string entry = quiescence
                                  ? "qnode window=[-1,0] non-pv key=" + key.str()
                                  : "node depth=" + std::to_string(depth) + " window=[-" +
                                        std::to_string(pick(1, 99)) + ",0] cut key=" + key.str();
    path.push_back({ply, std::to_string(ply) + " " + entry, ""});
    trace_.deepest = std::max(trace_.deepest, path.size());
    if (ply == 0) root_ = {path.back()};
    emit(ply, entry, path);
    if (pick(0, 2) == 0) emit(ply, "tt-hit move=0000 depth=1 bound=upper score=3 eval=4", path);
    emit(ply,
         "eval static=" + std::to_string(pick(-200, 200)) +
             " eval=0 improving=" + std::to_string(pick(0, 1)),
         path);
    if (!quiescence && ply > 0 && pick(0, 3) == 0) {
      emit(ply, "null-move reduction=3 depth=" + std::to_string(depth - 3), path);
      path.back().move = "0000";
      node(ply + 1, depth - 3, path);
      emit(ply, "null-move-result score=" + std::to_string(pick(-99, 99)) + " no-cut", path);
    }
    const int moves = ply >= 6 ? 0 : pick(0, quiescence ? 2 : 3);
    for (int n = 1; n <= moves; ++n) {
      const std::string mv = move_text();
      emit(ply,
           "move " + mv + " n=" + std::to_string(n) + " depth=" + std::to_string(depth) +
               " lmr-table=" + std::to_string(pick(0, 3)) +
               " lmr-depth=" + std::to_string(pick(0, 5)) + " check=0",
           path);
      if (!quiescence) {
        if (pick(0, 3) == 0) {  // pruned: no child
          emit(ply, std::string(pick(0, 1) ? "lmp " : "futility ") + mv + " n=" + std::to_string(n),
               path);
          continue;
        }
        emit(ply,
             "search " + mv + " n=" + std::to_string(n) + " depth=" + std::to_string(depth - 1) +
                 " extension=0",
             path);
      }
      path.back().move = mv;
      node(ply + 1, depth - 1, path);
      emit(ply, "score " + mv + " null-window " + std::to_string(pick(-99, 99)), path);
    }
    emit(ply, "exit 0000 " + std::to_string(pick(-99, 99)) + " upper", path);
    path.pop_back();
  }
};

// A stream of the texts given.
class Lines : public bd::LineSource {
 public:
  explicit Lines(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  bool next(std::string& line) override {
    if (at_ == lines_.size()) return false;
    line = lines_[at_++];
    return true;
  }

 private:
  std::vector<std::string> lines_;
  std::size_t at_ = 0;
};

std::vector<std::string> texts(const Trace& t) {
  std::vector<std::string> out;
  for (const Record& r : t.records) out.push_back(r.text);
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> w;
  std::istringstream in(s);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// The page's naming of a record's word: "ply", "event", the key of key=value, "move" for the bare
// third word (the move of a move record), else "word N"; its value is what follows '=' or the word.
std::string word_name(const std::vector<std::string>& w, std::size_t i) {
  if (i == 0) return "ply";
  if (i == 1) return "event";
  if (i < w.size() && w[i].find('=') != std::string::npos) return w[i].substr(0, w[i].find('='));
  if (i == 2 && i < w.size()) return "move";
  return "word " + std::to_string(i);
}

std::string word_value(const std::vector<std::string>& w, std::size_t i) {
  if (i >= w.size()) return "";
  const auto eq = w[i].find('=');
  return eq == std::string::npos ? w[i] : w[i].substr(eq + 1);
}

// What the page says a decision taken on one side only is called.
std::string decision_name(const std::string& event) {
  if (event == "lmp") return "LMP";
  if (event == "futility") return "futility";
  if (event == "tt-cut") return "TT cut";
  if (event == "static-null") return "static null move";
  if (event == "iir") return "IIR";
  if (event == "lmr") return "LMR";
  return "";
}

}  // namespace bench_diff_model

// MODEL bench-diff-trace-divergence
// checks: harness/src/commands/bench-diff/trace_diff.cpp  (the first record where two search traces part, its path from the root, field and mechanism)
// contract: docs/harnesses/bench-diff.md#what-it-proves
// planted: ci/mutants/model-bench-diff-trace-divergence.patch  (a node entry's path keeps the previous sibling's frame at its ply)
TEST_CASE("model: bench-diff parts generated traces at the first changed record with its path",
          "[model][bench-diff]") {
  using namespace bench_diff_model;
  rc::prop("equal traces never part and every record is read", [] {
    const Trace t = TraceGenerator(*rc::gen::arbitrary<std::uint32_t>()).generate();
    Lines a(texts(t)), b(texts(t));
    const bd::TraceDiff d = bd::diff_traces(a, b);
    RC_ASSERT_FALSE(d.diverged);
    RC_ASSERT(d.records == t.records.size());
    RC_ASSERT(d.peak_path == t.deepest);
  });
  rc::prop("a trace changed at one record parts there, on the generator's path", [] {
    const Trace t = TraceGenerator(*rc::gen::arbitrary<std::uint32_t>()).generate();
    const std::size_t n = t.records.size();
    const std::size_t k = *rc::gen::inRange<std::size_t>(0, n);
    const int change = *rc::gen::inRange(0, 5);  // alter, drop, insert, cut candidate, cut base
    std::vector<std::string> base = texts(t), cand = base;
    const std::string inserted = std::to_string(*rc::gen::inRange(0, 8)) + " " +
                                 *rc::gen::element<std::string>("lmp", "futility", "tt-cut", "iir",
                                                                "static-null", "lmr") +
                                 " x";
    if (k == n) RC_PRE(change == 2 || change == 4);  // only an extra record can follow the end
    switch (change) {
      case 0: cand[k] += " changed=1"; break;
      case 1:
        RC_PRE(k + 1 < n && base[k] != base[k + 1]);
        cand.erase(cand.begin() + std::ptrdiff_t(k));
        break;
      case 2: cand.insert(cand.begin() + std::ptrdiff_t(k), inserted); break;
      case 3: cand.resize(k); break;
      case 4:
        RC_PRE(k < n);
        base.resize(k);
        break;
    }
    Lines a(base), b(cand);
    const bd::TraceDiff d = bd::diff_traces(a, b);
    RC_ASSERT(d.diverged);
    const bd::Divergence& v = d.divergence;
    RC_ASSERT(v.record == k + 1);
    RC_ASSERT(d.records == k + 1);
    const bool base_has = k < base.size(), cand_has = k < cand.size();
    RC_ASSERT(v.base == (base_has ? base[k] : std::string("<end of trace>")));
    RC_ASSERT(v.candidate == (cand_has ? cand[k] : std::string("<end of trace>")));
    // The iteration it lies in: the last iteration record read before it.
    std::string iteration;
    for (std::size_t i = 0; i < k; ++i)
      if (split(t.records[i].text)[1] == "iteration") iteration = t.records[i].text;
    RC_ASSERT(v.iteration == iteration);
    // The record whose node the divergence belongs to: the generated record at k (the base's,
    // or the candidate's where the base ended); an inserted record after the end has none.
    if (k < n) {
      const Record& at = t.records[k];
      RC_ASSERT(v.ply == std::stoi(split(at.text)[0]));
      RC_ASSERT(v.path.size() == at.path.size());
      for (std::size_t p = 0; p < at.path.size(); ++p) {
        RC_ASSERT(v.path[p].node == at.path[p].node);
        RC_ASSERT(v.path[p].move == at.path[p].move);
      }
    }
    // The first differing word, named and valued as the page says.
    const auto wa = split(base_has ? base[k] : ""), wb = split(cand_has ? cand[k] : "");
    std::size_t i = 0;
    while (i < wa.size() && i < wb.size() && wa[i] == wb[i]) ++i;
    RC_ASSERT(v.field == word_name(i < wa.size() ? wa : wb, i));
    RC_ASSERT(v.base_value == word_value(wa, i));
    RC_ASSERT(v.candidate_value == word_value(wb, i));
    // A decision inserted on the candidate's side only is the mechanism (unless the base's record
    // is a decision too, or a table hit: then the page names both, or the table's contents).
    if (change == 2 && base_has) {
      const std::string eb = split(base[k])[1], ec = split(inserted)[1];
      if (decision_name(eb).empty() && eb != "tt-hit" && eb != "return" && eb != "null-move")
        RC_ASSERT(v.mechanism.find(decision_name(ec)) != std::string::npos);
    }
  });
}

namespace bench_diff_model {

// A record of each event, as `stk bench 7 --trace 3` writes them.
const std::vector<std::string> kRecords = {
    "0 iteration depth=1 window=[-32001,32001]",
    "0 root-score 121",
    "0 node depth=1 window=[-32001,32001] pv key=a2189827eaf933b5",
    "2 qnode window=[-31998,31999] pv key=3e814064d51a9058",
    "0 tt-hit move=b4f4 depth=1 bound=exact score=121 eval=-38",
    "4 tt-cut score=18",
    "7 return draw value=0",
    "19 return no-moves value=-31981",
    "0 eval static=-38 eval=-38 improving=0",
    "2 static-null value=140",
    "2 null-move reduction=4 depth=0",
    "2 null-move-result score=110 no-cut",
    "4 iir depth=3",
    "0 move b4f4 n=1 depth=1 lmr-table=0 lmr-depth=0 check=1",
    "3 move h4g5 n=7 depth=5 lmr-table=2 lmr-depth=3 check=0",
    "1 lmp h4g5 n=2",
    "2 futility a5a6 n=2",
    "1 see-prune h5b5 n=3",
    "0 see b4f4 site=ordering threshold=0 result=1",
    "3 see g3g2 site=qsearch threshold=-50 result=0",
    "0 search b4f4 n=1 depth=1 extension=1",
    "0 lmr e2e3 reduction=1 depth=1",
    "1 score h4g3 child=pv value=-121",
    "2 score e2e4 child=null-window value=15",
    "3 qskip g3g2 delta",
    "3 qskip a7a8n underpromotion",
    "1 stand-pat value=70",
    "2 exit best=none value=121 bound=upper"};

// The value of `key=value` in record `w`, or "".
std::string value_of(const std::vector<std::string>& w, const std::string& key) {
  for (const std::string& x : w)
    if (x.rfind(key + "=", 0) == 0) return x.substr(key.size() + 1);
  return "";
}

// docs/harnesses/bench-diff.md, "The mechanism": the name for two records of the same event that
// first differ at the word named `field` (the base record `w`'s values). The page's table, row by
// row: a fixed name, or one chosen by the field, or one that quotes a value.
std::string documented_mechanism(const std::vector<std::string>& w, const std::string& field) {
  static const std::map<std::string, std::string> fixed = {
      {"iteration", "aspiration window (root)"},
      {"root-score", "aspiration window (root)"},
      {"qnode", "quiescence node entry"},
      {"tt-hit", "TT contents"},
      {"tt-cut", "TT cut"},
      {"static-null", "static null move (reverse futility)"},
      {"null-move", "null move"},
      {"null-move-result", "null move"},
      {"iir", "IIR (internal iterative reduction)"},
      {"lmp", "LMP"},
      {"futility", "futility"},
      {"see-prune", "SEE pruning"},
      {"lmr", "LMR"},
      {"stand-pat", "stand pat (qsearch)"},
      {"exit", "node result"}};
  static const std::map<std::string, std::map<std::string, std::string>> by_field = {
      {"node",
       {{"window", "search window (node entry)"},
        {"depth", "depth (node entry)"},
        {"key", "position (node entry)"},
        {"", "node type (node entry)"}}},
      {"eval", {{"improving", "improving flag"}, {"", "static evaluation"}}},
      {"search", {{"extension", "extension"}, {"", "child depth"}}},
      {"move",
       {{"lmr-depth", "LMR depth (futility and SEE pruning margin)"},
        {"check", "gives check"},
        {"", "move ordering"}}}};
  const std::string& e = w[1];
  if (auto it = fixed.find(e); it != fixed.end()) return it->second;
  if (e == "move" && field == "lmr-table")
    return "LMR (reduction table entry r[" + value_of(w, "depth") + "][" + value_of(w, "n") + "])";
  if (auto it = by_field.find(e); it != by_field.end())
    return it->second.count(field) ? it->second.at(field) : it->second.at("");
  const auto word = [&](std::size_t i) { return i < w.size() ? w[i] : std::string(); };
  const std::map<std::string, std::string> quoting = {
      {"return", "early return (" + word(2) + ")"},
      {"see", "SEE (" + value_of(w, "site") + ")"},
      {"score", "search result (" + value_of(w, "child") + " child)"},
      {"qskip", word(3) == "delta" ? "delta pruning (qsearch)" : "underpromotion skip (qsearch)"}};
  return quoting.count(e) ? quoting.at(e) : "no such event";
}

}  // namespace bench_diff_model

// MODEL bench-diff-mechanism-names
// checks: harness/src/commands/bench-diff/trace_diff.cpp  (the mechanism named for two records of one event that differ)
// contract: docs/harnesses/bench-diff.md#how
// planted: ci/mutants/bench-diff-score-mechanism-lost.patch  (a child search's result named by its bare event)
TEST_CASE("model: bench-diff names each event's mechanism as documented field by field",
          "[model][bench-diff]") {
  using namespace bench_diff_model;
  // Every record of every event, changed at each of its fields in turn (its value, or a word
  // added after the last), against the documented name: all of them in each generated case.
  rc::prop("each event and field, any changed value", [] {
    const std::string extra = std::to_string(*rc::gen::inRange(0, 1000));
    for (const std::string& base : kRecords) {
      const std::vector<std::string> w = split(base);
      for (std::size_t i = 2; i <= w.size(); ++i) {
        std::vector<std::string> changed = w;
        if (i < w.size()) changed[i] += extra;
        else changed.push_back("x=" + extra);
        std::string candidate = changed[0];
        for (std::size_t k = 1; k < changed.size(); ++k) candidate += " " + changed[k];
        const std::string field = word_name(w, i);  // the base record's name of that word
        RC_ASSERT(bd::mechanism_of(base, candidate) == documented_mechanism(w, field));
      }
    }
  });
  // Every event appears: a record list that lost one would pass the property without it.
  std::set<std::string> events;
  for (const std::string& r : kRecords) events.insert(split(r)[1]);
  CHECK(events.size() == 23);
}

// MODEL bench-diff-first-position
// checks: harness/src/commands/bench-diff/bench_diff_command.cpp  (the per-position bench counts read and the first position whose counts differ)
// contract: docs/harnesses/bench-diff.md#how
// planted: ci/mutants/model-bench-diff-first-position.patch  (counts of different lengths compared only over the shorter)
TEST_CASE("model: bench-diff reads generated bench outputs and finds the first differing position",
          "[model][bench-diff]") {
  using namespace bench_diff_model;
  auto output = [](const std::vector<std::uint64_t>& counts, std::uint64_t total) {
    std::string s = "info depth 1\n";
    for (std::size_t i = 0; i < counts.size(); ++i)
      s += "Position " + std::to_string(i + 1) + " : " + std::to_string(counts[i]) + "\n";
    return s + "Nodes searched : " + std::to_string(total) + "\nNodes/second : 1\n";
  };
  rc::prop("generated counts, totals that add up or not", [&] {
    const auto a = *rc::gen::container<std::vector<std::uint64_t>>(
        rc::gen::inRange<std::uint64_t>(0, 1000000));
    std::uint64_t sum = 0;
    for (auto x : a) sum += x;
    const std::uint64_t off = *rc::gen::element<std::uint64_t>(0, 0, 1);
    const auto parsed = bd::parse_bench_counts(output(a, sum + off));
    // Readable exactly when positions were printed and they add up to the total.
    RC_ASSERT(parsed.has_value() == (!a.empty() && off == 0));
    if (!parsed) return;
    RC_ASSERT(parsed->per_position == a);
    RC_ASSERT(parsed->nodes == sum);
    // Another run: equal, one count changed, or positions added or removed at the end.
    std::vector<std::uint64_t> b = a;
    const int change = *rc::gen::inRange(0, 3);
    if (change == 1) b[*rc::gen::inRange<std::size_t>(0, b.size())] += 1;
    if (change == 2) b.push_back(*rc::gen::inRange<std::uint64_t>(0, 9));
    if (change == 3 && b.size() > 1) b.pop_back();
    bd::BenchCounts ca{sum, a}, cb{0, b};
    for (auto x : b) cb.nodes += x;
    std::size_t first = 0;  // the model: 1-based first index where they differ, 0 when equal
    for (std::size_t i = 0; i < std::max(a.size(), b.size()) && first == 0; ++i)
      if (i >= a.size() || i >= b.size() || a[i] != b[i]) first = i + 1;
    RC_ASSERT(bd::first_differing_position(ca, cb) == first);
    RC_ASSERT(bd::first_differing_position(cb, ca) == first);
  });
}
