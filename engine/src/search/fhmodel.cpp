#include "search/fhmodel.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <sstream>

#include "file_bytes.h"
#include "stk_fhmodel_default.h"  // generated from fhmodel_default.txt: kFhModelDefaultText

namespace stk::search::fh {

const std::array<const char*, kFeatureCount> kFeatureNames = {
    "depth_lg",      "gap_lg",      "ordinal_lg",      "ordinal_frac",
    "whole_node",    "tier_tt",     "tier_counter",    "tier_losing_capture",
    "move_value",    "improving",   "opp_improving",   "cut_node",
    "phase",         "fh_rate",     "fh_tries_lg",     "good_captures",
    "cut_x_good",    "legal_lg",    "gap_sq",          "ordinal_sq",
    "gap_x_ordinal", "value_x_gap", "value_x_ordinal", "rate_x_tries",
    "whole_x_depth", "whole_x_gap", "depth_sq",        "depth_x_gap"};

void features(const Inputs& in, std::int32_t f[kFeatureCount]) {
  const int good = 32 * std::min(in.good_captures, 8);
  f[0] = lg(unsigned(in.depth));
  f[1] = lg(unsigned(in.gap) + 1);
  f[2] = lg(unsigned(in.ordinal) + 1);
  f[3] = in.legal > 0 ? 256 * in.ordinal / in.legal : 0;
  f[4] = in.whole_node ? 256 : 0;
  f[5] = in.tier == kTableMove ? 256 : 0;
  f[6] = in.tier == kCountermove ? 256 : 0;
  f[7] = in.tier == kLosingCapture ? 256 : 0;
  f[8] = in.move_value / 4;
  f[9] = in.improving ? 256 : 0;
  f[10] = in.opp_improving ? 256 : 0;
  f[11] = in.cut_node ? 256 : 0;
  f[12] = 10 * in.phase;
  f[13] = (256 * in.fh_cuts + 32) / (in.fh_tries + 2);
  f[14] = lg(unsigned(in.fh_tries) + 1);
  f[15] = good;
  f[16] = in.cut_node ? good : 0;
  f[17] = lg(unsigned(in.legal) + 1);
  // Cross terms measured on held-out records (the low-probability tail of the LMR population and
  // the depth bands): products of the features above, >> 8 (arithmetic in C++20: floor).
  f[18] = (f[1] * f[1]) >> 8;
  f[19] = (f[2] * f[2]) >> 8;
  f[20] = (f[1] * f[2]) >> 8;
  f[21] = (f[8] * f[1]) >> 8;
  f[22] = (f[8] * f[2]) >> 8;
  f[23] = (f[13] * f[14]) >> 8;
  f[24] = in.whole_node ? f[0] : 0;
  f[25] = in.whole_node ? f[1] : 0;
  f[26] = (f[0] * f[0]) >> 8;
  f[27] = (f[0] * f[1]) >> 8;
}

std::uint16_t Model::predict(const Inputs& in) const {
  std::int32_t f[kFeatureCount];
  features(in, f);
  const auto& w = w_[in.side];
  std::int64_t acc = w[0];
  for (int i = 0; i < kFeatureCount; ++i) acc += std::int64_t(w[i + 1]) * f[i];
  std::int64_t idx = std::clamp<std::int64_t>((acc >> shift_) + kLutSize / 2, 0, kLutSize - 1);
  return lut_[std::size_t(idx)];
}

namespace {

// Tokens of a model text with their line numbers; '#' starts a comment line.
struct Tokens {
  std::vector<std::pair<std::string, int>> items;
  std::size_t pos = 0;
  std::string source;

  [[noreturn]] void fail(int line, const std::string& why) const {
    throw ModelError(source + ":" + std::to_string(line) + ": " + why);
  }
  int line() const {
    return pos < items.size() ? items[pos].second : (items.empty() ? 1 : items.back().second);
  }
  const std::string& next(const char* what) {
    if (pos >= items.size()) fail(line(), std::string("unexpected end of file, expected ") + what);
    return items[pos++].first;
  }
  void expect(const char* word) {
    int l = line();
    const std::string& t = next(word);
    if (t != word) fail(l, "expected '" + std::string(word) + "', found '" + t + "'");
  }
  std::int64_t integer(const char* what, std::int64_t lo, std::int64_t hi) {
    int l = line();
    const std::string& t = next(what);
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size())
      fail(l, std::string(what) + ": '" + t + "' is not an integer");
    if (v < lo || v > hi)
      fail(l, std::string(what) + " " + t + " out of range [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
    return v;
  }
};

}  // namespace

Model Model::parse(std::string_view text, const std::string& source) {
  Tokens tk;
  tk.source = source;
  std::istringstream in{std::string(text)};
  std::string row;
  for (int n = 1; std::getline(in, row); ++n) {
    if (!row.empty() && row[0] == '#') continue;
    std::istringstream words(row);
    for (std::string w; words >> w;) tk.items.emplace_back(w, n);
  }
  Model m;
  tk.expect("stk-fhmodel");
  tk.integer("version", 1, 1);
  tk.expect("features");
  for (const char* name : kFeatureNames) {
    int l = tk.line();
    const std::string& t = tk.next(name);
    if (t != name)
      tk.fail(l,
              "feature '" + t + "' where '" + name + "' was expected (names and order are fixed)");
  }
  tk.expect("shift");
  m.shift_ = int(tk.integer("shift", 8, 30));
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min(),
                         hi = std::numeric_limits<std::int32_t>::max();
  for (Side s : {kAlpha, kBeta}) {
    tk.expect(s == kAlpha ? "alpha" : "beta");
    for (int i = 0; i <= kFeatureCount; ++i)
      m.w_[s][i] = std::int32_t(tk.integer(i == 0 ? "bias" : kFeatureNames[i - 1], lo, hi));
  }
  if (m.w_[kBeta][1 + kLegalLg] != 0)  // the move count is unknown at the beta-side decision
    tk.fail(tk.line(),
            "beta legal_lg weight must be 0 (the move count is unknown at the static null move)");
  tk.expect("lut");
  tk.integer("lut size", kLutSize, kLutSize);
  m.lut_.resize(kLutSize);
  for (int i = 0; i < kLutSize; ++i) {
    int l = tk.line();
    m.lut_[i] = std::uint16_t(tk.integer("lut entry", 0, 65535));
    if (i > 0 && m.lut_[i] < m.lut_[i - 1])
      tk.fail(l, "lut entry " + std::to_string(i) + " decreases");
  }
  tk.expect("end");
  if (tk.pos != tk.items.size()) tk.fail(tk.line(), "trailing data after 'end'");
  return m;
}

Model Model::load_file(const std::string& path) {
  std::string text, error;
  if (!read_file_text(path, &text, &error)) throw ModelError(error);
  return parse(text, path);
}

const Model& Model::builtin() {
  static const Model m = parse(kFhModelDefaultText, "<builtin fhmodel_default.txt>");
  return m;
}

}  // namespace stk::search::fh
