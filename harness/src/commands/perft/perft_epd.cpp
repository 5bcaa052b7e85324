#include "commands/perft/perft_epd.h"

#include <filesystem>
#include <sstream>

#include "cli/cli.h"
#include "position.h"
#include "common/counts.h"

namespace stk::harness {

std::string PerftEntry::id() const {
  return std::filesystem::path(file).stem().string() + ":" + std::to_string(line);
}

std::vector<PerftEntry> read_perft_epd(const std::string& path) {
  std::vector<PerftEntry> out;
  auto lines = read_lines(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    std::string where = path + ":" + std::to_string(i + 1) + ": ";
    auto first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#') continue;
    PerftEntry e;
    e.file = path;
    e.line = int(i + 1);
    auto semi = l.find(';');
    if (semi == std::string::npos) throw InputError(where + "no ';D<depth> <count>' fields");
    e.fen = l.substr(first, semi - first);
    while (!e.fen.empty() && e.fen.back() == ' ') e.fen.pop_back();
    Position pos;
    if (auto err = pos.set(e.fen, true)) throw InputError(where + "illegal FEN: " + *err);
    std::istringstream rest(l.substr(semi));
    std::string field;
    while (std::getline(rest, field, ';')) {
      std::istringstream fs(field);
      std::string dtok, ntok, extra;
      if (!(fs >> dtok)) continue;  // the empty piece before the first ';'
      fs >> ntok;
      if (fs >> extra)
        throw InputError(where + "unexpected text '" + extra + "' in '" + field + "'");
      // Digits only: "-20" is no count (std::stoull read it as 2^64 - 20), "+3" no depth.
      const std::uint64_t d = dtok.size() >= 2 && dtok[0] == 'D'
                                  ? parse_count(dtok.substr(1)).value_or(0)
                                  : 0;
      const std::optional<std::uint64_t> n = parse_count(ntok);
      if (!n.has_value() || d < 1 || d > 15)
        throw InputError(where + "malformed depth field '" + field +
                         "' (expected 'D<depth> <count>', each digits only)");
      const int depth = int(d);
      const std::uint64_t nodes = n.value_or(0);
      if (!e.counts.empty() && depth <= e.counts.back().first)
        throw InputError(where + "depth D" + std::to_string(depth) + " repeated or out of order");
      e.counts.emplace_back(depth, nodes);
    }
    if (e.counts.empty()) throw InputError(where + "no ';D<depth> <count>' fields");
    out.push_back(std::move(e));
  }
  if (out.empty()) throw InputError(path + ": no perft positions in file");
  return out;
}

}  // namespace stk::harness
