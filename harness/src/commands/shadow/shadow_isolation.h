// What a shadow search starts from: the isolation levels of the shadow audit, and the undo
// journals that let a shadow search see the real search's state as it was when the decision's
// own search began, without ever writing the real table.
//
// Why "before the decision": a control repeats the decision's own search (e.g. the reduced
// search of an LMR move) and must find what the real search found. Started from the state
// AFTER that search, it would read back the search's own answer (the table entry it stored at
// the child, with the same depth and bound) and measure nothing; the miss search would start
// with move ordering learnt from the search it is meant to replace. Started from the state
// BEFORE it, the control is a replay: under the exact level it repeats the real search node
// for node, so any control hit means the shadow is not isolated the way this file claims.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "search/policy.h"
#include "search/tt.h"
#include "search/worker.h"

namespace stk::harness::shadow {

// What a shadow search takes from the real search, component by component. With none of them
// ("legacy", the first audit): history, countermoves and killers as the real search left them
// (after the decision's search), a private table (fresh per position, aged per shadow search), a
// fresh stack beyond ply+1, no mate-distance pruning, no IIR at the shadow root.
struct Isolation {
  bool heuristics = false;  // history, countermoves and the killers of the copied stack entries
                            // (up to ply+1) as they were when the decision's search began
  bool table = false;       // the real table as it was when the decision's search began, read-only,
                            // under a private overlay of the shadow's writes keyed by the real
                            // table's slots (same replacement rule): exactly what a copy would hold
  bool stack = false;       // the killers of every deeper stack entry too (a quiescence node reads
                            // killers its parent did not reset)
  bool mate = false;        // mate-distance pruning in shadow searches, as in the real search
  bool iir = false;  // internal iterative reduction at the shadow root, as in the real search
  bool operator==(const Isolation&) const = default;
};
// The levels, each keeping what the previous one does; "exact" has every component.
constexpr Isolation kLegacy{}, kHeuristicsLevel{.heuristics = true},
    kTableLevel{.heuristics = true, .table = true},
    kExact{.heuristics = true, .table = true, .stack = true, .mate = true, .iir = true};
// A level's name, else its components joined by '+' ("none" for legacy's empty set).
std::string isolation_name(const Isolation& i);
// A level (legacy, heuristics, table, exact) or components joined by '+' (heuristics, table, stack,
// mate, iir; e.g. "table+stack" for exact without mate and iir): nullopt if malformed.
std::optional<Isolation> parse_isolation(std::string_view text);

// A map from real-table slot to entry with stable addresses (a probe's pointer stays valid while
// later stores add slots). Cleared per shadow search in time proportional to its size.
class SlotOverlay {
 public:
  SlotOverlay() : buckets_(std::size_t(1) << 12, 0) {}
  search::TTEntry* find(std::size_t slot);
  search::TTEntry& insert(std::size_t slot, const search::TTEntry& e);  // `slot` must be absent
  void clear();
  std::size_t size() const { return count_; }

 private:
  static constexpr std::size_t kChunk = 4096;
  struct Item {
    std::size_t slot;
    search::TTEntry entry;
  };
  Item& item(std::size_t i) { return chunks_[i / kChunk][i % kChunk]; }
  std::size_t home(std::size_t slot) const {
    return std::size_t((std::uint64_t(slot) * 0x9e3779b97f4a7c15ULL) >> 32) & (buckets_.size() - 1);
  }
  void grow();
  std::vector<std::unique_ptr<Item[]>> chunks_;
  std::vector<std::uint32_t> buckets_;  // item index + 1; 0 empty
  std::size_t count_ = 0;
};

struct TableUndo {
  std::size_t slot;
  search::TTEntry old;
};

// The table a search of the audit build uses (search_table() returns it by value, once per node):
// the real table, the real table with every store journaled (slot, previous entry) while a mark is
// open (decided at the store: a node's own store may come after a mark opened in its move loop),
// the legacy private table, or the slot overlay over the real table (read-only).
class AuditTable {
 public:
  enum class Mode : std::uint8_t { Real, Journaled, Private, Overlay };
  AuditTable(Mode mode, search::TranspositionTable& real, search::TranspositionTable* priv,
             SlotOverlay* overlay, std::vector<TableUndo>* journal, const bool* journal_open)
      : mode_(mode),
        real_(real),
        priv_(priv),
        overlay_(overlay),
        journal_(journal),
        journal_open_(journal_open) {}

