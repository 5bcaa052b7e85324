#include "commands/shadow/shadow_isolation.h"

#include <algorithm>

namespace stk::harness::shadow {

namespace {

struct Component {
  const char* name;
  bool Isolation::*flag;
};
constexpr Component kComponents[] = {{"heuristics", &Isolation::heuristics},
                                     {"table", &Isolation::table},
                                     {"stack", &Isolation::stack},
                                     {"mate", &Isolation::mate},
                                     {"iir", &Isolation::iir}};
constexpr std::pair<const char*, Isolation> kLevels[] = {{"legacy", kLegacy},
                                                         {"heuristics", kHeuristicsLevel},
                                                         {"table", kTableLevel},
                                                         {"exact", kExact}};

}  // namespace

std::string isolation_name(const Isolation& i) {
  for (const auto& [name, level] : kLevels)
    if (i == level) return name;
  std::string out;
  for (const Component& c : kComponents)
    if (i.*c.flag) out += (out.empty() ? "" : "+") + std::string(c.name);
  return out.empty() ? "none" : out;
}

std::optional<Isolation> parse_isolation(std::string_view text) {
  for (const auto& [name, level] : kLevels)
    if (text == name) return level;
  Isolation out;
  while (!text.empty()) {
    const std::size_t plus = text.find('+');
    const std::string_view part = text.substr(0, plus);
    bool known = false;
    for (const Component& c : kComponents)
      if (part == c.name) out.*c.flag = known = true;
    if (!known) return std::nullopt;
    if (plus == std::string_view::npos) break;
    text.remove_prefix(plus + 1);
    if (text.empty()) return std::nullopt;
  }
  return out;
}

search::TTEntry* SlotOverlay::find(std::size_t slot) {
  const std::size_t mask = buckets_.size() - 1;
  for (std::size_t b = home(slot);; b = (b + 1) & mask) {
    const std::uint32_t v = buckets_[b];
    if (!v) return nullptr;
    Item& it = item(v - 1);
    if (it.slot == slot) return &it.entry;
  }
}

search::TTEntry& SlotOverlay::insert(std::size_t slot, const search::TTEntry& e) {
  if ((count_ + 1) * 2 > buckets_.size()) grow();
  if (count_ == chunks_.size() * kChunk) chunks_.push_back(std::make_unique<Item[]>(kChunk));
  Item& it = item(count_);
  it.slot = slot;
  it.entry = e;
  const std::size_t mask = buckets_.size() - 1;
  std::size_t b = home(slot);
  while (buckets_[b]) b = (b + 1) & mask;
  buckets_[b] = std::uint32_t(++count_);
  return it.entry;
}

void SlotOverlay::grow() {
  buckets_.assign(buckets_.size() * 2, 0);
  const std::size_t mask = buckets_.size() - 1;
  for (std::size_t i = 0; i < count_; ++i) {
    std::size_t b = home(item(i).slot);
    while (buckets_[b]) b = (b + 1) & mask;
    buckets_[b] = std::uint32_t(i + 1);
  }
}

void SlotOverlay::clear() {
  if (count_ * 8 > buckets_.size()) {
    std::fill(buckets_.begin(), buckets_.end(), 0);
  } else {
    // Each item's bucket lies on its probe sequence; emptied buckets before it are skipped.
    const std::size_t mask = buckets_.size() - 1;
    for (std::size_t i = 0; i < count_; ++i) {
      std::size_t b = home(item(i).slot);
      while (buckets_[b] != i + 1) b = (b + 1) & mask;
      buckets_[b] = 0;
    }
  }
  count_ = 0;
}

void Journal::rewind_heuristics(const Mark& m) {
  history_redo_.clear();
  counter_redo_.clear();
  for (std::size_t i = history_.size(); i-- > m.history;) {
    history_redo_.push_back({history_[i].at, *history_[i].at});
    *history_[i].at = history_[i].old;
  }
  for (std::size_t i = counter_.size(); i-- > m.counter;) {
    counter_redo_.push_back({counter_[i].at, *counter_[i].at});
    *counter_[i].at = counter_[i].old;
  }
}

void Journal::replay_heuristics() {
  for (std::size_t i = history_redo_.size(); i-- > 0;) *history_redo_[i].at = history_redo_[i].old;
  for (std::size_t i = counter_redo_.size(); i-- > 0;) *counter_redo_[i].at = counter_redo_[i].old;
  history_redo_.clear();
  counter_redo_.clear();
}

void Journal::undo_since(const Mark& m) {
  for (std::size_t i = history_.size(); i-- > m.history;) *history_[i].at = history_[i].old;
  for (std::size_t i = counter_.size(); i-- > m.counter;) *counter_[i].at = counter_[i].old;
  history_.resize(m.history);
  counter_.resize(m.counter);
}

void Journal::rewind_killers(const Mark& m, search::StackEntry* stack, int from, int to) const {
  for (std::size_t i = killers_.size(); i-- > m.killers;) {
    const KillerUndo& k = killers_[i];
    if (k.index >= from && k.index < to)
      stack[k.index].killers[0] = k.old[0], stack[k.index].killers[1] = k.old[1];
  }
}

void Journal::table_before(const Mark& m, SlotOverlay& overlay) const {
  // The first store to a slot after the mark saw the slot as it was at the mark.
  for (std::size_t i = m.table; i < table_.size(); ++i)
    if (!overlay.find(table_[i].slot)) overlay.insert(table_[i].slot, table_[i].old);
}

}  // namespace stk::harness::shadow
