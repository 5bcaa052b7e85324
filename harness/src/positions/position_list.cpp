#include "positions/position_list.h"

#include <sstream>

#include "cli/cli.h"
#include "position.h"

namespace stk::harness::fhcollect {

std::vector<ListedPosition> read_position_list(const std::string& path) {
  std::vector<ListedPosition> out;
  const auto lines = read_lines(path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& text = lines[i];
    std::istringstream in(text);
    std::string f[4];
    if (!(in >> f[0]) || f[0][0] == '#') continue;
    const std::string where = path + ":" + std::to_string(i + 1) + ": ";
    if (!(in >> f[1] >> f[2] >> f[3]))
      throw InputError(where + "expected the four FEN fields of an EPD line");
    ListedPosition p;
    p.line = int(i + 1);
    // The six-field form keeps its counters, which the FEN rule then judges (a counter too long
    // for it is refused, never dropped); four fields (or operations after them) get "0 1".
    std::string counters = " 0 1";
    std::string half, full;
    auto is_count = [](const std::string& s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (in >> half >> full && is_count(half) && is_count(full)) counters = " " + half + " " + full;
    p.fen = f[0] + " " + f[1] + " " + f[2] + " " + f[3] + counters;
    Position pos;
    if (auto err = pos.set(p.fen)) throw InputError(where + "invalid position: " + *err);
    auto at = text.find("id \"");
    if (at != std::string::npos) {
      auto end = text.find('"', at + 4);
      if (end == std::string::npos) throw InputError(where + "unterminated id operand");
      p.id = text.substr(at + 4, end - at - 4);
    } else {
      p.id = "line " + std::to_string(i + 1);
    }
    out.push_back(std::move(p));
  }
  if (out.empty()) throw InputError(path + ": no positions");
  return out;
}

}  // namespace stk::harness::fhcollect