  const search::TTEntry* probe(Key key) const {
    switch (mode_) {
      case Mode::Private: return priv_->probe(key);
      case Mode::Overlay: {
        const std::size_t s = real_.slot(key);
        const search::TTEntry* e = overlay_->find(s);
        return search::TranspositionTable::hit(e ? *e : real_.at(s), key);
      }
      default: return real_.probe(key);
    }
  }
  void store(Key key, Move move, int score, int eval, int depth, search::Bound bound) {
    switch (mode_) {
      case Mode::Real: real_.store(key, move, score, eval, depth, bound); break;
      case Mode::Journaled: {
        const std::size_t s = real_.slot(key);
        if (*journal_open_) journal_->push_back({s, real_.at(s)});
        real_.store(key, move, score, eval, depth, bound);
        break;
      }
      case Mode::Private: priv_->store(key, move, score, eval, depth, bound); break;
      case Mode::Overlay: {
        const std::size_t s = real_.slot(key);
        search::TTEntry* e = overlay_->find(s);
        if (!e) e = &overlay_->insert(s, real_.at(s));
        search::TranspositionTable::store_entry(*e, real_.generation(), key, move, score, eval,
                                                depth, bound);
        break;
      }
    }
  }

 private:
  Mode mode_;
  search::TranspositionTable& real_;
  search::TranspositionTable* priv_;
  SlotOverlay* overlay_;
  std::vector<TableUndo>* journal_;
  const bool* journal_open_;
};

// Where the journals stood when a judged search began.
struct Mark {
  int ply = 0;
  search::JudgedSearch kind = search::JudgedSearch::Node;
  std::size_t history = 0, counter = 0, killers = 0, table = 0;
  std::uint64_t nodes = 0;  // the real search's node count (the judged search's size follows)
};

// Undo journals of the real search's writes to move-ordering memory and to the table, recorded
// while a mark is open (audit builds only), and of a shadow search's writes to history and
// countermoves (undone when it ends; its killers and table writes never reach the real ones).
class Journal {
 public:
  void history(int* at) { history_.push_back({at, *at}); }
  void countermove(Move* at) { counter_.push_back({at, *at}); }
  void killers(int index, const Move* k) { killers_.push_back({index, {k[0], k[1]}}); }
  std::vector<TableUndo>& table() { return table_; }

  Mark mark(int ply, search::JudgedSearch kind, std::uint64_t nodes = 0) const {
    return {ply, kind, history_.size(), counter_.size(), killers_.size(), table_.size(), nodes};
  }
  Mark now() const { return mark(0, search::JudgedSearch::Node); }
  void clear() { history_.clear(), counter_.clear(), killers_.clear(), table_.clear(); }

  // History and countermoves back to `m`, in place; replay_heuristics() restores the present.
  void rewind_heuristics(const Mark& m);
  void replay_heuristics();
  // Undoes (and forgets) the history/countermove writes made since `m` (a shadow search's).
  void undo_since(const Mark& m);
  // Killers of stack entries with index in [from, to) back to `m`, in the copy `stack` of the stack.
  void rewind_killers(const Mark& m, search::StackEntry* stack, int from, int to) const;
  // Fills `overlay` with the entries the real table held at `m` in the slots written since.
  void table_before(const Mark& m, SlotOverlay& overlay) const;

  std::size_t size() const {
    return history_.size() + counter_.size() + killers_.size() + table_.size();
  }

 private:
  struct HistoryUndo {
    int* at;
    int old;
  };
  struct CounterUndo {
    Move* at;
    Move old;
  };
  struct KillerUndo {
    int index;
    Move old[2];
  };
  std::vector<HistoryUndo> history_, history_redo_;
  std::vector<CounterUndo> counter_, counter_redo_;
  std::vector<KillerUndo> killers_;
  std::vector<TableUndo> table_;
};

}  // namespace stk::harness::shadow
