#include "uci_client/uci_lines.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace stk::harness::uci {

namespace {

// Words separated by the classic locale's white space, as `istream >> string` splits them, without a
// stream per line (the match runner reads every info line of every move).
std::vector<std::string> split_words(const std::string& line) {
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  std::vector<std::string> words;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !space(line[i])) ++i;
    if (i > start) words.emplace_back(line, start, i - start);
  }
  return words;
}

// Where the word with 0-based index `index` (as split_words counts) starts in `line`.
std::size_t word_start(const std::string& line, std::size_t index) {
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  std::size_t i = 0;
  for (std::size_t n = 0;; ++n) {
    while (i < line.size() && space(line[i])) ++i;
    if (n == index || i >= line.size()) return i;
    while (i < line.size() && !space(line[i])) ++i;
  }
}

template <typename T>
bool parse_number(const std::string& text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Joins words[from, to) with single spaces.
std::string join(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) s += (i > from ? " " : "") + words[i];
  return s;
}

}  // namespace

std::optional<InfoLine> parse_info(const std::string& line) {
  auto w = split_words(line);
  if (w.empty() || w[0] != "info") return std::nullopt;
  InfoLine info;
  auto number = [&](std::size_t& i, auto& field) {
    using T = typename std::remove_reference_t<decltype(field)>::value_type;
    T v{};
    if (i + 1 < w.size() && parse_number(w[i + 1], v)) field = v;
    else info.malformed.push_back(w[i] + (i + 1 < w.size() ? " " + w[i + 1] : ""));
    ++i;
  };
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string& k = w[i];
    if (k == "depth") number(i, info.depth);
    else if (k == "seldepth") number(i, info.seldepth);
    else if (k == "multipv") number(i, info.multipv);
    else if (k == "nodes") number(i, info.nodes);
    else if (k == "time") number(i, info.time_ms);
    else if (k == "score") {
      if (i + 2 < w.size() && (w[i + 1] == "cp" || w[i + 1] == "mate") &&
          parse_number(w[i + 2], info.score)) {
        info.score_kind = w[i + 1] == "cp" ? InfoLine::Score::Cp : InfoLine::Score::Mate;
        i += 2;
      } else {
        info.malformed.push_back("score" + (i + 1 < w.size() ? " " + w[i + 1] : ""));
      }
    } else if (k == "lowerbound") info.lowerbound = true;
    else if (k == "upperbound") info.upperbound = true;
    else if (k == "pv") {
      info.has_pv = true;
      info.pv.assign(w.begin() + std::ptrdiff_t(i) + 1, w.end());
      break;
    } else if (k == "string") {
      // The i-th word's own place in the line: a search for "string" would also find it inside
      // an earlier word ("nostring").
      const std::size_t at = word_start(line, i);
      info.text = at + 7 <= line.size() ? line.substr(at + 7) : "";
      break;
    }
    // Other fields (nps, hashfull, tbhits, currmove, wdl, ...) carry nothing checked here.
  }
  return info;
}

std::optional<BestMove> parse_bestmove(const std::string& line) {
  auto w = split_words(line);
  if (w.empty() || w[0] != "bestmove") return std::nullopt;
  BestMove b;
  if (w.size() > 1) b.move = w[1];
  if (w.size() > 3 && w[2] == "ponder") b.ponder = w[3];
  return b;
}

std::optional<OptionLine> parse_option(const std::string& line, std::string* problem) {
  auto w = split_words(line);
  if (w.empty() || w[0] != "option") return std::nullopt;
  OptionLine o;
  problem->clear();
  auto keyword = [](const std::string& s) {
    return s == "name" || s == "type" || s == "default" || s == "min" || s == "max" || s == "var";
  };
  // Values run to the next keyword: names and defaults may hold spaces ("Clear Hash").
  for (std::size_t i = 1; i < w.size();) {
    std::string k = w[i];
    std::size_t end = i + 1;
    // A name may contain keyword-like words only before "type"; everything else stops at one.
    while (end < w.size() && !(keyword(w[end]) && (k != "name" || w[end] == "type"))) ++end;
    std::string value = join(w, i + 1, end);
    if (k == "name") o.name = value;
    else if (k == "type") o.type = value;
    else if (k == "default") o.default_value = value;
    else if (k == "min") o.min = value;
    else if (k == "max") o.max = value;
    else if (k == "var") o.vars.push_back(value);
    else if (problem->empty()) *problem = "unexpected word '" + k + "'";
    i = end;
  }
  auto say = [&](const std::string& why) {
    if (problem->empty()) *problem = why;
  };
  if (o.name.empty()) say("no name");
  static const char* kTypes[] = {"check", "spin", "combo", "button", "string"};
  if (std::find(std::begin(kTypes), std::end(kTypes), o.type) == std::end(kTypes))
    say("type '" + o.type + "' is not check, spin, combo, button or string");
  if (o.type != "button" && !o.default_value) say("no default");
  if (o.type == "check" && o.default_value && *o.default_value != "true" &&
      *o.default_value != "false")
    say("check default '" + *o.default_value + "' is not true or false");
  if (o.type == "spin") {
    long long lo = 0, hi = 0, def = 0;
    if (!o.min || !parse_number(*o.min, lo)) say("spin min missing or not an integer");
    else if (!o.max || !parse_number(*o.max, hi)) say("spin max missing or not an integer");
    else if (!o.default_value || !parse_number(*o.default_value, def))
      say("spin default not an integer");
    else if (lo > hi || def < lo || def > hi)
      say("spin default " + std::to_string(def) + " outside [" + std::to_string(lo) + ", " +
          std::to_string(hi) + "]");
  }
  if (o.type == "combo" &&
      (o.vars.empty() || !o.default_value ||
       std::find(o.vars.begin(), o.vars.end(), *o.default_value) == o.vars.end()))
    say("combo default is not one of its vars");
  return o;
}

}  // namespace stk::harness::uci
