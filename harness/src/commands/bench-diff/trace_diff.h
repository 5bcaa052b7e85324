// The comparison at the heart of bench-diff: two search traces (engine/src/search/trace.h, one
// record per line) read in step, record by record, keeping only the current path from the root (one
// node record and one move per ply), so memory stays constant whatever the trees' size. The first
// record where the two differ is where the searches part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace stk::harness::bench_diff {

// A stream of lines: a child's pipe, a file, a string (tests).
class LineSource {
 public:
  virtual ~LineSource() = default;
  // The next line without its newline; false at the end of the stream.
  virtual bool next(std::string& line) = 0;
};

// Lines of a file descriptor (a pipe), read in blocks. Does not close it.
class FdLineSource : public LineSource {
 public:
  explicit FdLineSource(int fd) : fd_(fd) {}
  bool next(std::string& line) override;

 private:
  int fd_;
  std::vector<char> buffer_ = std::vector<char>(std::size_t(1) << 16);
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
};

// Lines of an istream.
class StreamLineSource : public LineSource {
 public:
  explicit StreamLineSource(std::istream& in) : in_(in) {}
  bool next(std::string& line) override { return bool(std::getline(in_, line)); }

 private:
  std::istream& in_;
};

// One step of the path from the root to the node where the traces part.
struct PathStep {
  int ply = 0;
  std::string node;  // the node's record ("3 node depth=7 window=[-20,-19] cut key=...")
  std::string move;  // the move made from it towards the divergence (UCI; 0000 the null move)
};

struct Divergence {
  std::uint64_t record = 0;     // 1-based number of the first differing record
  std::string base, candidate;  // the two records; "<end of trace>" where one stream ended
  int ply = 0;                  // the ply of the node the records belong to
  std::string iteration;        // the root iteration record the divergence lies in
  std::vector<PathStep> path;   // root first; the last step is the node itself (its move "")
  std::string event;            // the base record's event ("move", "lmr", ...)
  std::string field;            // the first field that differs ("event" when the events do)
  std::string base_value, candidate_value;  // that field in each record
  std::string mechanism;  // what decided differently ("LMR", "SEE", "futility", ...)
};

struct TraceDiff {
  bool diverged = false;
  std::uint64_t records = 0;  // records read from each stream (equal ones, plus the differing one)
  Divergence divergence;
  std::size_t peak_path = 0;  // the deepest path kept (plies): the comparison's whole memory
};

// Reads both streams in step to the first differing record, or to the end of both.
TraceDiff diff_traces(LineSource& base, LineSource& candidate);

// The mechanism two differing records point at, from their events and the first field that
// differs: "LMR", "LMR (reduction table entry)", "LMP", "futility", "SEE pruning", "SEE",
// "null move", "static null move (reverse futility)", "TT cut", "TT contents", "IIR",
// "extension", "move ordering", "static evaluation", "delta pruning (qsearch)", ...
std::string mechanism_of(const std::string& base_record, const std::string& candidate_record);

// The moves of a divergence's path, root first, as "e2e4 e7e5 ..." ("(root)" when empty).
std::string path_text(const Divergence& d);

}  // namespace stk::harness::bench_diff
